public import TipcatCore

extension DiagnosticRule {
    /// A translation whose value is empty; the source text is shown instead.
    public static let emptyTranslation = DiagnosticRule(
        "empty-translation", .warning, stage: .translations,
        summary: "a translation with an empty value (the source text is shown)",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": ""}}}}
                """##)]),
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"fr": {"stringUnit": {"value": " "}}}}
                """##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"fr": {"stringUnit": {"value": "Une astuce"}}}}
                """##)]),
        ])
}

extension Diagnostic {
    /// `the 'fr' translation of 'A.title' is empty, so the source text is shown instead`.
    static func emptyTranslation(_ what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) is empty, so the source text is shown instead", rule: .emptyTranslation, at: location)
    }
}
