public import TipcatCore

extension DiagnosticRule {
    /// A bare name in a rule that is neither a tip parameter nor a field of the filtered event.
    public static let unknownName = DiagnosticRule(
        "unknown-name", .error, stage: .rules,
        summary: "a bare name that is neither a tip parameter nor an event field",
        triggering: [CatalogExample.rule("isLoggedIn")],
        nonTriggering: [CatalogExample.rule("$isLoggedIn")])
}

extension RuleDiagnostic {
    /// `unknown name 'isLoggedIn'; did you mean '$isLoggedIn'?` (`suggestion` follows the name).
    static func unknownName(_ name: String, suggestion: String, at range: Range<Int>) -> RuleDiagnostic {
        RuleDiagnostic("unknown name '\(name)'\(suggestion)", rule: .unknownName, range: range)
    }
}
