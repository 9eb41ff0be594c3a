public import TipcatCore

extension DiagnosticRule {
    /// A locale that is not a BCP 47 identifier.
    public static let invalidLocale = DiagnosticRule(
        "invalid-locale", .error, stage: .catalog,
        summary: "a locale identifier that is not BCP 47",
        triggering: [
            ["catalog.json": ##"""
                {"name": "Example", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en",
                "french!"]}
                """##],
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"not a locale": {"stringUnit": {"state": "translated",
                "value": "x"}}}}
                """##)]),
        ],
        nonTriggering: [
            ["catalog.json": ##"""
                {"name": "Example", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en",
                "fr-CA"]}
                """##],
        ])
}

extension Diagnostic {
    /// `'french!' is not a locale identifier; write …`.
    static func invalidLocale(_ text: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'\(text)' is not a locale identifier; write a language code with an optional script and region, such as 'fr', 'fr-CA' or 'zh-Hant'",
                   rule: .invalidLocale, at: location)
    }

    /// `'french!' is not a locale identifier (in string 'A.title')`: a String Catalog localization key.
    static func invalidLocale(_ text: String, inString key: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'\(text)' is not a locale identifier (in string '\(key)')", rule: .invalidLocale, at: location)
    }
}
