public import TipcatCore

extension DiagnosticRule {
    /// A translation of a tip's text that uses a String Catalog feature tipcat reads but does not render yet
    /// (`substitutions` without a value that uses them as `%#@name@`): the source text is shown for that locale.
    /// Device variations are rendered (`render --device`) and do not trigger it.
    public static let unsupportedStringCatalogFeature = DiagnosticRule(
        "unsupported-string-catalog-feature", .warning, stage: .translations,
        summary: "a tip's translation has `substitutions` its value does not use, which is not rendered (the source text is shown)",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"fr": {"stringUnit": {"state": "translated",
                "value": "Une astuce"}, "substitutions": {}}}}
                """##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"fr": {"stringUnit": {"state": "translated",
                "value": "Une astuce"}}}}
                """##)]),
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"fr": {"variations": {"device": {"mac": {"stringUnit": {"state": "translated",
                "value": "Une astuce"}}}}}}}
                """##)]),
        ])
}

extension Diagnostic {
    /// `the 'fr' translation of 'A.title' has 'substitutions' tipcat does not render yet; …`.
    static func unsupportedSubstitutions(in what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) has 'substitutions' tipcat does not render yet (only a stringUnit whose value uses them as %#@name@); "
                   + "the source text is shown for this locale",
                   rule: .unsupportedStringCatalogFeature, at: location)
    }
}
