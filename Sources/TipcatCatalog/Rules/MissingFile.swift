public import TipcatCore

extension DiagnosticRule {
    /// A required file such as `catalog.json` is missing.
    public static let missingFile = DiagnosticRule(
        "missing-file", .error, stage: .catalog,
        summary: "`catalog.json` is missing",
        triggering: [["tips/A.json": CatalogExample.tip("A")]],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}

extension Diagnostic {
    /// `the catalog has no catalog.json; create one (see `tipcat init`)`.
    static func missingFile(_ name: String, at path: String) -> Diagnostic {
        Diagnostic("the catalog has no \(name); create one (see `tipcat init`)", rule: .missingFile,
                   at: SourceLocation(file: path, line: 1, column: 1))
    }
}
