public import TipcatCore

extension DiagnosticRule {
    /// A rule or condition that can never be true.
    public static let alwaysFalse = DiagnosticRule(
        "always-false", .warning, stage: .rules,
        summary: "a rule or condition that is always false",
        triggering: [
            CatalogExample.rule("false"),
            CatalogExample.rule("#opened-map.count < 0"),
        ],
        nonTriggering: [CatalogExample.rule("#opened-map.count > 0")])
}
