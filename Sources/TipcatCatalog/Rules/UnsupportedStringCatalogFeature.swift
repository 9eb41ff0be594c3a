public import TipcatCore

extension DiagnosticRule {
    /// String Catalog features tipcat does not support: `substitutions` and device variations.
    public static let unsupportedStringCatalogFeature = DiagnosticRule(
        "unsupported-string-catalog-feature", .error, stage: .translations,
        summary: "`substitutions` or device variations",
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
    /// `the 'fr' translation of 'A.title' uses 'substitutions', which tipcat does not support; …`.
    static func unsupportedSubstitutions(in what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) uses 'substitutions', which tipcat does not support; write the plural inside the message with {name, plural, …}",
                   rule: .unsupportedStringCatalogFeature, at: location)
    }

    /// `the 'fr' translation of 'A.title' varies by device, which tipcat does not support`.
    static func unsupportedDeviceVariations(in what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) varies by device, which tipcat does not support", rule: .unsupportedStringCatalogFeature, at: location)
    }
}
