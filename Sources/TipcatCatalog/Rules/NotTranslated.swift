public import TipcatCore

extension DiagnosticRule {
    /// A translation that is not marked translated; the source text is shown instead.
    public static let notTranslated = DiagnosticRule(
        "not-translated", .warning, stage: .translations,
        summary: "a translation marked `new`, `needs_review` or `stale` (the source text is shown)",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##""A.title": {"localizations": {"fr": {"stringUnit": {"state": "needs_review", "value": "Une astuce"}}}}"##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##""A.title": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "Une astuce"}}}}"##)]),
        ])
}
