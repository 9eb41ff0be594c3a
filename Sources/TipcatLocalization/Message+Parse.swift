@_spi(Tipcat) import TipcatCore

extension Message {
    /// Parses `text`; errors carry the UTF-8 byte offset of the problem.
    public static func parse(_ text: String) throws(MessageSyntaxError) -> Message {
        try parse(text, inPlural: false, depth: 0)
    }

    /// Parses `text` in place (its UTF-8 bytes are read where they are, not copied).
    private static func parse(_ text: String, inPlural: Bool, depth: Int) throws(MessageSyntaxError) -> Message {
        var bytes = text
        let mode: ParseMode = inPlural ? .pluralForm : .message
        // Most translations are plain text: without a byte the syntax reads (braces, apostrophes, and `#` in a
        // plural branch), the message is that text as one literal, as the parser would find, and it is not parsed.
        if !bytes.withUTF8({ hasSyntax($0, inPlural: inPlural) }) {
            return Message(text: text, parsedAs: mode, plain: true)
        }
        let result: Result<([MessagePart], [Placeholder]), MessageSyntaxError> = bytes.withUTF8 { buffer in
            var parser = MessageParser(bytes: buffer)
            do throws(MessageSyntaxError) {
                let parts = try parser.parseMessage(openBrace: nil, inPlural: inPlural, depth: depth)
                return .success((parts, parser.placeholders))
            } catch {
                return .failure(error)
            }
        }
        let (parts, placeholders) = try result.get()
        // A text whose syntax bytes read as text (`it's`) is one literal, the text itself: plain after all.
        if placeholders.isEmpty, isText(text, parts) { return Message(text: text, parsedAs: mode, plain: true) }
        return Message(text: text, parsedAs: mode, plain: false, parts: parts, placeholders: placeholders)
    }

    /// Whether `bytes` hold a byte the message syntax reads: `{`, `}`, `'`, or `#` in a plural branch. Plain text is
    /// skipped eight bytes at a time.
    static func hasSyntax(_ bytes: UnsafeBufferPointer<UInt8>, inPlural: Bool) -> Bool {
        // Outside a plural branch `#` is text: the slot repeats `{`, which is tested anyway.
        let pound: UInt8 = inPlural ? UInt8(ascii: "#") : UInt8(ascii: "{")
        let start = WordBytes.plainPrefix(bytes) { word in
            WordBytes.equal(word, UInt8(ascii: "{")) | WordBytes.equal(word, UInt8(ascii: "}"))
                | WordBytes.equal(word, UInt8(ascii: "'")) | WordBytes.equal(word, pound) != 0
        }
        return bytes[start...].contains { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: "'") || $0 == pound }
    }

    /// Whether `parts` are one literal text equal to `text`.
    private static func isText(_ text: String, _ parts: [MessagePart]) -> Bool {
        guard parts.count == 1, case .text(var literal) = parts[0], literal.utf8.count == text.utf8.count else { return false }
        var whole = text
        return literal.withUTF8 { literalBytes in whole.withUTF8 { literalBytes.elementsEqual($0) } }
    }

    /// Parses one form of a String Catalog plural variation: a message in which `#` is the number, as inside a
    /// plural branch. Errors carry offsets into `text`.
    public static func parsePluralForm(_ text: String) throws(MessageSyntaxError) -> Message {
        try parse(text, inPlural: true, depth: 1)
    }

    /// One message equivalent to a String Catalog plural variation: `{argument, plural, one {…} other {…}}` built
    /// from forms keyed by CLDR category (forms parsed with `parsePluralForm`).
    ///
    /// As Foundation does, a `zero` form is used for the number 0 in every language (it becomes an `=0` case too,
    /// `{n, plural, =0 {…} zero {…} …}`); CLDR's rules choose among the other forms, and `other` stands in for a
    /// missing category.
    public static func pluralVariation(argument: String, forms: [String: Message]) -> Message {
        let order = PluralCategory.allCases.map(\.rawValue)
        let keys = forms.keys.sorted { (order.firstIndex(of: $0) ?? order.count) < (order.firstIndex(of: $1) ?? order.count) }
        var cases: [MessageCase] = []
        var texts: [String] = []
        if let zero = forms[PluralCategory.zero.rawValue] {
            cases.append(MessageCase(selector: "=0", parts: zero.parts))
            texts.append("=0 {\(zero.text)}")
        }
        for key in keys {
            guard let form = forms[key] else { continue }
            cases.append(MessageCase(selector: key, parts: form.parts))
            texts.append("\(key) {\(form.text)}")
        }
        let text = "{\(argument), plural, " + texts.joined(separator: " ") + "}"
        let placeholder = Placeholder(path: argument, kind: .plural, offset: 1, length: argument.utf8.count, selectors: cases.map(\.selector))
        let nested = keys.flatMap { forms[$0]?.placeholders ?? [] }
        return Message(text: text, parts: [.plural(path: argument, offset: 0, cases: cases)], placeholders: [placeholder] + nested)
    }
}

