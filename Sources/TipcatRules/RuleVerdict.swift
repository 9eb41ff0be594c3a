public import TipcatCore

/// The result of evaluating one rule, with every condition it tested: the answer to "why (not)?".
public struct RuleVerdict: Sendable, Hashable, CustomStringConvertible {
    /// The rule text as written.
    public var source: String
    /// Whether the rule holds.
    public var holds: Bool
    /// Each comparison and each plain condition (`$isLoggedIn`, `tip(X).invalidated`) outside `where`
    /// filters, in source order, with the values it saw.
    public var conditions: [RuleCondition]
    /// The earliest time at which the verdict can change by the passing of time alone (a donation leaving a
    /// window or the donation limit's `maxAge`, a future-dated donation coming due, a rule reading `now`);
    /// nil when only new inputs (donations, parameters, tip states) can change it.
    public var validBefore: Timestamp?

    /// Creates a verdict.
    public init(source: String, holds: Bool, conditions: [RuleCondition] = [], validBefore: Timestamp? = nil) {
        self.source = source
        self.holds = holds
        self.conditions = conditions
        self.validBefore = validBefore
    }

    /// The conditions that failed.
    public var failedConditions: [RuleCondition] { conditions.filter { !$0.holds } }

    /// `✓ rule` or `✗ rule — summary of the failed conditions`.
    public var description: String {
        guard !holds else { return "✓ \(source)" }
        let failed = failedConditions.map(\.summary)
        return "✗ \(source)" + (failed.isEmpty ? "" : " — " + failed.joined(separator: "; "))
    }
}

/// One tested condition inside a rule and what it saw.
public struct RuleCondition: Sendable, Hashable, CustomStringConvertible {
    /// What was tested.
    public enum Kind: Sendable, Hashable {
        /// `left op right`.
        case comparison(RuleComparisonOperator, left: RuleObservedValue, right: RuleObservedValue)
        /// A bool-valued expression used as a condition.
        case test(RuleObservedValue)
    }

    /// The condition's text in the rule.
    public var text: String
    /// Its UTF-8 byte range in the rule.
    public var range: Range<Int>
    public var kind: Kind
    public var holds: Bool
    /// Details gathered on the way, such as which group `largestSubset` picked.
    public var notes: [String]
    /// For a negation `!x`: the text of `x`, whose values `kind` holds (`holds` is the negation's result).
    public var negatedText: String?

    /// Creates a condition result.
    public init(text: String, range: Range<Int>, kind: Kind, holds: Bool, notes: [String] = []) {
        self.text = text
        self.range = range
        self.kind = kind
        self.holds = holds
        self.notes = notes
    }

    /// The values in words: `0 of 3` for a count that must reach 3, `$isLoggedIn is false`, `2 == 0`.
    public var summary: String {
        var text: String
        switch kind {
        case .comparison(let op, let left, let right):
            if case .value(.int(let count)) = left, case .value(.int(let bound)) = right, op == .greaterOrEqual {
                text = "\(count) of \(bound)"
            } else if case .missing(let reason) = left {
                text = reason
            } else if case .missing(let reason) = right {
                text = reason
            } else {
                text = "\(left) \(op.rawValue) \(right)"
            }
        case .test(let value):
            if case .missing(let reason) = value {
                text = reason
            } else {
                text = "\(negatedText ?? self.text) is \(value)"
            }
        }
        if !notes.isEmpty { text += " (" + notes.joined(separator: "; ") + ")" }
        return text
    }

    public var description: String { "\(holds ? "✓" : "✗") \(text): \(summary)" }
}

/// A value a condition saw, for explanations.
public enum RuleObservedValue: Sendable, Hashable, CustomStringConvertible {
    /// A plain value: a number, string, bool, date, collection or record.
    case value(Value)
    /// A length of time.
    case duration(TimeSpan)
    /// A set of donations (shown by its size).
    case donations(count: Int)
    /// Another tip's state.
    case tip(RuleTipState)
    /// `nil`: an optional value that is absent, or the `nil` literal.
    case absent
    /// No value, and why: `no donations of #opened-map`, `no value for tip parameter 'trail'`.
    case missing(String)

    public var description: String {
        switch self {
        case .value(.date(let timestamp)) where !RuleObservedValue.printable(timestamp.secondsSince1970):
            "\(timestamp.secondsSince1970) seconds since 1970"
        case .duration(let span) where !RuleObservedValue.printable(span.seconds):
            "\(span.seconds) seconds"
        case .value(let value): value.description
        case .duration(let span): span.description
        case .donations(let count): count == 1 ? "1 donation" : "\(count) donations"
        case .tip(let state): state.description
        case .absent: "nil"
        case .missing(let reason): "none (\(reason))"
        }
    }

    /// Whether a date or duration in seconds is small enough for the calendar and duration formatters
    /// (a rule may say `now - 99999999999999999999d`).
    static func printable(_ seconds: Double) -> Bool { seconds.isFinite && abs(seconds) < 1e15 }
}
