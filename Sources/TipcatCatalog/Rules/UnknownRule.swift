public import TipcatCore

extension DiagnosticRule {
    /// lint.json: lint.json's rules names an id no check reports (with did-you-mean).
    public static let unknownRule = DiagnosticRule(
        "unknown-rule", .warning, stage: .catalog,
        summary: "`lint.json`'s `rules` names an id no check reports (with did-you-mean)",
        triggering: [CatalogExample.catalog(tips: ["A"], extra: ["lint.json": ##"{"rules": {"orphan-translaton": "off"}}"##])],
        nonTriggering: [CatalogExample.catalog(tips: ["A"], extra: ["lint.json": ##"{"rules": {"orphan-translation": "off"}}"##])])
}