/// A recursive-descent parser over the message's UTF-8 bytes (valid only while they are: see `Message.parse`).
struct MessageParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var placeholders: [Placeholder] = []

    /// Nesting deeper than this is an error rather than a risk to the stack.
    static let maxDepth = 50

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private static let openBrace = UInt8(ascii: "{")
    private static let closeBrace = UInt8(ascii: "}")
    private static let apostrophe = UInt8(ascii: "'")
    private static let pound = UInt8(ascii: "#")

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isIdentifierPart(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }

    private static func isKeyPart(_ byte: UInt8) -> Bool { isIdentifierPart(byte) || byte == UInt8(ascii: "-") }

    private mutating func skipSpaces() {
        while let byte = current, MessageParser.isSpace(byte) { position += 1 }
    }

    private func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    /// A short, printable rendering of the character at `offset` for error messages.
    private func found(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of message" }
        var end = offset + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'\(string(offset..<end))'"
    }

    /// Parses text and arguments up to the end (top level) or up to the `}` closing `openBrace` (consumed).
    mutating func parseMessage(openBrace: Int?, inPlural: Bool, depth: Int) throws(MessageSyntaxError) -> [MessagePart] {
        var parts: [MessagePart] = []
        // A literal is made from its bytes where they are (`run`) unless a quote changes them: then they are
        // gathered in `text`, which otherwise stays empty (and unallocated).
        var text: [UInt8] = []
        var run: Range<Int>?
        func gather() {
            if let range = run { text.append(contentsOf: bytes[range]) }
            run = nil
        }
        func flush() {
            if let range = run, text.isEmpty {
                parts.append(.text(string(range)))
                run = nil
                return
            }
            gather()
            if !text.isEmpty {
                parts.append(.text(String(decoding: text, as: UTF8.self)))
                text.removeAll(keepingCapacity: true)
            }
        }
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case MessageParser.openBrace:
                flush()
                parts.append(try parseArgument(inPlural: inPlural, depth: depth + 1))
            case MessageParser.closeBrace:
                guard openBrace != nil else { throw MessageSyntaxError("unmatched '}'", offset: position) }
                position += 1
                flush()
                return parts
            case MessageParser.pound where inPlural:
                flush()
                parts.append(.pound)
                position += 1
            case MessageParser.apostrophe:
                gather()
                readQuote(into: &text, inPlural: inPlural)
            default:
                let start = position
                position += 1
                while position < bytes.count {
                    let next = bytes[position]
                    if next == MessageParser.openBrace || next == MessageParser.closeBrace || next == MessageParser.apostrophe
                        || (inPlural && next == MessageParser.pound)
                    {
                        break
                    }
                    position += 1
                }
                // The run itself, or, after a quote, more text.
                if text.isEmpty, run == nil {
                    run = start..<position
                } else {
                    gather()
                    text.append(contentsOf: bytes[start..<position])
                }
            }
        }
        if let openBrace { throw MessageSyntaxError("unclosed '{'", offset: openBrace) }
        flush()
        return parts
    }

    /// At a `'`: `''` is one apostrophe; `'` before a special character quotes up to the next lone `'` (or the end,
    /// as ICU does); otherwise the apostrophe is literal.
    private mutating func readQuote(into text: inout [UInt8], inPlural: Bool) {
        position += 1
        guard let next = current else {
            text.append(MessageParser.apostrophe)
            return
        }
        if next == MessageParser.apostrophe {
            text.append(MessageParser.apostrophe)
            position += 1
            return
        }
        guard next == MessageParser.openBrace || next == MessageParser.closeBrace || (inPlural && next == MessageParser.pound) else {
            text.append(MessageParser.apostrophe)
            return
        }
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == MessageParser.apostrophe {
                if current == MessageParser.apostrophe {
                    text.append(MessageParser.apostrophe)
                    position += 1
                } else {
                    return
                }
            } else {
                text.append(byte)
            }
        }
    }

    /// After `{path, number`: `}`, `, integer}` or `, ::.00##}`.
    private mutating func parseNumber(path: String, nameStart: Int, nameEnd: Int, open: Int) throws(MessageSyntaxError) -> MessagePart {
        skipSpaces()
        var minimum = 0
        var maximum: Int?
        if current == UInt8(ascii: ",") {
            position += 1
            skipSpaces()
            let styleStart = position
            while let byte = current, byte != MessageParser.closeBrace, byte != UInt8(ascii: " ") { position += 1 }
            let style = string(styleStart..<position)
            if style == "integer" {
                maximum = 0
            } else if style.hasPrefix("::."), style.count <= 3 + 15,
                      let zeros = Optional(style.dropFirst(3).prefix { $0 == "0" }.count),
                      style.dropFirst(3 + zeros).allSatisfy({ $0 == "#" }) {
                minimum = zeros
                maximum = style.count - 3
            } else {
                throw MessageSyntaxError(
                    "unsupported number style '\(style)'; use 'integer' or a precision such as '::.00' (two digits) or '::.0#' (one or two)",
                    offset: styleStart)
            }
            skipSpaces()
        }
        guard current == MessageParser.closeBrace else {
            if current == nil { throw MessageSyntaxError("unclosed '{'", offset: open) }
            throw MessageSyntaxError("expected '}' after the number style, found \(found(at: position))", offset: position)
        }
        position += 1
        placeholders.append(Placeholder(path: path, kind: .number, offset: nameStart, length: nameEnd - nameStart))
        return .number(path: path, minimumFractionDigits: minimum, maximumFractionDigits: maximum)
    }

    /// At a `{`: a value, plural or select argument.
    private mutating func parseArgument(inPlural: Bool, depth: Int) throws(MessageSyntaxError) -> MessagePart {
        let open = position
        guard depth <= MessageParser.maxDepth else {
            throw MessageSyntaxError("message nested too deeply (more than \(MessageParser.maxDepth) levels)", offset: open)
        }
        position += 1
        skipSpaces()
        guard let first = current else { throw MessageSyntaxError("unclosed '{'", offset: open) }
        if first == MessageParser.closeBrace { throw MessageSyntaxError("empty placeholder '{}'", offset: open) }

        let nameStart = position
        while true {
            guard let byte = current, MessageParser.isIdentifierStart(byte) else {
                throw MessageSyntaxError("expected an argument name, found \(found(at: position))", offset: position)
            }
            while let byte = current, MessageParser.isIdentifierPart(byte) { position += 1 }
            guard current == UInt8(ascii: ".") else { break }
            position += 1
        }
        let nameEnd = position
        let path = string(nameStart..<nameEnd)
        skipSpaces()
        guard let afterName = current else { throw MessageSyntaxError("unclosed '{'", offset: open) }
        if afterName == MessageParser.closeBrace {
            position += 1
            placeholders.append(Placeholder(path: path, kind: .value, offset: nameStart, length: nameEnd - nameStart))
            return .placeholder(path: path)
        }
        guard afterName == UInt8(ascii: ",") else {
            throw MessageSyntaxError(
                "expected ',' or '}' after argument name '\(path)', found \(found(at: position))", offset: position)
        }
        position += 1
        skipSpaces()
        let typeStart = position
        while let byte = current, MessageParser.isIdentifierPart(byte) { position += 1 }
        let type = string(typeStart..<position)
        let kind: Placeholder.Kind
        switch type {
        case "plural": kind = .plural
        case "select": kind = .select
        case "number": return try parseNumber(path: path, nameStart: nameStart, nameEnd: nameEnd, open: open)
        case "":
            throw MessageSyntaxError("expected 'plural', 'select' or 'number', found \(found(at: typeStart))", offset: typeStart)
        default:
            throw MessageSyntaxError("unsupported argument type '\(type)'; use plural, select or number", offset: typeStart)
        }
        skipSpaces()
        guard current == UInt8(ascii: ",") else {
            if current == nil { throw MessageSyntaxError("unclosed '{'", offset: open) }
            throw MessageSyntaxError("expected ',' after '\(type)', found \(found(at: position))", offset: position)
        }
        position += 1
        let placeholderIndex = placeholders.count
        placeholders.append(Placeholder(path: path, kind: kind, offset: nameStart, length: nameEnd - nameStart))

        var offset = 0
        if kind == .plural {
            skipSpaces()
            offset = try parseOffset()
        }
        var cases: [MessageCase] = []
        var exactValues: Set<Int> = []
        while true {
            skipSpaces()
            guard let byte = current else { throw MessageSyntaxError("unclosed '{'", offset: open) }
            if byte == MessageParser.closeBrace {
                position += 1
                break
            }
            let selectorStart = position
            let selector: String
            if byte == UInt8(ascii: "=") {
                guard kind == .plural else {
                    throw MessageSyntaxError("'=N' selectors are only allowed in plural arguments", offset: selectorStart)
                }
                let value = try parseExactSelector()
                selector = string(selectorStart..<position)
                guard exactValues.insert(value).inserted else {
                    throw MessageSyntaxError("duplicate selector '\(selector)'", offset: selectorStart)
                }
            } else {
                while let next = current, MessageParser.isKeyPart(next) { position += 1 }
                selector = string(selectorStart..<position)
                if selector.isEmpty {
                    throw MessageSyntaxError("expected a selector or '}', found \(found(at: position))", offset: position)
                }
                if kind == .plural, PluralCategory(rawValue: selector) == nil {
                    throw MessageSyntaxError(
                        "unknown plural category '\(selector)'; use zero, one, two, few, many, other or =N",
                        offset: selectorStart)
                }
                if cases.contains(where: { $0.selector == selector }) {
                    throw MessageSyntaxError("duplicate selector '\(selector)'", offset: selectorStart)
                }
            }
            skipSpaces()
            guard current == MessageParser.openBrace else {
                if current == nil { throw MessageSyntaxError("unclosed '{'", offset: open) }
                throw MessageSyntaxError(
                    "expected '{' after selector '\(selector)', found \(found(at: position))", offset: position)
            }
            let branchOpen = position
            position += 1
            let parts = try parseMessage(openBrace: branchOpen, inPlural: inPlural || kind == .plural, depth: depth + 1)
            cases.append(MessageCase(selector: selector, parts: parts))
        }
        guard cases.contains(where: { $0.selector == "other" }) else {
            throw MessageSyntaxError("\(type) argument '\(path)' needs an 'other' case", offset: open)
        }
        placeholders[placeholderIndex].selectors = cases.map(\.selector)
        return kind == .plural ? .plural(path: path, offset: offset, cases: cases) : .select(path: path, cases: cases)
    }

    /// An optional `offset:N` before the plural selectors.
    private mutating func parseOffset() throws(MessageSyntaxError) -> Int {
        let keyword = Array("offset".utf8)
        guard position + keyword.count <= bytes.count, Array(bytes[position..<position + keyword.count]) == keyword else {
            return 0
        }
        var index = position + keyword.count
        while index < bytes.count, MessageParser.isSpace(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return 0 }  // a selector named "offset…"
        position = index + 1
        skipSpaces()
        let start = position
        guard let value = readInteger(), value >= 0 else {
            throw MessageSyntaxError("expected a non-negative integer after 'offset:'", offset: start)
        }
        return value
    }

    /// `=N` with N an integer (optionally negative); the selector must end at a space or `{`.
    private mutating func parseExactSelector() throws(MessageSyntaxError) -> Int {
        let start = position
        position += 1
        guard let value = readInteger(), current.map({ MessageParser.isSpace($0) || $0 == MessageParser.openBrace }) ?? true else {
            while let next = current, !MessageParser.isSpace(next), next != MessageParser.openBrace, next != MessageParser.closeBrace {
                position += 1
            }
            throw MessageSyntaxError(
                "bad selector '\(string(start..<position))': '=' must be followed by an integer, as in '=0'", offset: start)
        }
        return value
    }

    /// An optionally negative decimal integer; nil (position unchanged) if there are no digits or it overflows.
    private mutating func readInteger() -> Int? {
        let start = position
        var negative = false
        if current == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var value = 0
        var digits = 0
        while let byte = current, MessageParser.isDigit(byte) {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else {
                position = start
                return nil
            }
            value = sum
            digits += 1
            position += 1
        }
        guard digits > 0 else {
            position = start
            return nil
        }
        return negative ? -value : value
    }
}
