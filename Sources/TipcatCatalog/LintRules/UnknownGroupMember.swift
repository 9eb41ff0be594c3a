public import TipcatCore

extension DiagnosticRule {
    /// A group lists a tip that does not exist.
    public static let unknownGroupMember = DiagnosticRule(
        "unknown-group-member", .error, stage: .lint,
        summary: "a group lists a tip that is not in the catalog",
        triggering: [CatalogExample.catalog(tips: ["ShowLocationTip"], extra: ["groups.json": """
                {"groups": [{"id": "compass", "priority": "ordered", "tips": ["ShowLocationTip", "RotateMapTp"]}]}
                """])],
        nonTriggering: [CatalogExample.catalog(tips: ["ShowLocationTip", "RotateMapTip"], extra: ["groups.json": """
                {"groups": [{"id": "compass", "priority": "ordered", "tips": ["ShowLocationTip", "RotateMapTip"]}]}
                """])])
}

/// A group lists a tip that does not exist.
struct UnknownGroupMemberRule: CatalogLintRule {
    var readsTranslations: Bool { false }
    var description: DiagnosticRule { .unknownGroupMember }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        let ids = Set(catalog.tips.map(\.id))
        var findings: [Diagnostic] = []
        for group in catalog.groups {
            for (index, member) in group.tips.enumerated() where !ids.contains(member) {
                findings.append(Diagnostic(
                    "group '\(group.id)' lists '\(member)', which is not a tip in this catalog"
                        + Suggestions.didYouMean(member.rawValue, in: ids.map(\.rawValue)),
                    rule: description, at: (group.memberLocations[safe: index] ?? nil) ?? group.location))
            }
        }
        return findings
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
