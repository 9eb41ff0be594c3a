public import TipcatCore

extension DiagnosticRule {
    /// `tips/Foo.json` declares tip `Bar`: people find tips by file name.
    public static let fileNameMismatch = DiagnosticRule(
        "file-name-mismatch", .warning, stage: .lint,
        summary: "a tip's file is not named after its id",
        triggering: [CatalogExample.catalog(tips: [], extra: ["tips/Old.json": CatalogExample.tip("New")])],
        nonTriggering: [CatalogExample.catalog(tips: ["New"])])
}

/// `tips/Foo.json` declares tip `Bar`: people find tips by file name.
struct FileNameMismatchRule: CatalogLintRule {
    var description: DiagnosticRule { .fileNameMismatch }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        catalog.tips.compactMap { tip in
            let name = tip.file.split(separator: "/").last.map(String.init) ?? tip.file
            guard name != "\(tip.id).json" else { return nil }
            return Diagnostic("the file of tip '\(tip.id)' is named '\(name)'; name it '\(tip.id).json'",
                              rule: description, at: tip.location)
        }
    }
}
