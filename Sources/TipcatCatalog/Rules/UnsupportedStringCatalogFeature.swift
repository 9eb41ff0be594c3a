public import TipcatCore

extension DiagnosticRule {
    /// A translation of a tip's text that uses a String Catalog feature tipcat reads but does not render yet
    /// (device variations, and `substitutions` under them or beside a value without `%#@name@`): the source text
    /// is shown for that locale.
    public static let unsupportedStringCatalogFeature = DiagnosticRule(
        "unsupported-string-catalog-feature", .warning, stage: .translations,
        summary: "a tip's translation varies by device (or has `substitutions` its value does not use), which is not rendered yet (the source text is shown)",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"fr": {"stringUnit": {"state": "translated",
                "value": "Une astuce"}, "substitutions": {}}}}
                """##)]),
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"fr": {"variations": {"device": {}}}}}
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
    /// `the 'fr' translation of 'A.title' has 'substitutions' tipcat does not render yet; …`.
    static func unsupportedSubstitutions(in what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) has 'substitutions' tipcat does not render yet (only a stringUnit whose value uses them as %#@name@); "
                   + "the source text is shown for this locale",
                   rule: .unsupportedStringCatalogFeature, at: location)
    }

    /// `the 'fr' translation of 'A.title' varies by device, which tipcat does not render yet; …`.
    static func unsupportedDeviceVariations(in what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) varies by device, which tipcat does not render yet; the source text is shown for this locale",
                   rule: .unsupportedStringCatalogFeature, at: location)
    }
}
