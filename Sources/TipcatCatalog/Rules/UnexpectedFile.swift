public import TipcatCore

extension DiagnosticRule {
    /// A file in `tips/` that is not a `.json` file.
    public static let unexpectedFile = DiagnosticRule(
        "unexpected-file", .warning, stage: .catalog,
        summary: "a non-`.json` file in `tips/`",
        triggering: [CatalogExample.catalog(tips: ["A"], extra: ["tips/notes.txt": ##"to do"##])],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}

extension Diagnostic {
    /// `'Catalog/tips/notes.txt' is not a .json file; …`.
    static func unexpectedFile(_ path: String) -> Diagnostic {
        Diagnostic("'\(path)' is not a .json file; tip files must end in .json, so it is ignored",
                   rule: .unexpectedFile, at: SourceLocation(file: path, line: 1, column: 1))
    }
}
