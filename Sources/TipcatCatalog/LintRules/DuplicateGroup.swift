public import TipcatCore

extension DiagnosticRule {
    /// Two groups share an id.
    public static let duplicateGroupID = DiagnosticRule(
        "duplicate-group-id", .error, stage: .lint,
        summary: "two groups share an id",
        triggering: [CatalogExample.catalog(tips: ["A", "B"], extra: ["groups.json": """
                {"groups": [{"id": "g", "priority": "ordered", "tips": ["A"]}, {"id": "g", "priority": "ordered", "tips": ["B"]}]}
                """])],
        nonTriggering: [CatalogExample.catalog(tips: ["A", "B"], extra: ["groups.json": """
                {"groups": [{"id": "g", "priority": "ordered", "tips": ["A"]}, {"id": "h", "priority": "ordered", "tips": ["B"]}]}
                """])])
}

/// Two groups share an id.
struct DuplicateGroupRule: CatalogLintRule {
    var readsTranslations: Bool { false }
    var description: DiagnosticRule { .duplicateGroupID }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        var seen: [GroupID: TipGroup] = [:]
        var findings: [Diagnostic] = []
        for group in catalog.groups {
            if let first = seen[group.id] {
                findings.append(Diagnostic("group '\(group.id)' is declared twice", rule: description, at: group.location,
                                           notes: [.init("first declared here", at: first.location)]))
            } else {
                seen[group.id] = group
            }
        }
        return findings
    }
}
