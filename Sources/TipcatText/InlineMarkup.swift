@_spi(Tipcat) import TipcatCore

/// Inline Markdown in a tip's texts, as TipKit's `Text` shows it: `**strong**`, `*emphasis*` (or `_…_`),
/// `` `code` ``, `[label](https://…)` links and `<https://…>` autolinks, with backslash escapes.
///
/// Parsed by CommonMark's inline rules (delimiter runs, left- and right-flanking, the rule of three, link text
/// binding tighter than emphasis, code spans tighter than both). Deliberately not interpreted, and kept as
/// literal text: raw HTML, entity references (`&amp;`), reference links, and everything that is a block in
/// Markdown (headings, lists, quotes) — a tip's text is one paragraph. An image (`![alt](src)`) shows its alt
/// text and is reported, since a tip cannot show it.
///
/// Parsing is linear in the text: link destinations and titles are looked for within `maximumLinkTail` bytes,
/// code spans remember which closing lengths do not occur, and the emphasis pass keeps CommonMark's per-kind
/// lower bounds.
public struct InlineMarkup: Sendable, Hashable {
    /// A node of the parsed text.
    public indirect enum Node: Sendable, Hashable {
        case text(String)
        /// `` `code` ``: shown verbatim.
        case code(String)
        /// `*…*` or `_…_`.
        case emphasis([Node])
        /// `**…**` or `__…__`.
        case strong([Node])
        /// `[label](destination)` or `<destination>`.
        case link(destination: String, [Node])
        /// `![alt](source)`: a tip shows the alt text.
        case image(source: String, [Node])
    }

