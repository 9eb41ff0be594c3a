/// A JSON value as parsed or built: the six kinds of RFC 8259.
///
/// Arrays hold `JSONNode`s and objects hold `JSONMember`s, so every nested value keeps the byte offset it
/// was read from. Arrays and objects live in `Array`s (already heap references), so only `number` is
/// stored indirectly, which keeps the enum small. Equality and hashing are structural and ignore source
/// offsets; numbers compare by their text (`1.0 != 1`).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    indirect case number(JSONNumber)
    case string(String)
    case array([JSONNode])
    case object(JSONObject)
}

/// A JSON value plus the byte offset of its first byte in the source file (`-1` for values built in code).
///
/// Equality and hashing ignore `offset`: two nodes are equal when their values are.
public struct JSONNode: Sendable, Hashable {
    public var value: JSONValue
    public var offset: Int

    /// Wraps `value`; `offset` defaults to `-1`, meaning "not from a file".
    public init(_ value: JSONValue, offset: Int = -1) {
        self.value = value
        self.offset = offset
    }

    public static func == (lhs: JSONNode, rhs: JSONNode) -> Bool { lhs.value == rhs.value }

    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// One `"key": value` pair of an object, with the byte offset of the key's opening quote.
///
/// Equality and hashing ignore `keyOffset` (and the value's offset).
public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var keyOffset: Int
    public var value: JSONNode

    /// A member; offsets default to `-1` ("not from a file").
    public init(key: String, keyOffset: Int = -1, value: JSONNode) {
        self.key = key
        self.keyOffset = keyOffset
        self.value = value
    }

    public static func == (lhs: JSONMember, rhs: JSONMember) -> Bool {
        lhs.key == rhs.key && lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(value)
    }
}

/// A JSON object: members in source order, duplicate keys kept (the loader reports them).
public struct JSONObject: Sendable, Hashable {
    public var members: [JSONMember]

    /// An object with the given members, in order.
    public init(_ members: [JSONMember] = []) {
        self.members = members
    }

    /// The value of the first member named `key` (a linear scan; objects are usually small).
    public subscript(key: String) -> JSONNode? {
        member(key)?.value
    }

    /// The first member named `key`, with its key offset (for diagnostics that point at the key).
    public func member(_ key: String) -> JSONMember? {
        for member in members where member.key == key {
            return member
        }
        return nil
    }

    /// The keys in source order (duplicates included).
    public var keys: [String] { members.map(\.key) }

    /// The number of members (duplicates included).
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }
}

/// A JSON number, kept exactly as written plus its decoded forms.
public struct JSONNumber: Sendable, Hashable {
    /// The number's text as written in the file (or produced by a builder).
    public var text: String
    /// True when the text has neither a fraction nor an exponent (`12`, `-0`), even if it overflows `Int`.
    public var isInteger: Bool
    /// The exact value when `isInteger` and it fits in `Int`; `nil` for fractions, exponents and overflow.
    public var intValue: Int?
    /// The nearest `Double` (infinite for out-of-range exponents such as `1e999`).
    public var doubleValue: Double

    /// A number with all parts given explicitly (not validated: the writer emits `text` as is).
    public init(text: String, isInteger: Bool, intValue: Int?, doubleValue: Double) {
        self.text = text
        self.isInteger = isInteger
        self.intValue = intValue
        self.doubleValue = doubleValue
    }

    /// An integer number.
    public init(_ value: Int) {
        self.init(text: String(value), isInteger: true, intValue: value, doubleValue: Double(value))
    }

    /// A finite double written with the shortest text that round-trips; `nil` for NaN and infinities.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.init(text: JSONNumber.shortestText(value), isInteger: false, intValue: nil, doubleValue: value)
    }

    /// Parses `text` as one strict RFC 8259 number (no surrounding whitespace); `nil` if it is not one.
    public init?(text: String) {
        let bytes = Array(text.utf8)
        let parsed: JSONNumber? = bytes.withUnsafeBufferPointer { buffer -> JSONNumber? in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return nil }
            var parser = JSONParser(base: base, count: buffer.count, maxDepth: 1)
            guard let number = try? parser.parseNumber(), parser.position == buffer.count else { return nil }
            return number
        }
        guard let parsed else { return nil }
        self = parsed
    }

    /// Swift's shortest round-trip description, tidied for JSON (`1e-07` becomes `1e-7`, `1e+20` stays).
    static func shortestText(_ value: Double) -> String {
        let text = value.description
        guard let e = text.firstIndex(of: "e") else { return text }
        let mantissa = text[..<e]
        var exponent = text[text.index(after: e)...]
        var sign = ""
        if let first = exponent.first, first == "-" || first == "+" {
            sign = String(first)
            exponent = exponent.dropFirst()
        }
        let digits = exponent.drop { $0 == "0" }
        return "\(mantissa)e\(sign)\(digits.isEmpty ? "0" : digits)"
    }
}

extension JSONValue {
    /// `"null"`, `"boolean"`, `"number"`, `"string"`, `"array"` or `"object"`, for messages such as
    /// "expected a string, found number".
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number, if this is a number.
    public var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONNode]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
