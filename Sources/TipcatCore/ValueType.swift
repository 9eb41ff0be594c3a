/// The types a parameter, an event field or a rule expression can have.
///
/// In catalog files a type is written as text — `string`, `int`, `double`, `bool`, `date`, `list<T>`, `set<T>` —
/// or, for a record, as a JSON object mapping field names to types (`{"id": "string", "region": "string"}`).
/// A trailing `?` makes a type optional (`string?`, `list<int>?`): a value of it may be absent (`nil`). Optional
/// types are not nested (`int??`) and collections hold non-optional elements (`list<int?>` is not a type).
public indirect enum ValueType: Hashable, Sendable, CustomStringConvertible {
    case string
    case int
    case double
    case bool
    case date
    case list(ValueType)
    case set(ValueType)
    case record([RecordField])
    /// A value that may be absent: `string?`. Never wraps another optional.
    case optional(ValueType)

    public struct RecordField: Hashable, Sendable {
        public var name: String
        public var type: ValueType
        public init(_ name: String, _ type: ValueType) {
            self.name = name
            self.type = type
        }
    }

    /// The scalar type names accepted in catalog files, for help texts and did-you-mean.
    public static let scalarNames = ["string", "int", "double", "bool", "date"]

    public var description: String {
        switch self {
        case .string: "string"
        case .int: "int"
        case .double: "double"
        case .bool: "bool"
        case .date: "date"
        case .list(let element): "list<\(element)>"
        case .set(let element): "set<\(element)>"
        case .record(let fields): "{" + fields.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + "}"
        case .optional(let wrapped): "\(wrapped)?"
        }
    }

    /// The field named `name` of a record type (or of an optional record type: the field is then absent when
    /// the record is).
    public func field(_ name: String) -> ValueType? {
        guard case .record(let fields) = wrapped else { return nil }
        return fields.first { $0.name == name }?.type
    }

    /// The element type of a list or set.
    public var elementType: ValueType? {
        switch self {
        case .list(let element), .set(let element): element
        default: nil
        }
    }

    /// Whether a value of this type may be absent.
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// The type without its optionality: `string` for `string?`, the type itself otherwise.
    public var wrapped: ValueType {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }

    public var isNumeric: Bool { self == .int || self == .double }

    /// Whether values of this type can be ordered with `<`.
    public var isOrdered: Bool { self == .int || self == .double || self == .date || self == .string }

    /// Parses the textual form (`int`, `list<string>`, `set<date>`, `string?`, `list<int>?`). Records are not
    /// textual; see the type's docs. Returns nil for anything else; callers report the error with their own location.
    public static func parse(_ text: String) -> ValueType? {
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasSuffix("?") {
            let inner = String(trimmed.dropLast())
            guard inner == inner.trimmingWhitespace(), let wrapped = parseRequired(inner) else { return nil }
            return .optional(wrapped)
        }
        return parseRequired(trimmed)
    }

    /// A type without a trailing `?`; elements of collections are never optional.
    private static func parseRequired(_ text: String) -> ValueType? {
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasSuffix("?") { return nil }
        switch trimmed {
        case "string": return .string
        case "int": return .int
        case "double": return .double
        case "bool": return .bool
        case "date": return .date
        default: break
        }
        for (prefix, make) in [("list<", ValueType.list), ("set<", ValueType.set)] as [(String, (ValueType) -> ValueType)] {
            if trimmed.hasPrefix(prefix), trimmed.hasSuffix(">") {
                let inner = String(trimmed.dropFirst(prefix.count).dropLast())
                return parseRequired(inner).map(make)
            }
        }
        return nil
    }
}

extension String {
    /// The string without leading and trailing ASCII spaces, tabs and newlines (no Foundation needed).
    public func trimmingWhitespace() -> String {
        // Most texts have nothing to trim: neither end's byte is whitespace, so neither end's character is.
        if let first = utf8.first, let last = utf8.last, !Self.isWhitespaceByte(first), !Self.isWhitespaceByte(last) { return self }
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }

    private static func isWhitespaceByte(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Calls `body` with each dot-separated name of a path (`trail.region`), in order, without making strings of
    /// them (`a..b` has an empty middle name, `""` one empty name); stops at the first call that returns false.
    /// Paths are followed for every placeholder a message formats or checks.
    /// (SPI with an inlinable body, like `followPath`, so that callers in other modules get it specialized.)
    @_spi(Tipcat) @inlinable
    public func forEachPathComponent(_ body: (Substring) -> Bool) {
        var rest = self[...]
        while true {
            let end = rest.utf8.firstIndex(of: UInt8(ascii: ".")) ?? rest.endIndex
            guard body(rest[..<end]), end < rest.endIndex else { return }
            rest = rest[rest.utf8.index(after: end)...]
        }
    }

    /// Follows a dotted path: `first` gives what its first name names, `next` steps from there to a member; nil as
    /// soon as a step finds nothing.
    /// (SPI with an inlinable body: a `package` generic runs unspecialized in other modules.)
    @_spi(Tipcat) @inlinable
    public func followPath<Value>(_ first: (Substring) -> Value?, _ next: (Value, Substring) -> Value?) -> Value? {
        var current: Value?
        var isFirst = true
        forEachPathComponent { name in
            current = isFirst ? first(name) : current.flatMap { next($0, name) }
            isFirst = false
            return current != nil
        }
        return current
    }
}

extension Array where Element == ValueType.RecordField {
    /// The type at a dotted path into these fields (`trail.region`), nil when there is none.
    package func type(atPath path: String) -> ValueType? {
        path.followPath({ name in first { $0.name == name }?.type }, { type, name in type.field(String(name)) })
    }
}
