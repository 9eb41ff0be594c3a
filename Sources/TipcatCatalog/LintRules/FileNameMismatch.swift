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
    var readsTranslations: Bool { false }
    var description: DiagnosticRule { .fileNameMismatch }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        catalog.tips.compactMap { tip in
            // The last path component, found by byte (paths are long, and `/` is never part of another character).
            let file = tip.file
            let name = file.utf8.lastIndex(of: UInt8(ascii: "/")).map { file[file.utf8.index(after: $0)...] } ?? Substring(file)
            guard !(name.hasSuffix(".json") && name.dropLast(5) == tip.id.rawValue) else { return nil }
            return Diagnostic("the file of tip '\(tip.id)' is named '\(name)'; name it '\(tip.id).json'",
                              rule: description, at: tip.location)
        }
    }
}
