public import TipcatCatalog
public import TipcatCore
public import TipcatRules

/// Why a tip instance is (not) showing: every rule with the values it saw, plus display count and duration,
/// display frequency, group, testing overrides and the catalog's kill switch.
public struct TipExplanation: Sendable, Hashable, CustomStringConvertible {
    /// Something that keeps the tip from showing now (or, for `nextOffersAnother`, from being `next()`).
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// The catalog's kill switch (`"enabled": false`) is off: no tip shows.
        case catalogDisabled
        case invalidated(TipInvalidationReason, at: Timestamp?)
        case hiddenByOverride(TipOverrideSetting)
        /// A rule did not pass the checker, so the tip can never show (with the checker's message).
        case ruleDoesNotCheck(String)
        /// Rule number `index` (1-based) does not hold.
        case ruleUnmet(index: Int, RuleVerdict)
        /// Another tip was first shown at `lastShown`; new tips wait until `availableAt`.
        case displayFrequency(DisplayFrequency, lastShown: Timestamp, availableAt: Timestamp)
        /// In an `ordered` group, these earlier tips are not invalidated yet.
        case waitingInGroup(GroupID, for: [TipInstanceID])
        /// In a `firstAvailable` group, another tip is the current one.
        case groupShowsAnother(GroupID, current: TipInstanceID)
        /// The tip may show, but `next()` offers this one first (on screen, or earlier in the catalog).
        case nextOffersAnother(TipInstanceID)

        public var description: String {
            switch self {
            case .catalogDisabled:
                return "the catalog is disabled (\"enabled\": false in catalog.json): no tip shows"
            case .invalidated(let reason, let at):
                return "invalidated (\(reason.rawValue))" + (at.map { " at \($0)" } ?? "")
                    + "; reset its eligibility to show it again"
            case .hiddenByOverride(let setting):
                return "hidden by the testing override \(setting)"
            case .ruleDoesNotCheck(let message):
                return message
            case .ruleUnmet(let index, let verdict):
                let failed = verdict.failedConditions.map(\.summary)
                return "rule \(index) unmet: \(verdict.source)" + (failed.isEmpty ? "" : " — " + failed.joined(separator: "; "))
            case .displayFrequency(let frequency, let lastShown, let availableAt):
                return "display frequency \(frequency): a new tip was shown at \(lastShown); new tips wait until \(availableAt)"
            case .waitingInGroup(let group, let earlier):
                return "group '\(group)' is ordered: waiting for "
                    + earlier.map(\.rawValue).joined(separator: ", ") + " to be invalidated"
            case .groupShowsAnother(let group, let current):
                return "group '\(group)' shows its first available tip, \(current)"
            case .nextOffersAnother(let other):
                return "next() offers \(other) first"
            }
        }
    }

    public var instance: TipInstanceID
    public var tip: TipID
    /// When the explanation was made.
    public var now: Timestamp
    public var status: TipStatus
    /// Whether the tip may show now (available, and its group's current tip).
    public var mayShow: Bool
    /// Whether `next()` returns this tip now.
    public var isNext: Bool
    /// Every rule's verdict, in order (all are evaluated, even when something else already decides).
    public var rules: [RuleVerdict]
    /// What keeps the tip from showing, most decisive first; empty when it is `next()`.
    public var reasons: [Reason]
    public var displayCount: Int
    public var maxDisplayCount: Int?
    /// Total time on screen, including a display still running.
    public var displayDuration: TimeSpan
    public var maxDisplayDuration: TimeSpan?
    public var isOnScreen: Bool
    public var displayFrequency: DisplayFrequency
    public var ignoresDisplayFrequency: Bool
    public var group: GroupID?
    /// The testing override that applies, if any.
    public var override: TipOverrideDecision?
    /// The catalog's kill switch.
    public var catalogEnabled: Bool

    /// Creates an explanation (the engine makes them; see `TipEngine.explain(_:)`).
    public init(
        instance: TipInstanceID, tip: TipID, now: Timestamp, status: TipStatus, mayShow: Bool, isNext: Bool,
        rules: [RuleVerdict], reasons: [Reason], displayCount: Int, maxDisplayCount: Int?, displayDuration: TimeSpan,
        maxDisplayDuration: TimeSpan?, isOnScreen: Bool, displayFrequency: DisplayFrequency, ignoresDisplayFrequency: Bool,
        group: GroupID?, override: TipOverrideDecision?, catalogEnabled: Bool
    ) {
        self.instance = instance
        self.tip = tip
        self.now = now
        self.status = status
        self.mayShow = mayShow
        self.isNext = isNext
        self.rules = rules
        self.reasons = reasons
        self.displayCount = displayCount
        self.maxDisplayCount = maxDisplayCount
        self.displayDuration = displayDuration
        self.maxDisplayDuration = maxDisplayDuration
        self.isOnScreen = isOnScreen
        self.displayFrequency = displayFrequency
        self.ignoresDisplayFrequency = ignoresDisplayFrequency
        self.group = group
        self.override = override
        self.catalogEnabled = catalogEnabled
    }

    /// A readable report, one fact per line.
    public var description: String {
        var lines: [String] = []
        let verdict = isNext ? "shows now (next)" : (mayShow ? "may show" : "not shown")
        lines.append("\(instance): \(status), \(verdict)")
        if !reasons.isEmpty {
            lines.append("why:")
            lines += reasons.map { "  - \($0)" }
        }
        if rules.isEmpty {
            lines.append("rules: none (always eligible)")
        } else {
            lines.append("rules:")
            for rule in rules {
                lines.append("  \(rule.holds ? "✓" : "✗") \(rule.source)")
                for condition in rule.conditions {
                    lines.append("      \(condition.holds ? "✓" : "✗") \(condition.text): \(condition.summary)")
                }
            }
        }
        lines.append("display count: \(displayCount)" + (maxDisplayCount.map { " of \($0)" } ?? " (no maximum)"))
        lines.append("display duration: \(displayDuration)" + (maxDisplayDuration.map { " of \($0)" } ?? " (no maximum)")
                     + (isOnScreen ? ", on screen now" : ""))
        lines.append("display frequency: \(displayFrequency)" + (ignoresDisplayFrequency ? " (ignored by this tip)" : ""))
        lines.append("group: " + (group.map(\.rawValue) ?? "none"))
        lines.append("testing override: " + (override.map(\.description) ?? "none"))
        lines.append("catalog: " + (catalogEnabled ? "enabled" : "disabled (kill switch)"))
        return lines.joined(separator: "\n")
    }
}
