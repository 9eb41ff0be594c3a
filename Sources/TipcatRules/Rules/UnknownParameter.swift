public import TipcatCore

extension DiagnosticRule {
    /// A parameter that is not declared: in a rule, an example or a simulation script.
    public static let unknownParameter = DiagnosticRule(
        "unknown-parameter", .error, stage: .rules,
        summary: "an app or tip parameter that is not declared (did-you-mean)",
        triggering: [CatalogExample.rule("$isLogedIn")],
        nonTriggering: [CatalogExample.rule("$isLoggedIn")],
        snippets: [.simulation("set isLogedIn=true")])
}

extension RuleDiagnostic {
    /// `unknown parameter '$isLogedIn'; did you mean '$isLoggedIn'?` in a rule (`suggestion` follows the name).
    static func unknownParameter(_ name: String, suggestion: String, at range: Range<Int>) -> RuleDiagnostic {
        RuleDiagnostic("unknown parameter '$\(name)'\(suggestion)", rule: .unknownParameter, range: range)
    }
}
