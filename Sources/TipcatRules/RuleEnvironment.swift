public import TipcatCore

/// The declarations a rule is checked against: app parameters, events, the tip's own parameters and tip ids.
public struct RuleEnvironment: Sendable, Hashable {
    /// App parameters, referenced as `$name`.
    public var appParameters: [String: ValueType]
    /// Events by id (referenced as `#id`), each with its donation fields.
    public var events: [String: [String: ValueType]]
    /// The tip's own parameters, referenced by bare name.
    public var tipParameters: [String: ValueType]
    /// The tip ids of the catalog, referenced as `tip(ID)`.
    public var tipIDs: Set<String>
    /// Per event, how many donations rules can see and where that is declared; an event missing here keeps
    /// `DonationLog.defaultMaxCount`.
    public var donationLimits: [String: DonationCountLimit]

    /// Creates an environment; every part defaults to empty.
    public init(
        appParameters: [String: ValueType] = [:],
        events: [String: [String: ValueType]] = [:],
        tipParameters: [String: ValueType] = [:],
        tipIDs: Set<String> = [],
        donationLimits: [String: DonationCountLimit] = [:]
    ) {
        self.appParameters = appParameters
        self.events = events
        self.tipParameters = tipParameters
        self.tipIDs = tipIDs
        self.donationLimits = donationLimits
    }
}

/// The most donations of one event that rules can see (`donationLimit.maxCount`), and where it is declared.
public struct DonationCountLimit: Sendable, Hashable {
    public var maxCount: Int
    /// Whether the event sets `donationLimit.maxCount` (else the default applies).
    public var isDeclared: Bool
    /// Where `maxCount` is written, or the event's declaration when the default applies.
    public var location: SourceLocation?

    /// Creates a limit.
    public init(maxCount: Int, isDeclared: Bool, location: SourceLocation? = nil) {
        self.maxCount = maxCount
        self.isDeclared = isDeclared
        self.location = location
    }
}
