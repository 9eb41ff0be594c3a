public import TipcatCore

extension DiagnosticRule {
    /// An id or name with characters its kind does not allow.
    public static let invalidName = DiagnosticRule(
        "invalid-name", .error, stage: .catalog,
        summary: "an id or name with characters its kind does not allow",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": ##"{"id": "A-1", "title": "A tip"}"##]),
        ],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}
