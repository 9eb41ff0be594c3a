public import TipcatCore

extension DiagnosticRule {
    /// lint.json: lint.json's rules tries to turn off or re-grade invalid-json or lint.json's own checks.
    public static let ruleNotConfigurable = DiagnosticRule(
        "rule-not-configurable", .error, stage: .catalog,
        summary: "`lint.json`'s `rules` tries to turn off or re-grade `invalid-json` or lint.json's own checks",
        triggering: [CatalogExample.catalog(tips: ["A"], extra: ["lint.json": ##"{"rules": {"invalid-json": "off"}}"##])],
        nonTriggering: [CatalogExample.catalog(tips: ["A"], extra: ["lint.json": ##"{"rules": {"file-name-mismatch": "error"}}"##])])
}