    /// Something that probably is not what the writer meant, at a UTF-8 byte offset of the text.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public enum Kind: Sendable, Hashable {
            /// Unclosed emphasis, code span or link; an image.
            case malformed
            /// A link whose scheme is not `http`, `https` or `mailto` (`javascript:`, `file:`, `data:` …).
            case unsafeLink(String)
        }

        public var kind: Kind
        public var message: String
        public var offset: Int

        public var description: String { "\(message) (at byte \(offset))" }
    }

    public var nodes: [Node]
    public var problems: [Problem]

    public init(nodes: [Node], problems: [Problem] = []) {
        self.nodes = nodes
        self.problems = problems
    }

    /// Link destinations and titles are looked for at most this many bytes after `](`.
    public static let maximumLinkTail = 4096

    /// Emphasis and links nest at most this deep; deeper markup stays literal text (and is reported).
    public static let maximumDepth = 32

    /// The schemes a link may use; any other link shows its label only.
    public static let safeSchemes: Set<String> = ["http", "https", "mailto"]

    /// The bytes a substituted value has escaped: every byte that starts or closes markup, `]` included (a value's
    /// `]` could close a `[` of the message around it). `!` needs none: the `[` after it is escaped.
    @inline(__always)
    static func needsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "["), UInt8(ascii: "]"),
             UInt8(ascii: "\\"), UInt8(ascii: "<"):
            true
        default:
            false
        }
    }

    /// Whether `text` contains nothing that could be markup (it then parses to itself): none of `*` `_` `` ` ``
    /// `[` `\` `<` (`]` and `!` only mean something after a `[`).
    public static func isPlain(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { bytes in
            !bytes.contains { byte in
                byte == UInt8(ascii: "*") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "[")
                    || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "<")
            }
        }
    }

    /// Whether parsing `text` could report a problem: only emphasis delimiters, backticks, a `](` link tail or a
    /// `<` autolink can. Texts without any (`[fr] Later`, most texts) are not parsed by `validate` at all.
    public static func mayHaveProblems(_ text: String) -> Bool {
        mayFormMarkup(text, countingEscapes: false)
    }

    /// Whether `text` parses to itself as one text node: no `*` `_` `` ` `` `\` `<`, and no `](` (brackets alone,
    /// `[fr] Later`, form nothing).
    static func readsAsItself(_ text: String) -> Bool {
        !mayFormMarkup(text, countingEscapes: true)
    }

    /// Whether `text` holds `*`, `_`, `` ` ``, `<` or `](` — anything that can form markup — or, when
    /// `countingEscapes`, a backslash (which changes the text it escapes without being a problem).
    private static func mayFormMarkup(_ text: String, countingEscapes: Bool) -> Bool {
        var copy = text
        return copy.withUTF8 { bytes in
            // Eight bytes at a time up to the first word holding a byte that may matter (a `(` counts only after
            // a `]`, checked byte by byte from there).
            // A backslash counts only when escapes do; otherwise the slot repeats `*`, which is tested anyway.
            let escape = countingEscapes ? UInt8(ascii: "\\") : UInt8(ascii: "*")
            let start = WordBytes.plainPrefix(bytes) { word in
                WordBytes.equal(word, UInt8(ascii: "*")) | WordBytes.equal(word, UInt8(ascii: "_"))
                    | WordBytes.equal(word, UInt8(ascii: "`")) | WordBytes.equal(word, UInt8(ascii: "<"))
                    | WordBytes.equal(word, escape) | WordBytes.equal(word, UInt8(ascii: "(")) != 0
            }
            var previous: UInt8 = start > 0 ? bytes[start - 1] : 0
            for byte in bytes[start...] {
                switch byte {
                case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "<"): return true
                case UInt8(ascii: "\\") where countingEscapes: return true
                case UInt8(ascii: "(") where previous == UInt8(ascii: "]"): return true
                default: previous = byte
                }
            }
            return false
        }
    }

    /// Parses `text`.
    public static func parse(_ text: String) -> InlineMarkup {
        if readsAsItself(text) { return InlineMarkup(nodes: text.isEmpty ? [] : [.text(text)], problems: []) }
        var copy = text
        return copy.withUTF8 { bytes in
            var parser = InlineParser(bytes: bytes)
            return parser.parse()
        }
    }

    /// The full parse, without the shortcut for texts that read as themselves (for tests).
    static func parseForTesting(_ bytes: UnsafeBufferPointer<UInt8>) -> InlineMarkup {
        var parser = InlineParser(bytes: bytes)
        return parser.parse()
    }

    /// What a reader sees: the text without markup (a link's label, an image's alt text, a code span's content).
    public var visibleText: String {
        var output = ""
        Self.appendVisible(nodes, to: &output)
        return output
    }

    private static func appendVisible(_ nodes: [Node], to output: inout String) {
        for node in nodes {
            switch node {
            case .text(let text), .code(let text): output += text
            case .emphasis(let children), .strong(let children), .link(_, let children), .image(_, let children):
                appendVisible(children, to: &output)
            }
        }
    }

    /// `text` with every character that could start or close markup backslash-escaped (`needsEscape`), so it
    /// parses as exactly itself: what a value substituted into a message becomes.
    public static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: needsEscape) else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if scalar.isASCII, needsEscape(UInt8(scalar.value)) { output.unicodeScalars.append("\\") }
            output.unicodeScalars.append(scalar)
        }
        return output
    }

    /// The scheme of a link destination (`https`, `javascript`), lower-cased, or nil when it has none.
    public static func scheme(of destination: String) -> String? {
        guard let colon = destination.firstIndex(of: ":") else { return nil }
        let scheme = destination[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        return scheme.lowercased()
    }

    /// Whether a link to `destination` may be followed: `http`, `https` or `mailto`.
    public static func isSafe(destination: String) -> Bool {
        guard let scheme = scheme(of: destination) else { return false }
        return safeSchemes.contains(scheme)
    }
}

