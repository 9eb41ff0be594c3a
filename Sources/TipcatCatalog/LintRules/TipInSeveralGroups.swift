public import TipcatCore

extension DiagnosticRule {
    /// A tip is listed by two groups, or twice by one (TipKit shows a tip through one group at most).
    public static let tipInSeveralGroups = DiagnosticRule(
        "tip-in-several-groups", .error, stage: .lint,
        summary: "a tip is in two groups, or twice in one",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["groups.json": """
                    {"groups": [{"id": "g", "priority": "ordered", "tips": ["A"]}, {"id": "h", "priority": "firstAvailable", "tips": ["A"]}]}
                    """]),
            CatalogExample.catalog(tips: ["A"], extra: ["groups.json": """
                    {"groups": [{"id": "g", "priority": "ordered", "tips": ["A", "A"]}]}
                    """]),
        ],
        nonTriggering: [CatalogExample.catalog(tips: ["A", "B"], extra: ["groups.json": """
                {"groups": [{"id": "g", "priority": "ordered", "tips": ["A"]}, {"id": "h", "priority": "firstAvailable", "tips": ["B"]}]}
                """])])
}

/// A tip is listed by two groups, or twice by one (TipKit shows a tip through one group at most).
struct TipInSeveralGroupsRule: CatalogLintRule {
    var readsTranslations: Bool { false }
    var description: DiagnosticRule { .tipInSeveralGroups }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        var owner: [TipID: (GroupID, SourceLocation?)] = [:]
        var findings: [Diagnostic] = []
        for group in catalog.groups {
            for (index, member) in group.tips.enumerated() {
                let location = (group.memberLocations[safe: index] ?? nil) ?? group.location
                if let (first, firstLocation) = owner[member] {
                    let message = first == group.id
                        ? "tip '\(member)' is listed twice in group '\(group.id)'"
                        : "tip '\(member)' is already in group '\(first)'; a tip belongs to one group at most"
                    findings.append(Diagnostic(message, rule: description, at: location,
                                               notes: [.init("first listed here", at: firstLocation)]))
                } else {
                    owner[member] = (group.id, location)
                }
            }
        }
        return findings
    }
}
