public import TipcatCore

extension DiagnosticRule {
    /// A translation of a tip's text that uses a String Catalog feature tipcat reads but does not render yet
    /// (`substitutions`, device variations): the source text is shown for that locale.
    public static let unsupportedStringCatalogFeature = DiagnosticRule(
        "unsupported-string-catalog-feature", .warning, stage: .translations,
        summary: "a tip's translation uses `substitutions` or device variations, which are not rendered yet (the source text is shown)",
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
    /// `the 'fr' translation of 'A.title' uses 'substitutions', which tipcat does not render yet; …`.
    static func unsupportedSubstitutions(in what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) uses 'substitutions', which tipcat does not render yet; the source text is shown for this locale "
                   + "(write the plural inside the message with {name, plural, …} or as plural variations)",
                   rule: .unsupportedStringCatalogFeature, at: location)
    }

    /// `the 'fr' translation of 'A.title' varies by device, which tipcat does not render yet; …`.
    static func unsupportedDeviceVariations(in what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) varies by device, which tipcat does not render yet; the source text is shown for this locale",
                   rule: .unsupportedStringCatalogFeature, at: location)
    }
}
