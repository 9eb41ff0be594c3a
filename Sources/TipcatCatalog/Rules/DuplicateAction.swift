public import TipcatCore

extension DiagnosticRule {
    /// Two actions of one tip share an id.
    public static let duplicateAction = DiagnosticRule(
        "duplicate-action", .error, stage: .catalog,
        summary: "a tip action id used twice",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""actions": [{"id": "go", "title": "Go"}, {"id": "go", "title": "Go now"}]"##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""actions": [{"id": "go", "title": "Go"}, {"id": "later", "title": "Later"}]"##)]),
        ])
}
