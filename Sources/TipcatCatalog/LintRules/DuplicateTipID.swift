public import TipcatCore

extension DiagnosticRule {
    /// Two tip files declare the same id.
    public static let duplicateTipID = DiagnosticRule(
        "duplicate-tip-id", .error, stage: .lint,
        summary: "two tip files declare the same id",
        triggering: [CatalogExample.catalog(tips: ["A"], extra: ["tips/B.json": CatalogExample.tip("A")])],
        nonTriggering: [CatalogExample.catalog(tips: ["A", "B"])])
}

/// Two tip files declare the same id.
struct DuplicateTipIDRule: CatalogLintRule {
    var readsTranslations: Bool { false }
    var description: DiagnosticRule { .duplicateTipID }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        var first: [TipID: Tip] = [:]
        var findings: [Diagnostic] = []
        for tip in catalog.tips {
            if let original = first[tip.id] {
                findings.append(Diagnostic("tip id '\(tip.id)' is already used by \(original.file)", rule: description,
                                           at: tip.location, notes: [.init("first declared here", at: original.location)]))
            } else {
                first[tip.id] = tip
            }
        }
        return findings
    }
}
