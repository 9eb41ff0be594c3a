public import TipcatCore
import TipcatLocalization

extension DiagnosticRule {
    /// A locale listed twice in `supportedLocales`.
    public static let duplicateLocale = DiagnosticRule(
        "duplicate-locale", .warning, stage: .catalog,
        summary: "a locale listed twice in `supportedLocales`",
        triggering: [
            ["catalog.json": ##"""
                {"name": "Example", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en", "fr",
                "fr"]}
                """##],
        ],
        nonTriggering: [
            ["catalog.json": ##"""
                {"name": "Example", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en",
                "fr"]}
                """##],
        ])
}

extension Diagnostic {
    /// `locale 'fr' is listed twice in 'supportedLocales'`.
    static func duplicateLocale(_ locale: LocaleID, at location: SourceLocation) -> Diagnostic {
        Diagnostic("locale '\(locale)' is listed twice in 'supportedLocales'", rule: .duplicateLocale, at: location)
    }
}
