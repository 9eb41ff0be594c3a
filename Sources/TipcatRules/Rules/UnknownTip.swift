public import TipcatCore

extension DiagnosticRule {
    /// A `tip(ID)` that names no tip of the catalog.
    public static let unknownTip = DiagnosticRule(
        "unknown-tip", .error, stage: .rules,
        summary: "`tip(ID)` names a tip that is not in the catalog",
        triggering: [CatalogExample.rule("tip(B).invalidated")],
        nonTriggering: [CatalogExample.rule("tip(A).invalidated")],
        snippets: [.simulation("displayed B")])
}

extension RuleDiagnostic {
    /// `unknown tip 'ShowLocatonTip'; did you mean 'ShowLocationTip'?` (`suggestion` follows the id).
    static func unknownTip(_ id: String, suggestion: String, at range: Range<Int>) -> RuleDiagnostic {
        RuleDiagnostic("unknown tip '\(id)'\(suggestion)", rule: .unknownTip, range: range)
    }
}
