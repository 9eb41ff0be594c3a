import TipcatCore

/// One token of the template: a run of text or one tag, with the whitespace decisions made about it.
struct Token {
    enum Kind {
        case text, variable, unescaped, section, inverted, close, comment, delimiters, partial, parent, block
    }

    var kind: Kind
    /// Byte range: the text, or the whole tag including its delimiters. Text ranges shrink when a
    /// standalone tag next to them takes its whitespace.
    var start: Int
    var end: Int
    /// Trimmed tag content without the sigil (and without `*` for dynamic names).
    var text = ""
    /// Parsed name, for variables, sections and dynamic partials or parents.
    var name = Name(parts: [], text: "")
    var dynamic = false
    /// Delimiters current at the tag (sections keep them for lambdas).
    var delimiters = Delimiters.standard
    /// Index of the matching close tag (for openers) or opener (for close tags).
    var match = -1
    /// Directly inside a parent tag pair, where only blocks count.
    var inParentBody = false
    /// The whitespace before the tag on its line was removed with it.
    var leftRemoved = false
    /// Standalone (see ``Parser/applyStandaloneRules()``).
    var standalone = false
    /// Partials and parents: indentation for a standalone tag. Blocks: the indentation of the content.
    var indentation: String?
    /// Blocks: the indentation removed from every line of the content where it is defined.
    var dedent = ""

    /// What the matching close tag must say.
    var closeKey: String { dynamic ? "*" + text : text }
}

/// Turns template bytes into the node tree: tokenize (with delimiter changes and section matching),
/// apply the standalone-line rules, build the tree.
struct Parser {
    let bytes: [UInt8]
    let file: SourceFile
    let maxNesting: Int
    var delimiters: Delimiters
    var tokens: [Token] = []

    init(file: SourceFile, delimiters: Delimiters, maxNesting: Int) {
        self.bytes = file.bytes.array
        self.file = file
        self.delimiters = delimiters
        self.maxNesting = maxNesting
    }

    static func parse(_ file: SourceFile, delimiters: Delimiters, maxNesting: Int) throws(TemplateError) -> [Node] {
        var parser = Parser(file: file, delimiters: delimiters, maxNesting: maxNesting)
        try parser.tokenize()
        parser.applyStandaloneRules()
        return parser.build(from: 0, to: parser.tokens.count)
    }

    func error(_ kind: TemplateError.Kind, at offset: Int) -> TemplateError {
        TemplateError(kind, at: file.location(ofByte: offset))
    }

    func string(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }

    /// The first index at or after `from` where `needle` starts.
    func find(_ needle: [UInt8], from: Int) -> Int? {
        guard let first = needle.first else { return nil }
        let count = bytes.count
        let length = needle.count
        var index = from
        while index + length <= count {
            if bytes[index] == first {
                var matched = 1
                while matched < length, bytes[index + matched] == needle[matched] { matched += 1 }
                if matched == length { return index }
            }
            index += 1
        }
        return nil
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }
}

// MARK: - Tokenizing

extension Parser {
    mutating func tokenize() throws(TemplateError) {
        var position = 0
        var open: [Int] = []
        let count = bytes.count
        while position < count {
            guard let tagStart = find(delimiters.open, from: position) else {
                tokens.append(Token(kind: .text, start: position, end: count))
                break
            }
            if tagStart > position {
                tokens.append(Token(kind: .text, start: position, end: tagStart))
            }
            var token = try scanTag(at: tagStart)
            position = token.end
            token.inParentBody = open.last.map { tokens[$0].kind == .parent } ?? false
            switch token.kind {
            case .section, .inverted, .parent, .block:
                guard open.count < maxNesting else { throw error(.nestingTooDeep(limit: maxNesting), at: tagStart) }
                open.append(tokens.count)
                tokens.append(token)
            case .close:
                let tag = string(token.start, token.end)
                guard let opener = open.popLast() else { throw error(.unexpectedClosingTag(tag: tag), at: tagStart) }
                guard tokens[opener].closeKey == token.text else {
                    let opened = file.location(ofByte: tokens[opener].start)
                    throw error(.mismatchedClosingTag(tag: tag, open: tokens[opener].closeKey, opened: opened), at: tagStart)
                }
                token.match = opener
                token.inParentBody = tokens[opener].inParentBody
                tokens[opener].match = tokens.count
                tokens.append(token)
            case .delimiters:
                tokens.append(token)
                delimiters = token.delimiters
            default:
                tokens.append(token)
            }
        }
        if let unclosed = open.last {
            let opened = file.location(ofByte: tokens[unclosed].start)
            throw error(.unclosedSection(name: tokens[unclosed].closeKey, opened: opened), at: tokens[unclosed].start)
        }
    }

