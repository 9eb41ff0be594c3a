public import TipcatCore

extension DiagnosticRule {
    /// A rule that does not lex or parse.
    public static let ruleSyntax = DiagnosticRule(
        "rule-syntax", .error, stage: .rules,
        summary: "a rule that does not parse",
        triggering: [CatalogExample.rule("#opened-map.count >")],
        nonTriggering: [CatalogExample.rule("#opened-map.count > 3")])
}
