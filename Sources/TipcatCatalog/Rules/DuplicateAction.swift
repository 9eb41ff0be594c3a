public import TipcatCore

extension DiagnosticRule {
    /// Two actions of one tip share an id.
    public static let duplicateAction = DiagnosticRule(
        "duplicate-action", .error, stage: .catalog,
        summary: "a tip action id used twice",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##"""
                "actions": [{"id": "go", "title": "Go"}, {"id": "go", "title": "Go now"}]
                """##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##"""
                "actions": [{"id": "go", "title": "Go"}, {"id": "later", "title": "Later"}]
                """##)]),
        ])
}

extension Diagnostic {
    /// `action 'go' appears twice in A`, with a note at the first one.
    static func duplicateAction(_ actionID: String, in tip: String, at location: SourceLocation, first: SourceLocation) -> Diagnostic {
        Diagnostic("action '\(actionID)' appears twice in \(tip)", rule: .duplicateAction, at: location,
                   notes: [.init("first here", at: first)])
    }
}
