/// A value a template renders: the data behind `{{name}}`, `{{#section}}` and friends.
///
/// Objects are dictionaries (Mustache never enumerates keys, so order does not matter) or ``TemplateObject``s
/// that compute their fields when looked up. Lambdas are native Swift closures, see ``TemplateLambda``.
public enum TemplateValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([TemplateValue])
    case object([String: TemplateValue])
    /// An object whose fields are computed on lookup; equal only to itself (identity).
    case computed(any TemplateObject)
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
        case .null, .array, .object, .computed, .lambda: ""
        }
    }

    /// The value at `key` if this is an object (stored or computed).
    public subscript(key: String) -> TemplateValue? {
        switch self {
        case .object(let fields): fields[key]
        case .computed(let object): object.value(forKey: key)
        default: nil
        }
    }

    public static func == (lhs: TemplateValue, rhs: TemplateValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        case (.computed(let a), .computed(let b)): a === b
        case (.lambda(let a), .lambda(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(1); hasher.combine(value)
        case .int(let value): hasher.combine(2); hasher.combine(value)
        case .double(let value): hasher.combine(3); hasher.combine(value)
        case .string(let value): hasher.combine(4); hasher.combine(value)
        case .array(let value): hasher.combine(5); hasher.combine(value)
        case .object(let value): hasher.combine(6); hasher.combine(value)
        case .computed(let value): hasher.combine(7); hasher.combine(ObjectIdentifier(value))
        case .lambda(let value): hasher.combine(8); hasher.combine(value)
        }
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

/// An object whose fields a template reads by name, computed on lookup instead of stored in a dictionary built
/// up front: for contexts rendered often, where most fields are read once or not at all.
///
/// Mustache never enumerates an object's keys, so a lookup is all an object needs. Return `nil` for a key the
/// object does not have: the lookup then goes on down the context stack, as for a dictionary without that key.
public protocol TemplateObject: AnyObject, Sendable {
    /// The value of field `key`, or `nil` when there is no such field.
    func value(forKey key: String) -> TemplateValue?
}
