public import TipcatCore

extension DiagnosticRule {
    /// A value of the wrong type: a default, an example value, a placeholder or a rule operand.
    public static let typeMismatch = DiagnosticRule(
        "type-mismatch", .error, stage: .rules,
        summary: "a value of the wrong type: parameter defaults and examples, placeholders, rule operands",
        triggering: [
            CatalogExample.rule("#opened-map.count"),
            CatalogExample.catalog(tips: ["A"], extra: ["parameters.json": ##"""
                {"parameters": [{"name": "isLoggedIn", "type": "bool", "default": "no"}]}
                """##]),
        ],
        nonTriggering: [CatalogExample.rule("#opened-map.count > 3")])
}
