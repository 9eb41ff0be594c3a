public import TipcatCore

/// The static type of a rule expression.
public indirect enum RuleType: Sendable, Hashable, CustomStringConvertible {
    case bool
    case int
    case double
    case string
    case date
    /// A length of time such as `5d`.
    case duration
    case list(ValueType)
    case set(ValueType)
    case record([ValueType.RecordField])
    /// The donations of an event (`#id`), possibly filtered, windowed or grouped.
    case donations(event: String)
    /// Another tip's status, `tip(ID)`.
    case tip
    /// A calendar window such as `.day`; only the argument of `within`.
    case window
    /// An invalidation reason such as `.tipClosed`; only the argument of `tip(…).invalidated`.
    case invalidationReason
    /// A value that may be absent, of the wrapped (non-optional) type: a `string?` parameter.
    case optional(ValueType)
    /// The `nil` literal; only an operand of `==` / `!=` with an optional.
    case nilLiteral

    /// The rule type of a declared parameter or field type.
    public init(_ type: ValueType) {
        switch type {
        case .string: self = .string
        case .int: self = .int
        case .double: self = .double
        case .bool: self = .bool
        case .date: self = .date
        case .list(let element): self = .list(element)
        case .set(let element): self = .set(element)
        case .record(let fields): self = .record(fields)
        case .optional(let wrapped): self = .optional(wrapped.wrapped)
        }
    }

    /// The declared value type this rule type stands for, if it is one.
    public var valueType: ValueType? {
        switch self {
        case .bool: .bool
        case .int: .int
        case .double: .double
        case .string: .string
        case .date: .date
        case .list(let element): .list(element)
        case .set(let element): .set(element)
        case .record(let fields): .record(fields)
        case .optional(let wrapped): .optional(wrapped)
        case .duration, .donations, .tip, .window, .invalidationReason, .nilLiteral: nil
        }
    }

    /// The rule type of a present value of this type: `string` for `string?`, the type itself otherwise.
    public var wrapped: RuleType {
        if case .optional(let wrapped) = self { return RuleType(wrapped) }
        return self
    }

    /// Whether the type is `int` or `double`.
    public var isNumeric: Bool { self == .int || self == .double }

    /// The type name used in messages: `int`, `set<string>`, `events`, `tip`.
    public var description: String {
        switch self {
        case .duration: "duration"
        case .donations: "events"
        case .tip: "tip"
        case .window: "calendar window"
        case .invalidationReason: "invalidation reason"
        case .record: "record"
        case .optional(.record): "record?"
        case .nilLiteral: "nil"
        default: valueType.map(\.description) ?? "?"
        }
    }

    /// `a bool`, `an int`, `a set<string>`: the name with its article.
    var withArticle: String {
        if case .donations = self { return "a list of events" }
        if case .optional = self { return "an optional \(description)" }
        let name = description
        guard let first = name.first else { return name }
        return ("aeiou".contains(first) ? "an " : "a ") + name
    }
}
