/// A rule that parsed and type-checked: its resolved, typed tree and the names it depends on.
public struct CheckedRule: Sendable, Hashable {
    /// The rule text as written.
    public var source: String
    /// The tree with bare names resolved, member kinds resolved and every node's type recorded.
    public var expression: RuleExpression
    /// App parameter names (without `$`) the rule reads.
    public var referencedAppParameters: Set<String>
    /// Event ids (without `#`) the rule reads.
    public var referencedEvents: Set<String>
    /// The tip's own parameters the rule reads.
    public var referencedTipParameters: Set<String>
    /// Tip ids the rule reads with `tip(ID)`.
    public var referencedTips: Set<String>

    /// Creates a checked rule.
    public init(
        source: String, expression: RuleExpression,
        referencedAppParameters: Set<String> = [], referencedEvents: Set<String> = [],
        referencedTipParameters: Set<String> = [], referencedTips: Set<String> = []
    ) {
        self.source = source
        self.expression = expression
        self.referencedAppParameters = referencedAppParameters
        self.referencedEvents = referencedEvents
        self.referencedTipParameters = referencedTipParameters
        self.referencedTips = referencedTips
    }
}
