public import TipcatCore

extension DiagnosticRule {
    /// A file in `tips/` that is not a `.json` file.
    public static let unexpectedFile = DiagnosticRule(
        "unexpected-file", .warning, stage: .catalog,
        summary: "a non-`.json` file in `tips/`",
        triggering: [CatalogExample.catalog(tips: ["A"], extra: ["tips/notes.txt": ##"to do"##])],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}
