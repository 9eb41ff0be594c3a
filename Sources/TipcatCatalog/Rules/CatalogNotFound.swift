public import TipcatCore

extension DiagnosticRule {
    /// The catalog directory does not exist (or is a file).
    public static let catalogNotFound = DiagnosticRule(
        "catalog-not-found", .error, stage: .catalog,
        summary: "the catalog directory does not exist",
        triggering: [[:]],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}
