public import TipcatCore

extension DiagnosticRule {
    /// A group that lists no tips.
    public static let emptyGroup = DiagnosticRule(
        "empty-group", .error, stage: .catalog,
        summary: "a group with no tips",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["groups.json": ##"""
                {"groups": [{"id": "g", "priority": "ordered", "tips": []}]}
                """##]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["groups.json": ##"""
                {"groups": [{"id": "g", "priority": "ordered", "tips": ["A"]}]}
                """##]),
        ])
}

extension Diagnostic {
    /// `group 'compass' has no tips`.
    static func emptyGroup(_ id: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("group '\(id)' has no tips", rule: .emptyGroup, at: location)
    }
}
