import TipcatCore

/// Two tip files declare the same id.
struct DuplicateTipIDRule: CatalogLintRule {
    var description: LintRuleDescription {
        LintRuleDescription(
            id: "duplicate-tip-id", summary: "Every tip id is unique across the catalog.", severity: .error,
            triggeringExamples: [LintExample.catalog(tips: ["A"], extra: ["tips/B.json": LintExample.tip("A")])],
            nonTriggeringExamples: [LintExample.catalog(tips: ["A", "B"])])
    }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        var first: [TipID: Tip] = [:]
        var findings: [Diagnostic] = []
        for tip in catalog.tips {
            if let original = first[tip.id] {
                findings.append(.error("tip id '\(tip.id)' is already used by \(original.file)", rule: description.id,
                                       at: tip.location, notes: [.init("first declared here", at: original.location)]))
            } else {
                first[tip.id] = tip
            }
        }
        return findings
    }
}
