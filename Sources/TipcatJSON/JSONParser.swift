/// The byte-level parser behind `JSONDocument.parse`: one instance per parse.
///
/// Nesting is handled with an explicit stack of open containers (`frames`), never by recursion, so input
/// depth cannot overflow the call stack. Children of open containers wait on two `MoveStack`s and are moved
/// into an exactly-sized array when their container closes.
struct JSONParser {
    let base: UnsafePointer<UInt8>
    let end: Int
    let maxDepth: Int
    /// The next byte to read.
    var position = 0

    var frames: [Frame] = []
    let elements: MoveStack<JSONNode>
    let members: MoveStack<JSONMember>
    /// Scratch buffer for strings that contain escapes.
    var unescaped: [UInt8] = []
    /// Where a value is expected; selects the wording of "expected …, found …" messages.
    var context = ValueContext.topLevel
    /// Offset of the most recent ',' (a trailing comma is reported there).
    var lastComma = 0
    /// Keys written twice in one object, found as each object closes (no second walk over the tree).
    var duplicates: [(first: JSONMember, duplicate: JSONMember)] = []
    /// Set in a parser started in the middle of a document (see `parseSuffix`).
    var suffix: SuffixState?
    /// Set in the main parser while a second parser works on the rest of the document (see `takeOver`).
    var handoff: Handoff?
    /// Whether this parser took a second parser's work over.
    var tookOver = false

    /// One open array or object.
    struct Frame {
        var isObject: Bool
        /// Index in `elements` / `members` where this container's children start.
        var start: Int
        /// Offset of the opening bracket.
        var offset: Int
        /// The key under which this container goes into its parent object (unused for arrays' children).
        var key: String
        var keyOffset: Int
    }

    enum ValueContext {
        case topLevel, arrayStart, afterComma, afterColon

        var expectation: String {
            switch self {
            case .topLevel: "expected a JSON value"
            case .arrayStart: "expected a value or ']'"
            case .afterComma: "expected a value after ','"
            case .afterColon: "expected a value after ':'"
            }
        }
    }

