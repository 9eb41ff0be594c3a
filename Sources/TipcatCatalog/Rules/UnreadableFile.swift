public import TipcatCore

extension DiagnosticRule {
    /// A file or directory cannot be read as what it should be.
    public static let unreadableFile = DiagnosticRule(
        "unreadable-file", .error, stage: .catalog,
        summary: "a file cannot be read (missing, a directory, a symlink loop, permissions, too large)",
        triggering: [
            ["catalog.json": CatalogExample.catalogJSON, "tips": "a file where the tips directory should be"],
            ["catalog.json": CatalogExample.catalogJSON, "tips/A.json/B.json": "a directory named like a tip file"],
        ],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}
