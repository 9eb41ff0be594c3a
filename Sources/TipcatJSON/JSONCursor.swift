/// Reads one deferred value of a document in place, token by token, building no tree: for a caller that expects a
/// few shapes most of the time and reads them faster this way. A read that meets anything else returns nil (or
/// `.other`), and so does `JSONDocument.withCursor` when the value does not end where it should: the caller then
/// parses the value as usual (`parseDeferred`), which says exactly what is there. Strings are read by the
/// parser's own code, so a string the cursor returns is the one the tree would hold.
///
/// Valid only inside `JSONDocument.withCursor(atDeferred:_:)`, which holds the bytes it reads.
public struct JSONCursor {
    var parser: JSONParser
    /// Whether the next key is the first of its object (no comma before it).
    private var firstMember = false

    /// A key in place: where its text starts and how many bytes it has (its quote at `offset`).
    public struct Key {
        let start: Int
        let count: Int
        /// The offset of the key's opening quote.
        public let offset: Int
    }

    /// What comes next where a key may.
    public enum Member {
        /// A key without escapes, then its colon: its value follows.
        case key(Key)
        /// The object's closing brace.
        case end
        /// Anything else (an escaped key, a syntax error): read the value as usual.
        case other
    }

    init(parser: JSONParser) {
        self.parser = parser
    }

    /// Reads `{` (after any whitespace); false for anything else.
    public mutating func enterObject() -> Bool {
        parser.skipWhitespace()
        guard parser.position < parser.end, parser.base[parser.position] == UInt8(ascii: "{") else { return false }
        parser.position += 1
        firstMember = true
        return true
    }

    /// The next member of the object entered last (or the one whose value was read last): its key, or the end.
    public mutating func nextMember() -> Member {
        parser.skipWhitespace()
        guard parser.position < parser.end else { return .other }
        let byte = parser.base[parser.position]
        if byte == UInt8(ascii: "}") {
            parser.position += 1
            firstMember = false
            return .end
        }
        if !firstMember {
            guard byte == UInt8(ascii: ",") else { return .other }
            parser.position += 1
            parser.skipWhitespace()
        }
        firstMember = false
        let quote = parser.position
        guard quote < parser.end, parser.base[quote] == UInt8(ascii: "\"") else { return .other }
        // Plain ASCII keys only (what a caller compares with its own names): any other is read as usual.
        var index = quote + 1
        while index < parser.end {
            let byte = parser.base[index]
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return .other }
            index += 1
        }
        guard index < parser.end else { return .other }
        parser.position = index + 1
        parser.skipWhitespace()
        guard parser.position < parser.end, parser.base[parser.position] == UInt8(ascii: ":") else { return .other }
        parser.position += 1
        return .key(Key(start: quote + 1, count: index - quote - 1, offset: quote))
    }

    /// Whether `key` is `name` (ASCII).
    public func key(_ key: Key, is name: StaticString) -> Bool {
        guard name.hasPointerRepresentation, key.count == name.utf8CodeUnitCount else { return false }
        let bytes = name.utf8Start
        for index in 0..<key.count where parser.base[key.start + index] != bytes[index] { return false }
        return true
    }

    /// Whether two keys of the value have the same text.
    public func key(_ key: Key, equals other: Key) -> Bool {
        guard key.count == other.count else { return false }
        for index in 0..<key.count where parser.base[key.start + index] != parser.base[other.start + index] { return false }
        return true
    }

    /// The text of `key`.
    public func text(of key: Key) -> String {
        String(decoding: UnsafeBufferPointer(start: parser.base + key.start, count: key.count), as: UTF8.self)
    }

    /// Reads a string value: its text, the offset of its opening quote, and whether the file holds the text byte for
    /// byte (no escapes). Nil for any other value, or an invalid string.
    public mutating func string() -> (text: String, offset: Int, verbatim: Bool)? {
        parser.skipWhitespace()
        let quote = parser.position
        guard quote < parser.end, parser.base[quote] == UInt8(ascii: "\""), let text = try? parser.parseString() else { return nil }
        // Every escape is longer than the text it stands for: the text is as long as its bytes between the quotes
        // exactly when it has none.
        return (text, quote, text.utf8.count == parser.position - quote - 2)
    }

    /// Reads `true` or `false`; nil for any other value.
    public mutating func bool() -> Bool? {
        parser.skipWhitespace()
        if skip("true") { return true }
        if skip("false") { return false }
        return nil
    }

    /// Reads `literal` if it comes next.
    private mutating func skip(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard literal.hasPointerRepresentation, parser.position + count <= parser.end else { return false }
        for index in 0..<count where parser.base[parser.position + index] != literal.utf8Start[index] { return false }
        parser.position += count
        return true
    }
}

extension JSONDocument {
    /// Runs `body` with a cursor at the deferred value whose placeholder is `node`; its result when it returns one
    /// and the cursor then stands at the value's end (whitespace aside), nil otherwise (or when `node` is not a
    /// placeholder).
    public func withCursor<Result>(atDeferred node: JSONNode, _ body: (inout JSONCursor) -> Result?) -> Result? {
        guard case .null = node.value, let deferred, let end = deferred.ends[node.offset] else { return nil }
        return source.bytes.withUnsafeBufferPointer { buffer -> Result? in
            guard let base = buffer.baseAddress, end <= buffer.count, node.offset < end else { return nil }
            var cursor = JSONCursor(parser: JSONParser(base: base, count: end, maxDepth: deferred.maxDepth))
            cursor.parser.position = node.offset
            guard let result = body(&cursor) else { return nil }
            cursor.parser.skipWhitespace()
            return cursor.parser.position == end ? result : nil
        }
    }
}
