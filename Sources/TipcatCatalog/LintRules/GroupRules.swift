import TipcatCore

/// Two groups share an id.
struct DuplicateGroupRule: CatalogLintRule {
    var description: LintRuleDescription {
        LintRuleDescription(
            id: "duplicate-group-id", summary: "Every group id is unique.", severity: .error,
            triggeringExamples: [LintExample.catalog(tips: ["A", "B"], extra: ["groups.json": """
                {"groups": [{"id": "g", "priority": "ordered", "tips": ["A"]}, {"id": "g", "priority": "ordered", "tips": ["B"]}]}
                """])],
            nonTriggeringExamples: [LintExample.catalog(tips: ["A", "B"], extra: ["groups.json": """
                {"groups": [{"id": "g", "priority": "ordered", "tips": ["A"]}, {"id": "h", "priority": "ordered", "tips": ["B"]}]}
                """])])
    }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        var seen: [GroupID: TipGroup] = [:]
        var findings: [Diagnostic] = []
        for group in catalog.groups {
            if let first = seen[group.id] {
                findings.append(.error("group '\(group.id)' is declared twice", rule: description.id, at: group.location,
                                       notes: [.init("first declared here", at: first.location)]))
            } else {
                seen[group.id] = group
            }
        }
        return findings
    }
}

/// A group lists a tip that does not exist.
struct UnknownGroupMemberRule: CatalogLintRule {
    var description: LintRuleDescription {
        LintRuleDescription(
            id: "unknown-group-member", summary: "Every tip a group lists exists in the catalog.", severity: .error,
            triggeringExamples: [LintExample.catalog(tips: ["ShowLocationTip"], extra: ["groups.json": """
                {"groups": [{"id": "compass", "priority": "ordered", "tips": ["ShowLocationTip", "RotateMapTp"]}]}
                """])],
            nonTriggeringExamples: [LintExample.catalog(tips: ["ShowLocationTip", "RotateMapTip"], extra: ["groups.json": """
                {"groups": [{"id": "compass", "priority": "ordered", "tips": ["ShowLocationTip", "RotateMapTip"]}]}
                """])])
    }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        let ids = Set(catalog.tips.map(\.id))
        var findings: [Diagnostic] = []
        for group in catalog.groups {
            for (index, member) in group.tips.enumerated() where !ids.contains(member) {
                findings.append(.error(
                    "group '\(group.id)' lists '\(member)', which is not a tip in this catalog"
                        + Suggestions.didYouMean(member.rawValue, in: ids.map(\.rawValue)),
                    rule: description.id, at: (group.memberLocations[safe: index] ?? nil) ?? group.location))
            }
        }
        return findings
    }
}

/// A tip is listed by two groups, or twice by one (TipKit shows a tip through one group at most).
struct TipInSeveralGroupsRule: CatalogLintRule {
    var description: LintRuleDescription {
        LintRuleDescription(
            id: "tip-in-several-groups", summary: "A tip belongs to at most one group, once.", severity: .error,
            triggeringExamples: [
                LintExample.catalog(tips: ["A"], extra: ["groups.json": """
                    {"groups": [{"id": "g", "priority": "ordered", "tips": ["A"]}, {"id": "h", "priority": "firstAvailable", "tips": ["A"]}]}
                    """]),
                LintExample.catalog(tips: ["A"], extra: ["groups.json": """
                    {"groups": [{"id": "g", "priority": "ordered", "tips": ["A", "A"]}]}
                    """]),
            ],
            nonTriggeringExamples: [LintExample.catalog(tips: ["A", "B"], extra: ["groups.json": """
                {"groups": [{"id": "g", "priority": "ordered", "tips": ["A"]}, {"id": "h", "priority": "firstAvailable", "tips": ["B"]}]}
                """])])
    }

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
                    findings.append(.error(message, rule: description.id, at: location,
                                           notes: [.init("first listed here", at: firstLocation)]))
                } else {
                    owner[member] = (group.id, location)
                }
            }
        }
        return findings
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
