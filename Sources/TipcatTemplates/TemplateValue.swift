/// A value a template renders: the data behind `{{name}}`, `{{#section}}` and friends.
///
/// Objects are dictionaries (Mustache never enumerates keys, so order does not matter). Lambdas are native
/// Swift closures, see ``TemplateLambda``.
public enum TemplateValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([TemplateValue])
    case object([String: TemplateValue])
    case lambda(TemplateLambda)

    /// Whether a section renders for this value (before the optional empty-string rule of ``RenderOptions``).
    ///
    /// The spec names `false`, null and the empty list as falsey; everything else, including `0` and `""`,
    /// is truthy.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .array(let values): !values.isEmpty
        default: true
        }
    }

    /// The text `{{value}}` interpolates (before escaping).
    ///
    /// Integral doubles print without a fraction (`1.0` → `1`), other doubles in their shortest exact form
    /// (`1.21` → `1.21`). Null, lists, objects and lambdas have no text of their own: they print as nothing.
    public var interpolationText: String {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): Self.text(of: value)
        case .bool(let value): value ? "true" : "false"
        case .null, .array, .object, .lambda: ""
        }
    }

    /// The value at `key` if this is an object.
    public subscript(key: String) -> TemplateValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    static func text(of value: Double) -> String {
        if value.isFinite, value == value.rounded(.towardZero), abs(value) < 9.007_199_254_740_992e15 {
            return String(Int64(value))
        }
        return String(value)
    }
}

extension TemplateValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension TemplateValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension TemplateValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension TemplateValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension TemplateValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: TemplateValue...) { self = .array(elements) }
}

extension TemplateValue: ExpressibleByDictionaryLiteral {
    /// Later duplicates win, as in a JSON object.
    public init(dictionaryLiteral elements: (String, TemplateValue)...) {
        var fields: [String: TemplateValue] = [:]
        fields.reserveCapacity(elements.count)
        for (key, value) in elements { fields[key] = value }
        self = .object(fields)
    }
}
