public import TipcatCore

extension DiagnosticRule {
    /// The catalog directory does not exist (or is a file).
    public static let catalogNotFound = DiagnosticRule(
        "catalog-not-found", .error, stage: .catalog,
        summary: "the catalog directory does not exist",
        triggering: [[:]],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}

extension Diagnostic {
    /// `catalog directory 'Catalog' does not exist` (`reason`: "does not exist" or "is not a directory").
    static func catalogNotFound(_ directory: String, reason: String) -> Diagnostic {
        Diagnostic("catalog directory '\(directory)' \(reason)", rule: .catalogNotFound,
                   at: SourceLocation(file: directory, line: 1, column: 1))
    }
}