    init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int, stackCapacity: Int = 1) {
        self.base = base
        self.end = count
        self.maxDepth = maxDepth
        elements = MoveStack(capacity: stackCapacity)
        members = MoveStack(capacity: stackCapacity)
    }

    // MARK: Document

    /// Parses the whole buffer: optional UTF-8 BOM, whitespace, one value, whitespace, end.
    mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
        if end >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { position = 3 }
        skipWhitespace()
        guard position < end else {
            throw JSONSyntaxError("empty file: expected a JSON value", at: position)
        }
        let root = try parseValueTree()
        skipWhitespace()
        if position < end {
            throw badByte(at: position) ?? JSONSyntaxError("unexpected data after the JSON value", at: position)
        }
        return root
    }

    /// Parses one value (with everything nested in it) starting at `position`, iteratively; `key` is the key
    /// under which it goes into an object that encloses the start (see `parseSuffix`).
    mutating func parseValueTree(key initialKey: String = "", keyOffset initialKeyOffset: Int = -1) throws(JSONSyntaxError) -> JSONNode {
        var key = initialKey
        var keyOffset = initialKeyOffset
        parsing: while true {
            skipWhitespace()
            guard position < end else { throw found(context.expectation, at: position) }
            let start = position
            let byte = base[start]
            var node: JSONNode
            switch byte {
            case UInt8(ascii: "\""):
                node = JSONNode(.string(try parseString()), offset: start)
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                guard frames.count < maxDepth else {
                    throw JSONSyntaxError("nesting deeper than \(maxDepth) levels", at: start)
                }
                let isObject = byte == UInt8(ascii: "{")
                frames.append(Frame(
                    isObject: isObject, start: isObject ? members.count : elements.count, offset: start,
                    key: key, keyOffset: keyOffset))
                if var state = suffix {
                    state.deepest = Swift.max(state.deepest, frames.count - (state.levels.count - 1))
                    suffix = state
                }
                position += 1
                skipWhitespace()
                let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if position < end, base[position] == closer {
                    position += 1
                    node = closeContainer(key: &key, keyOffset: &keyOffset)
                } else if isObject {
                    try parseKey(&key, &keyOffset, afterComma: false)
                    context = .afterColon
                    continue parsing
                } else {
                    context = .arrayStart
                    continue parsing
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                node = JSONNode(.number(try parseNumber()), offset: start)
            case UInt8(ascii: "t"):
                try parseLiteral("true")
                node = JSONNode(.bool(true), offset: start)
            case UInt8(ascii: "f"):
                try parseLiteral("false")
                node = JSONNode(.bool(false), offset: start)
            case UInt8(ascii: "n"):
                try parseLiteral("null")
                node = JSONNode(.null, offset: start)
            default:
                throw unexpectedValue(at: start)
            }

            // The value is complete: hand it to its container, then read ',' or the closing bracket.
            while true {
                let top = frames.count - 1
                guard top >= 0 else {
                    guard suffix != nil else { return node }
                    switch try suffixStep(node, key: &key, keyOffset: &keyOffset) {
                    case .nextValue: continue parsing
                    case .value(let next):
                        node = next
                        continue
                    case .finished: return JSONNode(.null, offset: position)
                    }
                }
                let isObject = frames[top].isObject
                if isObject {
                    members.append(JSONMember(key: key, keyOffset: keyOffset, value: node))
                } else {
                    elements.append(node)
                }
                skipWhitespace()
                if position < end {
                    let byte = base[position]
                    if byte == UInt8(ascii: ",") {
                        lastComma = position
                        position += 1
                        if isObject {
                            if handoff != nil, let root = takeOver() { return root }
                            try parseKey(&key, &keyOffset, afterComma: true)
                            context = .afterColon
                        } else {
                            context = .afterComma
                        }
                        continue parsing
                    }
                    if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        position += 1
                        node = closeContainer(key: &key, keyOffset: &keyOffset)
                        continue
                    }
                }
                throw found(
                    isObject ? "expected ',' or '}' after object member" : "expected ',' or ']' after array element",
                    at: position)
            }
        }
    }

    /// Pops the innermost container, builds its node, and restores the key it belongs under.
    private mutating func closeContainer(key: inout String, keyOffset: inout Int) -> JSONNode {
        guard let frame = frames.popLast() else { return JSONNode(.null, offset: position) }
        key = frame.key
        keyOffset = frame.keyOffset
        if frame.isObject {
            let object = JSONObject(members.popArray(from: frame.start))
            if object.members.count > 1 { duplicates += object.duplicateKeys() }
            return JSONNode(.object(object), offset: frame.offset)
        }
        return JSONNode(.array(elements.popArray(from: frame.start)), offset: frame.offset)
    }

    /// Reads `"key"` and the `:` after it (whitespace around both).
    mutating func parseKey(_ key: inout String, _ keyOffset: inout Int, afterComma: Bool) throws(JSONSyntaxError) {
        skipWhitespace()
        let expectation = afterComma ? "expected a string key after ','" : "expected a string key or '}'"
        guard position < end else { throw found(expectation, at: position) }
        let byte = base[position]
        guard byte == UInt8(ascii: "\"") else {
            if afterComma, byte == UInt8(ascii: "}") {
                throw JSONSyntaxError("trailing comma is not allowed before '}'", at: lastComma)
            }
            if byte == UInt8(ascii: "'") {
                throw JSONSyntaxError("object keys must be double-quoted strings, not single-quoted", at: position)
            }
            if Self.isLetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") {
                throw JSONSyntaxError(
                    "object keys must be double-quoted strings, found '\(word(at: position, extra: UInt8(ascii: "$")))'",
                    at: position)
            }
            throw found(expectation, at: position)
        }
        keyOffset = position
        key = try parseString()
        skipWhitespace()
        guard position < end, base[position] == UInt8(ascii: ":") else {
            throw found("expected ':' after object key", at: position)
        }
        position += 1
    }

    // MARK: Literals and whitespace

    /// Reads the literal `true`, `false` or `null`; a longer or different word is an error at its start.
    private mutating func parseLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = position
        var index = start
        while index < end, Self.isWordByte(base[index]) { index += 1 }
        let length = literal.utf8CodeUnitCount
        if index - start == length {
            let expected = literal.utf8Start
            var same = true
            for offset in 0..<length where base[start + offset] != expected[offset] {
                same = false
                break
            }
            if same {
                position = index
                return
            }
        }
        throw invalidWord(at: start)
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < end {
            let byte = base[position]
            guard byte <= 0x20,
                  byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
            else { return }
            position += 1
        }
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    @inline(__always)
    static func isLetter(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
    }

    @inline(__always)
    static func isWordByte(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || isDigit(byte) || byte == UInt8(ascii: "_")
    }
}
