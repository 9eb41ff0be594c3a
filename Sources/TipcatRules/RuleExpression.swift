public import TipcatCore

/// Where a node sits in the rule text and, once checked, what type it has.
public struct RuleNodeInfo: Sendable, Hashable {
    /// UTF-8 byte offsets of the node in the rule text.
    public var range: Range<Int>
    /// The node's type; nil in the parser's output, set on every node of a `CheckedRule`.
    public var type: RuleType?

    /// Creates the info for a node spanning `range`.
    public init(_ range: Range<Int>, type: RuleType? = nil) {
        self.range = range
        self.type = type
    }
}

/// A rule expression (the syntax tree). Every node carries its byte range and, after checking, its type.
///
/// The parser produces `.name` for bare names; the checker resolves each one to `.tipParameter` or
/// `.eventField`, resolves every `.member`'s `kind`, and records every node's type, so an evaluator can walk
/// a checked tree without looking anything up again.
public indirect enum RuleExpression: Sendable, Hashable {
    /// `true` / `false`.
    case bool(Bool, RuleNodeInfo)
    /// An integer literal such as `3` or `-2`.
    case int(Int, RuleNodeInfo)
    /// A decimal literal such as `2.5`.
    case double(Double, RuleNodeInfo)
    /// A string literal, escapes decoded.
    case string(String, RuleNodeInfo)
    /// `nil`: no value, compared with an optional (`nickname == nil`).
    case `nil`(RuleNodeInfo)
    /// A duration literal such as `5d` or `1.5h`.
    case duration(TimeSpan, RuleNodeInfo)
    /// A calendar window such as `.day` (the last day), the argument of `within`.
    case window(RuleWindow, RuleNodeInfo)
    /// `.actionPerformed`: an argument written `.name` that is not a calendar window (an invalidation reason).
    case symbol(String, RuleNodeInfo)
    /// `now`, the evaluation time.
    case now(RuleNodeInfo)
    /// `$name`: an app parameter (the name without `$`).
    case appParameter(String, RuleNodeInfo)
    /// `#id`: the donations of an event (the id without `#`).
    case event(String, RuleNodeInfo)
    /// `tip(ID)`: another tip's status. `idRange` covers `ID`.
    case tip(String, idRange: Range<Int>, RuleNodeInfo)
    /// A bare name as written; only in the parser's output.
    case name(String, RuleNodeInfo)
    /// A bare name resolved to one of the tip's own parameters.
    case tipParameter(String, RuleNodeInfo)
    /// A bare name resolved to a field of the donation being filtered or grouped (the innermost event).
    case eventField(String, event: String, RuleNodeInfo)
    /// `!operand`.
    case not(RuleExpression, RuleNodeInfo)
    /// `a && b && …` (two or more operands, in order).
    case and([RuleExpression], RuleNodeInfo)
    /// `a || b || …` (two or more operands, in order).
    case or([RuleExpression], RuleNodeInfo)
    /// `lhs op rhs` with a comparison operator.
    case comparison(RuleComparisonOperator, RuleExpression, RuleExpression, RuleNodeInfo)
    /// `lhs + rhs` / `lhs - rhs` (a date plus or minus a duration).
    case arithmetic(RuleArithmeticOperator, RuleExpression, RuleExpression, RuleNodeInfo)
    /// `base.member` or `base.member(arguments)`.
    case member(RuleExpression, RuleMember, RuleNodeInfo)
}

/// A comparison operator.
public enum RuleComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    /// Whether the operator needs ordered operands (`<`, `<=`, `>`, `>=`).
    public var isOrdering: Bool { self != .equal && self != .notEqual }

    /// Whether `lhs op rhs` holds.
    public func holds<T: Comparable>(_ lhs: T, _ rhs: T) -> Bool {
        switch self {
        case .equal: lhs == rhs
        case .notEqual: lhs != rhs
        case .less: lhs < rhs
        case .lessOrEqual: lhs <= rhs
        case .greater: lhs > rhs
        case .greaterOrEqual: lhs >= rhs
        }
    }

    /// The operator with its operands swapped: `a < b` is `b > a`.
    public var mirrored: RuleComparisonOperator {
        switch self {
        case .equal, .notEqual: self
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        }
    }
}

