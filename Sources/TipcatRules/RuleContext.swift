public import TipcatCore

/// Everything a rule can read: parameter values, donations, other tips' states and the time.
///
/// A plain value: the engine builds one per evaluation from its state (dictionaries are shared, not copied),
/// tests build one by hand.
public struct RuleContext: Sendable {
    /// The evaluation time: `now` in rules, and the end of every `within` window.
    public var now: Timestamp
    /// App parameter values by name (without `$`).
    public var appParameters: [String: Value]
    /// The tip's own parameter values by name (`trail` → a record).
    public var tipParameters: [String: Value]
    /// The donations of each event, by event id (without `#`); a missing event has no donations.
    public var donations: [String: DonationLog]
    /// The state of every tip a rule names with `tip(ID)`.
    public var tips: [String: RuleTipState]
    /// The user's time zone, for `.isToday`, `.hour`, `.minute` and `.weekday` of dates.
    public var timeZone: RuleTimeZone

    /// Creates a context; everything but the time defaults to empty.
    public init(
        now: Timestamp, appParameters: [String: Value] = [:], tipParameters: [String: Value] = [:],
        donations: [String: DonationLog] = [:], tips: [String: RuleTipState] = [:], timeZone: RuleTimeZone = .utc
    ) {
        self.timeZone = timeZone
        self.now = now
        self.appParameters = appParameters
        self.tipParameters = tipParameters
        self.donations = donations
        self.tips = tips
    }
}

/// What `tip(ID)` reads: the other tip's status and how often it was shown.
public struct RuleTipState: Sendable, Hashable, CustomStringConvertible {
    /// The three states of TipKit's `Tip.Status`, without the invalidation reason.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        case pending, available, invalidated
    }

    public var status: Status
    public var displayCount: Int
    /// Why the tip's instances were invalidated (for `invalidated(.tipClosed)`); empty unless invalidated.
    public var invalidationReasons: Set<RuleInvalidationReason>

    /// Creates a tip state.
    public init(status: Status, displayCount: Int = 0, invalidationReasons: Set<RuleInvalidationReason> = []) {
        self.status = status
        self.displayCount = displayCount
        self.invalidationReasons = invalidationReasons
    }

    public var description: String { "\(status.rawValue), shown \(displayCount)×" }
}
