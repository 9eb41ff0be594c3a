public import TipcatCore

extension DiagnosticRule {
    /// A required key is missing.
    public static let missingKey = DiagnosticRule(
        "missing-key", .error, stage: .catalog,
        summary: "a required key is missing",
        triggering: [CatalogExample.catalog(tips: [], extra: ["tips/A.json": ##"{"id": "A"}"##])],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}
