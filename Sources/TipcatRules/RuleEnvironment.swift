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

    /// Creates an environment; every part defaults to empty.
    public init(
        appParameters: [String: ValueType] = [:],
        events: [String: [String: ValueType]] = [:],
        tipParameters: [String: ValueType] = [:],
        tipIDs: Set<String> = []
    ) {
        self.appParameters = appParameters
        self.events = events
        self.tipParameters = tipParameters
        self.tipIDs = tipIDs
    }
}
