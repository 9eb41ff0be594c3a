public import TipcatCatalog
public import TipcatCore
public import TipcatRules

/// Names one tip instance: the tip's id for a tip without a custom ID, or its resolved custom ID
/// (`NewTrailTip-butler-fork`). Each instance has its own status, display count and duration.
public typealias TipInstanceID = Identifier<TipInstanceKind>

/// The kind of a `TipInstanceID`.
public enum TipInstanceKind: IdentifierKind {}

/// A tip instance's status, as TipKit's `Tip.Status`.
public enum TipStatus: Sendable, Hashable, CustomStringConvertible {
    /// Not shown now: rules unmet, held back by the display frequency, hidden by an override, or the catalog
    /// is disabled.
    case pending
    /// May be shown now (group order aside; see `TipEngine.next()` and `currentTip(group:)`).
    case available
    /// Will not be shown again until its eligibility is reset.
    case invalidated(TipInvalidationReason)

    /// `pending`, `available`, `invalidated(tipClosed)`.
    public var description: String {
        switch self {
        case .pending: "pending"
        case .available: "available"
        case .invalidated(let reason): "invalidated(\(reason.rawValue))"
        }
    }

    /// Parses the description form; `invalidated` without a reason is not accepted.
    public init?(_ text: String) {
        switch text {
        case "pending": self = .pending
        case "available": self = .available
        default:
            guard text.hasPrefix("invalidated("), text.hasSuffix(")"),
                  let reason = TipInvalidationReason(rawValue: String(text.dropFirst(12).dropLast()))
            else { return nil }
            self = .invalidated(reason)
        }
    }

    /// Whether the status is `invalidated` (any reason).
    public var isInvalidated: Bool {
        if case .invalidated = self { return true }
        return false
    }
}

/// Why a tip was invalidated, as TipKit's `Tips.InvalidationReason`: the same type rules ask about with
/// `tip(X).invalidated(.tipClosed)`.
public typealias TipInvalidationReason = RuleInvalidationReason

/// A status change reported by `TipEngine.statusChanges()`.
public struct TipStatusChange: Sendable, Hashable, CustomStringConvertible {
    public var instance: TipInstanceID
    /// The status before, or nil for an instance seen for the first time (a newly registered custom ID).
    public var old: TipStatus?
    public var new: TipStatus
    /// Whether the instance was not new but restored from a saved state (its first status after the start).
    public var isRestored: Bool

    /// Creates a change.
    public init(instance: TipInstanceID, old: TipStatus?, new: TipStatus, isRestored: Bool = false) {
        self.instance = instance
        self.old = old
        self.new = new
        self.isRestored = isRestored
    }

    public var description: String {
        if old == nil && isRestored { return "\(instance): \(new) (restored from the saved state)" }
        return "\(instance): \(old.map(\.description) ?? "new") → \(new)"
    }
}

/// One line of `TipEngine.tips()`: an instance and its state.
public struct TipInstanceSummary: Sendable, Hashable {
    public var instance: TipInstanceID
    public var tip: TipID
    public var status: TipStatus
    public var displayCount: Int
    public var displayDuration: TimeSpan
    public var isOnScreen: Bool

    /// Creates a summary.
    public init(instance: TipInstanceID, tip: TipID, status: TipStatus, displayCount: Int, displayDuration: TimeSpan, isOnScreen: Bool) {
        self.instance = instance
        self.tip = tip
        self.status = status
        self.displayCount = displayCount
        self.displayDuration = displayDuration
        self.isOnScreen = isOnScreen
    }
}
