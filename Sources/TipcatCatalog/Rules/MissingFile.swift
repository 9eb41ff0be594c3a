public import TipcatCore

extension DiagnosticRule {
    /// A required file such as `catalog.json` is missing.
    public static let missingFile = DiagnosticRule(
        "missing-file", .error, stage: .catalog,
        summary: "`catalog.json` is missing",
        triggering: [["tips/A.json": CatalogExample.tip("A")]],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}
