public import TipcatCore

extension DiagnosticRule {
    /// lint.json: two content rules share an id, or one takes the id of a built-in check.
    public static let duplicateRuleID = DiagnosticRule(
        "duplicate-rule-id", .error, stage: .catalog,
        summary: "two content rules share an id, or one takes the id of a built-in check",
        triggering: [CatalogExample.catalog(tips: ["A"], extra: ["lint.json": ##"{"content": [{"id": "r", "kind": "existence", "tokens": ["x"]}, {"id": "r", "kind": "existence", "tokens": ["y"]}]}"##])],
        nonTriggering: [CatalogExample.catalog(tips: ["A"], extra: ["lint.json": ##"{"content": [{"id": "r", "kind": "existence", "tokens": ["x"]}, {"id": "s", "kind": "existence", "tokens": ["y"]}]}"##])])
}
