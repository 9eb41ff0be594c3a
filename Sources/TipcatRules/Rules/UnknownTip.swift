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
