public import TipcatCore

extension DiagnosticRule {
    /// A rule or condition that can never be false.
    public static let alwaysTrue = DiagnosticRule(
        "always-true", .warning, stage: .rules,
        summary: "a rule or condition that is always true",
        triggering: [
            CatalogExample.rule("true"),
            CatalogExample.rule("#opened-map.count >= 0"),
        ],
        nonTriggering: [CatalogExample.rule("#opened-map.count > 0")])
}
