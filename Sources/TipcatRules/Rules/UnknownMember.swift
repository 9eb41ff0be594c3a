public import TipcatCore

extension DiagnosticRule {
    /// A member the value does not have.
    public static let unknownMember = DiagnosticRule(
        "unknown-member", .error, stage: .rules,
        summary: "a member such as `.count` that the value does not have",
        triggering: [CatalogExample.rule("#opened-map.cnt > 3")],
        nonTriggering: [CatalogExample.rule("#opened-map.count > 3")])
}
