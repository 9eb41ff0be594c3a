/// A typed value: a parameter's value, an example, an event donation's field.
///
/// Dates are seconds since 1970-01-01T00:00:00Z, so the core stays free of Foundation and comparisons are exact.
public indirect enum Value: Hashable, Sendable, CustomStringConvertible {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case date(Timestamp)
    case list([Value])
    case set([Value])
    case record([String: Value])

    public var description: String {
        switch self {
        case .string(let value): "\"\(value)\""
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): String(value)
        case .date(let value): value.iso8601
        case .list(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .set(let values): "set[" + values.map(\.description).joined(separator: ", ") + "]"
        case .record(let fields):
            "{" + fields.keys.sorted().map { "\($0): \(fields[$0].map(\.description) ?? "")" }.joined(separator: ", ") + "}"
        }
    }

    /// The value as it appears inside text (placeholders): strings without quotes.
    public var displayText: String {
        switch self {
        case .string(let value): value
        default: description
        }
    }

    /// Whether this value conforms to `type` (ints are accepted where doubles are expected). A present value
    /// conforms to an optional type when it conforms to the wrapped type; a record may leave out optional fields.
    public func conforms(to type: ValueType) -> Bool {
        switch (self, type) {
        case (_, .optional(let wrapped)):
            return conforms(to: wrapped)
        case (.string, .string), (.int, .int), (.double, .double), (.int, .double), (.bool, .bool), (.date, .date):
            return true
        case (.list(let values), .list(let element)), (.set(let values), .set(let element)), (.list(let values), .set(let element)):
            return values.allSatisfy { $0.conforms(to: element) }
        case (.record(let fields), .record(let declared)):
            return fields.keys.allSatisfy { key in declared.contains { $0.name == key } }
                && declared.allSatisfy { field in fields[field.name].map { $0.conforms(to: field.type) } ?? field.type.isOptional }
        default:
            return false
        }
    }
}