/// CommonMark's inline parser over UTF-8 bytes: one pass that builds a linked list of pieces (text, code spans,
/// delimiter runs, links), then the emphasis pass.
private struct InlineParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var problems: [InlineMarkup.Problem] = []

    /// The pieces, linked through `next` / `previous` so that emphasis can wrap a range in constant time.
    var pieces: [Piece] = []
    var head = -1
    var tail = -1
    /// Pending `[` / `![` openers: indices into `pieces`.
    var brackets: [Bracket] = []
    /// Openers pushed before this sequence number can no longer form a link (links do not nest).
    var inactiveBelow = 0
    var bracketSequence = 0
    /// Backtick run lengths with no closing run anywhere after the position where they were looked for.
    var unclosedBacktickLengths: Set<Int> = []
    /// The text not yet turned into a piece.
    var pendingText: [UInt8] = []
    /// Bytes link tails may still scan: a few times the text, so that many `](` cannot make parsing quadratic.
    var linkTailBudget: Int
    /// Whether markup nested too deeply was left as text (reported once).
    var reportedDepth = false

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.linkTailBudget = 4 * bytes.count + InlineMarkup.maximumLinkTail
    }

    struct Piece {
        enum Content {
            case node(InlineMarkup.Node)
            /// A run of `*` or `_`: its character, the count left, the count it had, whether it can open or close.
            case delimiter(character: UInt8, count: Int, original: Int, canOpen: Bool, canClose: Bool, offset: Int)
            /// A `[` or `![` that is (still) text.
            case bracket(String)
        }

        var content: Content
        var previous: Int
        var next: Int
        /// How deeply nested the node is (1 for emphasis around text); 0 for text and delimiters.
        var depth = 0
    }

    struct Bracket {
        var piece: Int
        var isImage: Bool
        var sequence: Int
        var offset: Int
    }

    // MARK: The pieces list

    @discardableResult
    mutating func append(_ content: Piece.Content) -> Int {
        flushText()
        return appendPiece(content)
    }

    @discardableResult
    private mutating func appendPiece(_ content: Piece.Content) -> Int {
        let index = pieces.count
        pieces.append(Piece(content: content, previous: tail, next: -1))
        if tail >= 0 { pieces[tail].next = index } else { head = index }
        tail = index
        return index
    }

    mutating func flushText() {
        guard !pendingText.isEmpty else { return }
        let text = String(decoding: pendingText, as: UTF8.self)
        pendingText.removeAll(keepingCapacity: true)
        appendPiece(.node(.text(text)))
    }

    /// Unlinks the pieces strictly between `start` and `end` and returns them as nodes (delimiters and brackets
    /// left among them become text).
    mutating func takeNodes(after start: Int, before end: Int) -> [InlineMarkup.Node] {
        var nodes: [InlineMarkup.Node] = []
        var index = start >= 0 ? pieces[start].next : head
        while index >= 0, index != end {
            Self.appendNode(of: pieces[index].content, to: &nodes)
            index = pieces[index].next
        }
        if start >= 0 { pieces[start].next = end } else { head = end }
        if end >= 0 { pieces[end].previous = start } else { tail = start }
        return nodes
    }

    /// Adds a piece's node to `nodes`, merging adjacent text.
    static func appendNode(of content: Piece.Content, to nodes: inout [InlineMarkup.Node]) {
        let node: InlineMarkup.Node
        switch content {
        case .node(let value): node = value
        case .delimiter(let character, let count, _, _, _, _):
            guard count > 0 else { return }
            node = .text(String(repeating: Character(Unicode.Scalar(character)), count: count))
        case .bracket(let text): node = .text(text)
        }
        if case .text(let text) = node, case .text(let previous)? = nodes.last {
            nodes[nodes.count - 1] = .text(previous + text)
        } else {
            nodes.append(node)
        }
    }

    /// The deepest nesting among the pieces strictly between `start` and `end`.
    func depth(after start: Int, before end: Int) -> Int {
        var deepest = 0
        var index = start >= 0 ? pieces[start].next : head
        while index >= 0, index != end {
            deepest = max(deepest, pieces[index].depth)
            index = pieces[index].next
        }
        return deepest
    }

    mutating func reportDepth(at offset: Int) {
        guard !reportedDepth else { return }
        reportedDepth = true
        problems.append(.init(kind: .malformed, message: "markup nested more than \(InlineMarkup.maximumDepth) levels deep is shown as written", offset: offset))
    }

    /// Inserts a node piece between `previous` and `next` (which are adjacent).
    mutating func insert(_ node: InlineMarkup.Node, depth: Int, between previous: Int, and next: Int) -> Int {
        let index = pieces.count
        pieces.append(Piece(content: .node(node), previous: previous, next: next, depth: depth))
        if previous >= 0 { pieces[previous].next = index } else { head = index }
        if next >= 0 { pieces[next].previous = index } else { tail = index }
        return index
    }

    mutating func remove(_ index: Int) {
        let piece = pieces[index]
        if piece.previous >= 0 { pieces[piece.previous].next = piece.next } else { head = piece.next }
        if piece.next >= 0 { pieces[piece.next].previous = piece.previous } else { tail = piece.previous }
    }

    // MARK: Scanning

    mutating func parse() -> InlineMarkup {
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\\"): backslash()
            case UInt8(ascii: "`"): backticks()
            case UInt8(ascii: "*"), UInt8(ascii: "_"): delimiterRun(byte)
            case UInt8(ascii: "["):
                append(.bracket("["))
                openBracket(isImage: false, offset: position)
                position += 1
            case UInt8(ascii: "!") where position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "["):
                append(.bracket("!["))
                openBracket(isImage: true, offset: position)
                position += 2
            case UInt8(ascii: "]"): closeBracket()
            case UInt8(ascii: "<"): autolink()
            default:
                pendingText.append(byte)
                position += 1
            }
        }
        flushText()
        processEmphasis(above: -1)
        var nodes: [InlineMarkup.Node] = []
        var index = head
        while index >= 0 {
            Self.appendNode(of: pieces[index].content, to: &nodes)
            index = pieces[index].next
        }
        return InlineMarkup(nodes: nodes, problems: problems.sorted { $0.offset < $1.offset })
    }

    mutating func backslash() {
        let next = position + 1
        if next < bytes.count, Self.isASCIIPunctuation(bytes[next]) {
            pendingText.append(bytes[next])
            position += 2
        } else {
            pendingText.append(UInt8(ascii: "\\"))
            position += 1
        }
    }

    mutating func backticks() {
        let start = position
        var end = start
        while end < bytes.count, bytes[end] == UInt8(ascii: "`") { end += 1 }
        let length = end - start
        if !unclosedBacktickLengths.contains(length) {
            var scan = end
            while scan < bytes.count {
                guard bytes[scan] == UInt8(ascii: "`") else {
                    scan += 1
                    continue
                }
                var runEnd = scan
                while runEnd < bytes.count, bytes[runEnd] == UInt8(ascii: "`") { runEnd += 1 }
                if runEnd - scan == length {
                    append(.node(.code(Self.codeContent(bytes[end..<scan]))))
                    position = runEnd
                    return
                }
                scan = runEnd
            }
            unclosedBacktickLengths.insert(length)
        }
        problems.append(.init(kind: .malformed, message: "'\(String(repeating: "`", count: length))' opens a code span that is never closed; write '\\`' for a literal backtick", offset: start))
        pendingText.append(contentsOf: bytes[start..<end])
        position = end
    }

    /// A code span's content: line endings become spaces; one space is stripped from each side when both sides
    /// have one and the content is not all spaces.
    static func codeContent(_ slice: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        var content = slice.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: " ") : $0 }
        if content.count >= 2, content.first == UInt8(ascii: " "), content.last == UInt8(ascii: " "),
           content.contains(where: { $0 != UInt8(ascii: " ") }) {
            content.removeFirst()
            content.removeLast()
        }
        return String(decoding: content, as: UTF8.self)
    }

    mutating func delimiterRun(_ character: UInt8) {
        let start = position
        var end = start
        while end < bytes.count, bytes[end] == character { end += 1 }
        let before = Self.characterClass(endingAt: start, in: bytes)
        let after = Self.characterClass(startingAt: end, in: bytes)
        let leftFlanking = after != .whitespace && (after != .punctuation || before != .other)
        let rightFlanking = before != .whitespace && (before != .punctuation || after != .other)
        let canOpen: Bool
        let canClose: Bool
        if character == UInt8(ascii: "_") {
            canOpen = leftFlanking && (!rightFlanking || before == .punctuation)
            canClose = rightFlanking && (!leftFlanking || after == .punctuation)
        } else {
            canOpen = leftFlanking
            canClose = rightFlanking
        }
        append(.delimiter(character: character, count: end - start, original: end - start, canOpen: canOpen, canClose: canClose, offset: start))
        position = end
    }

    mutating func openBracket(isImage: Bool, offset: Int) {
        brackets.append(Bracket(piece: tail, isImage: isImage, sequence: bracketSequence, offset: offset))
        bracketSequence += 1
    }

    mutating func closeBracket() {
        let closing = position
        position += 1
        guard let opener = brackets.popLast() else {
            pendingText.append(UInt8(ascii: "]"))
            return
        }
        let opensTail = position < bytes.count && bytes[position] == UInt8(ascii: "(")
        guard opener.isImage || opener.sequence >= inactiveBelow else {
            pendingText.append(UInt8(ascii: "]"))
            return
        }
        guard opensTail, let (destination, end) = linkTail(at: position) else {
            if opensTail {
                problems.append(.init(kind: .malformed, message: "'](' starts a link destination that is not closed by ')' on this text; write '\\[' for a literal bracket", offset: closing))
            }
            pendingText.append(UInt8(ascii: "]"))
            return
        }
        flushText()
        processEmphasis(above: opener.piece)
        let labelDepth = depth(after: opener.piece, before: -1)
        guard labelDepth < InlineMarkup.maximumDepth else {
            // Too deep: this and every pending opener stay text.
            reportDepth(at: opener.offset)
            brackets.removeAll()
            pendingText.append(UInt8(ascii: "]"))
            return
        }
        let label = takeNodes(after: opener.piece, before: -1)
        let before = pieces[opener.piece].previous
        remove(opener.piece)
        if opener.isImage {
            problems.append(.init(kind: .malformed, message: "a tip cannot show an image: only its alt text is shown", offset: opener.offset))
            _ = insert(.image(source: destination, label), depth: labelDepth + 1, between: before, and: -1)
        } else {
            if !InlineMarkup.isSafe(destination: destination) {
                let scheme = InlineMarkup.scheme(of: destination) ?? ""
                problems.append(.init(kind: .unsafeLink(scheme), message: scheme.isEmpty
                    ? "the link '\(destination)' has no scheme; tips link to 'https:', 'http:' or 'mailto:' addresses"
                    : "the link '\(destination)' uses '\(scheme):'; tips link to 'https:', 'http:' or 'mailto:' addresses", offset: opener.offset))
            }
            _ = insert(.link(destination: destination, label), depth: labelDepth + 1, between: before, and: -1)
            inactiveBelow = opener.sequence  // no link inside a link: earlier `[` openers become text
        }
        position = end
    }

    /// `(destination "title")` at `start` (which holds `(`): the destination and the index after `)`, or nil.
    mutating func linkTail(at start: Int) -> (String, Int)? {
        let limit = min(bytes.count, start + min(InlineMarkup.maximumLinkTail, linkTailBudget))
        guard limit > start + 1 else { return nil }
        var index = start + 1
        defer { linkTailBudget -= index - start }
        func skipSpace() { while index < limit, Self.isSpaceOrNewline(bytes[index]) { index += 1 } }
        skipSpace()
        var destination: [UInt8] = []
        if index < limit, bytes[index] == UInt8(ascii: "<") {
            index += 1
            while index < limit, bytes[index] != UInt8(ascii: ">") {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "<") { return nil }
                if byte == UInt8(ascii: "\\"), index + 1 < limit, Self.isASCIIPunctuation(bytes[index + 1]) {
                    destination.append(bytes[index + 1])
                    index += 2
                    continue
                }
                destination.append(byte)
                index += 1
            }
            guard index < limit else { return nil }
            index += 1
        } else {
            var depth = 0
            while index < limit {
                let byte = bytes[index]
                if byte <= 0x20 || byte == 0x7F { break }
                if byte == UInt8(ascii: "\\"), index + 1 < limit, Self.isASCIIPunctuation(bytes[index + 1]) {
                    destination.append(bytes[index + 1])
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "(") {
                    depth += 1
                } else if byte == UInt8(ascii: ")") {
                    if depth == 0 { break }
                    depth -= 1
                }
                destination.append(byte)
                index += 1
            }
            guard depth == 0 else { return nil }
        }
        let afterDestination = index
        skipSpace()
        if index < limit, index > afterDestination, let close = Self.titleClose(bytes[index]) {
            index += 1
            while index < limit, bytes[index] != close {
                if bytes[index] == UInt8(ascii: "\\"), index + 1 < limit { index += 1 }
                index += 1
            }
            guard index < limit else { return nil }
            index += 1
            skipSpace()
        }
        guard index < limit, bytes[index] == UInt8(ascii: ")") else { return nil }
        return (String(decoding: destination, as: UTF8.self), index + 1)
    }

    static func titleClose(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\""): UInt8(ascii: "\"")
        case UInt8(ascii: "'"): UInt8(ascii: "'")
        case UInt8(ascii: "("): UInt8(ascii: ")")
        default: nil
        }
    }

    /// `<scheme:…>`: a URI autolink; otherwise `<` is text.
    mutating func autolink() {
        let start = position
        var index = start + 1
        let limit = min(bytes.count, start + InlineMarkup.maximumLinkTail)
        var schemeLength = 0
        while index < limit, Self.isSchemeByte(bytes[index], first: schemeLength == 0) {
            schemeLength += 1
            index += 1
        }
        guard (2...32).contains(schemeLength), index < limit, bytes[index] == UInt8(ascii: ":") else {
            pendingText.append(UInt8(ascii: "<"))
            position += 1
            return
        }
        while index < limit, bytes[index] > 0x20, bytes[index] != UInt8(ascii: "<"), bytes[index] != UInt8(ascii: ">") { index += 1 }
        guard index < limit, bytes[index] == UInt8(ascii: ">") else {
            pendingText.append(UInt8(ascii: "<"))
            position += 1
            return
        }
        let destination = String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
        if !InlineMarkup.isSafe(destination: destination) {
            let scheme = InlineMarkup.scheme(of: destination) ?? ""
            problems.append(.init(kind: .unsafeLink(scheme), message: "the link '\(destination)' uses '\(scheme):'; tips link to 'https:', 'http:' or 'mailto:' addresses", offset: start))
        }
        append(.node(.link(destination: destination, [.text(destination)])))
        position = index + 1
    }

    static func isSchemeByte(_ byte: UInt8, first: Bool) -> Bool {
        let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        if first { return letter }
        return letter || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    // MARK: Emphasis

    /// CommonMark's "process emphasis" over the delimiter runs after the piece `bottom` (-1: all of them).
    mutating func processEmphasis(above bottom: Int) {
        // The lowest piece an opener may be found at, per (character, closer length mod 3, closer can open).
        var openersBottom: [Int: Int] = [:]
        var current = bottom >= 0 ? pieces[bottom].next : head
        while current >= 0 {
            guard case .delimiter(let character, _, let closerOriginal, let closerCanOpen, let canClose, _) = pieces[current].content, canClose else {
                current = pieces[current].next
                continue
            }
            let key = Int(character) * 8 + (closerOriginal % 3) * 2 + (closerCanOpen ? 1 : 0)
            let floor = openersBottom[key] ?? bottom
            var candidate = pieces[current].previous
            var found = -1
            while candidate >= 0, candidate != floor, candidate != bottom {
                if case .delimiter(let openerCharacter, let count, let openerOriginal, let canOpen, let openerCanClose, _) = pieces[candidate].content,
                   openerCharacter == character, canOpen, count > 0 {
                    let oddMatch = (openerCanClose || closerCanOpen) && (openerOriginal + closerOriginal) % 3 == 0
                        && !(openerOriginal % 3 == 0 && closerOriginal % 3 == 0)
                    if !oddMatch {
                        found = candidate
                        break
                    }
                }
                candidate = pieces[candidate].previous
            }
            guard found >= 0,
                  case .delimiter(_, let openerCount, let openerOriginal, let openerCanOpen, let openerCanClose, let openerOffset) = pieces[found].content,
                  case .delimiter(_, let closerCount, _, _, _, let closerOffset) = pieces[current].content
            else {
                openersBottom[key] = pieces[current].previous
                let next = pieces[current].next
                if !closerCanOpen { pieces[current].content = Self.asText(pieces[current].content) }
                current = next
                continue
            }
            let childDepth = depth(after: found, before: current)
            guard childDepth < InlineMarkup.maximumDepth else {
                // Too deep: the closer stays text, and later closers of its kind look no further back.
                reportDepth(at: openerOffset)
                pieces[current].content = Self.asText(pieces[current].content)
                openersBottom[key] = current
                current = pieces[current].next
                continue
            }
            let used = openerCount >= 2 && closerCount >= 2 ? 2 : 1
            let children = takeNodes(after: found, before: current)
            let node: InlineMarkup.Node = used == 2 ? .strong(children) : .emphasis(children)
            _ = insert(node, depth: childDepth + 1, between: found, and: current)
            pieces[found].content = .delimiter(character: character, count: openerCount - used, original: openerOriginal,
                                               canOpen: openerCanOpen, canClose: openerCanClose, offset: openerOffset)
            pieces[current].content = .delimiter(character: character, count: closerCount - used, original: closerOriginal,
                                                 canOpen: closerCanOpen, canClose: canClose, offset: closerOffset + used)
            if openerCount - used == 0 { remove(found) }
            if closerCount - used == 0 {
                let next = pieces[current].next
                remove(current)
                current = next
            }
        }
        // Openers left without a closer: literal text, reported when they look like markup.
        var index = bottom >= 0 ? pieces[bottom].next : head
        while index >= 0 {
            if case .delimiter(let character, let count, _, let canOpen, let canClose, let offset) = pieces[index].content, count > 0 {
                if canOpen, !canClose {
                    let run = String(repeating: Character(Unicode.Scalar(character)), count: count)
                    problems.append(.init(kind: .malformed, message: "'\(run)' opens emphasis that is never closed; write '\\\(Character(Unicode.Scalar(character)))' for a literal '\(Character(Unicode.Scalar(character)))'", offset: offset))
                }
                pieces[index].content = Self.asText(pieces[index].content)
            }
            index = pieces[index].next
        }
    }

    static func asText(_ content: Piece.Content) -> Piece.Content {
        guard case .delimiter(let character, let count, _, _, _, _) = content else { return content }
        return .node(.text(String(repeating: Character(Unicode.Scalar(character)), count: count)))
    }

    // MARK: Character classes

    enum CharacterClass { case whitespace, punctuation, other }

    /// The class of the character before `index` (the start of the text counts as whitespace).
    static func characterClass(endingAt index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> CharacterClass {
        guard index > 0 else { return .whitespace }
        var start = index - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return characterClass(of: TextScanner.decode(bytes, at: start).scalar)
    }

    /// The class of the character at `index` (the end of the text counts as whitespace).
    static func characterClass(startingAt index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> CharacterClass {
        guard index < bytes.count else { return .whitespace }
        return characterClass(of: TextScanner.decode(bytes, at: index).scalar)
    }

    static func characterClass(of value: UInt32) -> CharacterClass {
        if value < 0x80 {
            let byte = UInt8(value)
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D { return .whitespace }
            return isASCIIPunctuation(byte) ? .punctuation : .other
        }
        guard let scalar = Unicode.Scalar(value) else { return .other }
        switch scalar.properties.generalCategory {
        case .spaceSeparator: return .whitespace
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return .punctuation
        default: return .other
        }
    }

    @inline(__always)
    static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }

    @inline(__always)
    static func isSpaceOrNewline(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A
    }
}
