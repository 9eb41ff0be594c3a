/// Ergonomic construction of output values: literals and small factory functions.
///
/// ```swift
/// let value: JSONValue = ["id": "NewTrailTip", "count": 3, "tags": ["a", "b"], "enabled": true]
/// ```
/// Built nodes and members carry offset `-1`. Dictionary literals keep their written order.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A string value.
    public init(stringLiteral value: String) {
        self = .string(value)
    }

    /// An integer number.
    public init(integerLiteral value: Int) {
        self = .int(value)
    }

    /// `true` or `false`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }

    /// A number written with the shortest round-trip text (see `double(_:)`).
    public init(floatLiteral value: Double) {
        self = .double(value)
    }

    /// An array of the given values.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }

    /// An object with the given members, in the written order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements)
    }

    /// An integer number.
    public static func int(_ value: Int) -> JSONValue {
        .number(JSONNumber(value))
    }

    /// A number with the shortest text that reads back as the same `Double` (`0.1`, `1e-7`); NaN and
    /// infinities, which JSON cannot express, become `null`.
    public static func double(_ value: Double) -> JSONValue {
        guard let number = JSONNumber(value) else { return .null }
        return .number(number)
    }

    /// An object with the given members, in order (duplicates kept).
    @_disfavoredOverload  // `.object(JSONObject)` (the case) wins where both fit
    public static func object(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(pairs.map { JSONMember(key: $0.0, value: JSONNode($0.1)) }))
    }

    /// An array of the given values.
    @_disfavoredOverload  // `.array([])` means the case; both give the same value
    public static func array(_ values: [JSONValue]) -> JSONValue {
        .array(values.map { JSONNode($0) })
    }
}