    /// Scans the tag whose open delimiter starts at `tagStart`.
    func scanTag(at tagStart: Int) throws(TemplateError) -> Token {
        let close = delimiters.close
        let contentStart = tagStart + delimiters.open.count
        let unclosed = error(.unclosedTag(opener: delimiters.openText, closer: delimiters.closeText), at: tagStart)
        guard contentStart < bytes.count else { throw unclosed }
        let kind: Token.Kind
        var nameStart = contentStart + 1
        var terminator = close
        switch bytes[contentStart] {
        case UInt8(ascii: "!"): kind = .comment
        case UInt8(ascii: "="): kind = .delimiters; terminator = [UInt8(ascii: "=")] + close
        case UInt8(ascii: "{"): kind = .unescaped; terminator = [UInt8(ascii: "}")] + close
        case UInt8(ascii: "&"): kind = .unescaped
        case UInt8(ascii: "#"): kind = .section
        case UInt8(ascii: "^"): kind = .inverted
        case UInt8(ascii: "/"): kind = .close
        case UInt8(ascii: ">"): kind = .partial
        case UInt8(ascii: "<"): kind = .parent
        case UInt8(ascii: "$"): kind = .block
        default: kind = .variable; nameStart = contentStart
        }
        guard let nameEnd = find(terminator, from: nameStart) else {
            if kind == .delimiters, let end = find(close, from: nameStart) {
                // `{{=<% %>}}`: closed, but without the `=` before the closing delimiter.
                throw error(.invalidDelimiters(tag: string(tagStart, end + close.count)), at: tagStart)
            }
            throw unclosed
        }
        var token = Token(kind: kind, start: tagStart, end: nameEnd + terminator.count)
        token.delimiters = delimiters
        switch kind {
        case .comment:
            return token
        case .delimiters:
            token.delimiters = try parseDelimiters(nameStart, nameEnd, token: token)
            return token
        default:
            break
        }
        var content = bytes[nameStart..<nameEnd].trimmingSpaces()
        let star = content.first == UInt8(ascii: "*") && (kind == .partial || kind == .parent || kind == .close)
        if star { content = content.dropFirst().trimmingSpaces() }
        let text = try tagContent(content, token: token)
        switch kind {
        case .variable, .unescaped, .section, .inverted:
            token.name = try parseName(text, at: tagStart)
            token.text = text
        case .close:
            token.text = star ? "*" + text : text
        case .partial, .parent:
            token.dynamic = star
            if star { token.name = try parseName(text, at: tagStart) }
            token.text = text
        default:
            token.text = text
        }
        return token
    }

    /// The tag's name from its trimmed content; refuses empty names and names with whitespace inside.
    func tagContent(_ content: ArraySlice<UInt8>, token: Token) throws(TemplateError) -> String {
        guard !content.isEmpty else { throw error(.emptyTagName(tag: string(token.start, token.end)), at: token.start) }
        if content.contains(UInt8(ascii: "\n")) || contains(delimiters.open, in: content) {
            // Most likely a tag that was never closed and ran into the next one.
            throw error(.unclosedTag(opener: delimiters.openText, closer: delimiters.closeText), at: token.start)
        }
        let text = String(decoding: content, as: UTF8.self)
        if content.contains(where: Self.isSpace) { throw error(.invalidTagName(name: text), at: token.start) }
        return text
    }

    func contains(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    func parseName(_ text: String, at offset: Int) throws(TemplateError) -> Name {
        if text == "." { return Name(parts: [], text: text) }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        if parts.contains(where: \.isEmpty) { throw error(.invalidTagName(name: text), at: offset) }
        return Name(parts: parts.map(String.init), text: text)
    }

    func parseDelimiters(_ start: Int, _ end: Int, token: Token) throws(TemplateError) -> Delimiters {
        let parts = bytes[start..<end].split(whereSeparator: Self.isSpace)
        guard parts.count == 2, !parts.contains(where: { $0.contains(UInt8(ascii: "=")) }) else {
            throw error(.invalidDelimiters(tag: string(token.start, token.end)), at: token.start)
        }
        return Delimiters(open: Array(parts[0]), close: Array(parts[1]))
    }
}

extension Collection where Element == UInt8, SubSequence: BidirectionalCollection {
    /// Without leading and trailing spaces, tabs and line breaks.
    func trimmingSpaces() -> SubSequence {
        var slice = self[...]
        while let first = slice.first, Parser.isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, Parser.isSpace(last) { slice = slice.dropLast() }
        return slice
    }
}
