public import TipcatCore

extension DiagnosticRule {
    /// A value that is not one of the allowed ones.
    public static let invalidValue = DiagnosticRule(
        "invalid-value", .error, stage: .catalog,
        summary: "a value that is not one of the allowed values (with did-you-mean)",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""republish": "never""##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""republish": "reset""##)]),
        ])
}
