public import TipcatCore

extension DiagnosticRule {
    /// A key written twice in one object.
    public static let duplicateKey = DiagnosticRule(
        "duplicate-key", .error, stage: .catalog,
        summary: "an object key written twice",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": ##"{"id": "A", "title": "A tip", "title": "Another tip"}"##]),
        ],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}