/// `+` or `-`.
public enum RuleArithmeticOperator: String, Sendable, Hashable, CaseIterable {
    case plus = "+"
    case minus = "-"
}

/// Why a tip was invalidated, as TipKit's `Tips.InvalidationReason` names it: what the engine records
/// (`TipInvalidationReason` is this type) and what `tip(X).invalidated(.tipClosed)` asks about.
public enum RuleInvalidationReason: String, Sendable, Hashable, CaseIterable {
    /// The user did what the tip suggested (the app calls `invalidate(_:reason: .actionPerformed)`).
    case actionPerformed
    /// The user closed the tip.
    case tipClosed
    /// The tip reached its `maxDisplayCount`.
    case displayCountExceeded
    /// The tip was on screen for its `maxDisplayDuration` in total.
    case displayDurationExceeded
}

/// A calendar window: the last minute, hour, day or week before now.
public enum RuleWindow: String, Sendable, Hashable, CaseIterable {
    case minute
    case hour
    case day
    case week

    /// The window's length.
    public var span: TimeSpan {
        switch self {
        case .minute: TimeSpan(seconds: 60)
        case .hour: TimeSpan(seconds: 3600)
        case .day: TimeSpan(seconds: 86_400)
        case .week: TimeSpan(seconds: 604_800)
        }
    }
}

/// A member access: `.count`, `.within(5d)`, `.largestSubset(groupedBy: backyardID)`, `.region`.
public struct RuleMember: Sendable, Hashable {
    /// The member name as written.
    public var name: String
    /// The byte range of the name.
    public var nameRange: Range<Int>
    /// The arguments, or nil when written without parentheses.
    public var arguments: [RuleArgument]?
    /// What the member is; nil in the parser's output, set by the checker.
    public var kind: RuleMemberKind?

    /// Creates a member access.
    public init(name: String, nameRange: Range<Int>, arguments: [RuleArgument]? = nil, kind: RuleMemberKind? = nil) {
        self.name = name
        self.nameRange = nameRange
        self.arguments = arguments
        self.kind = kind
    }
}

/// One argument of a member call, optionally labelled (`groupedBy: backyardID`).
public struct RuleArgument: Sendable, Hashable {
    /// The label without its colon, if written.
    public var label: String?
    /// The byte range of the label (without the colon), if written.
    public var labelRange: Range<Int>?
    /// The argument itself (a `.window` for `.day` and the like).
    public var value: RuleExpression

    /// Creates an argument.
    public init(label: String? = nil, labelRange: Range<Int>? = nil, value: RuleExpression) {
        self.label = label
        self.labelRange = labelRange
        self.value = value
    }
}

/// The resolved meaning of a member; the base's type tells which `count` or `contains` it is.
public enum RuleMemberKind: String, Sendable, Hashable, CaseIterable {
    /// Number of donations, elements or characters → int.
    case count
    /// Whether a list, set or string is empty → bool.
    case isEmpty
    /// Whether a list or set holds the element, or a string the substring → bool.
    case contains
    /// Donations within the last duration or calendar window → donations.
    case within
    /// Donations matching the predicate (bare names are the donation's fields) → donations.
    case `where`
    /// The largest group of donations sharing a field's value → donations.
    case largestSubset
    /// The smallest group of donations sharing a field's value → donations.
    case smallestSubset
    /// The distinct values of a donation field → set.
    case distinct
    /// When the most recent donation happened → date.
    case lastDonated
    /// A field of a record (the member name is the field name).
    case field
    /// `tip(ID).invalidated` → bool.
    case invalidated
    /// `tip(ID).available` → bool.
    case available
    /// `tip(ID).pending` → bool.
    case pending
    /// `tip(ID).displayCount` → int.
    case displayCount
    /// `date.isToday` → bool: the same day as now, in the user's time zone.
    case isToday
    /// `date.hour` → int, 0–23 in the user's time zone.
    case hour
    /// `date.minute` → int, 0–59.
    case minute
    /// `date.weekday` → int, 1 (Sunday) – 7 (Saturday).
    case weekday
}
