public import TipcatCore

extension DiagnosticRule {
    /// A translation that is not marked translated; the source text is shown instead.
    public static let notTranslated = DiagnosticRule(
        "not-translated", .warning, stage: .translations,
        summary: "a translation marked `new`, `needs_review` or `stale` (the source text is shown)",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"fr": {"stringUnit": {"state": "needs_review",
                "value": "Une astuce"}}}}
                """##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"fr": {"stringUnit": {"state": "translated",
                "value": "Une astuce"}}}}
                """##)]),
        ])
}

extension Diagnostic {
    /// `the 'fr' translation of 'A.title' is marked 'needs_review', so the source text is shown instead`.
    static func notTranslated(_ what: String, state: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) is marked '\(state)', so the source text is shown instead", rule: .notTranslated, at: location)
    }
}
