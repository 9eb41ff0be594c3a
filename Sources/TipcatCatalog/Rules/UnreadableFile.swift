public import TipcatCore

extension DiagnosticRule {
    /// A file or directory cannot be read as what it should be.
    public static let unreadableFile = DiagnosticRule(
        "unreadable-file", .error, stage: .catalog,
        summary: "a file cannot be read (missing, a directory, a FIFO, socket or device, a symlink loop, permissions, too large)",
        triggering: [
            ["catalog.json": CatalogExample.catalogJSON, "tips": "a file where the tips directory should be"],
            ["catalog.json": CatalogExample.catalogJSON, "tips/A.json/B.json": "a directory named like a tip file"],
        ],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}

extension Diagnostic {
    /// `'Catalog/tips' must be a directory of tip files`.
    static func tipsNotADirectory(_ path: String) -> Diagnostic {
        Diagnostic("'\(path)' must be a directory of tip files", rule: .unreadableFile, at: SourceLocation(file: path, line: 1, column: 1))
    }

    /// `cannot read file: permission denied`, at the file.
    static func unreadableFile(_ path: String, reason: String) -> Diagnostic {
        Diagnostic("cannot read file: \(reason)", rule: .unreadableFile, at: SourceLocation(file: path, line: 1, column: 1))
    }
}
