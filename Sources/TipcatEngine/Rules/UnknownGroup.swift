public import TipcatCore

extension DiagnosticRule {
    /// A group that the catalog does not declare.
    public static let unknownGroup = DiagnosticRule(
        "unknown-group", .error, stage: .simulation,
        summary: "a simulation script names a group that is not in the catalog",
        snippets: [.simulation("expect next --group compas")])
}
