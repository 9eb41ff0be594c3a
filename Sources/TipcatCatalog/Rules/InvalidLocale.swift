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
        ],
        nonTriggering: [
            ["catalog.json": ##"""
                {"name": "Example", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en",
                "fr-CA"]}
                """##],
        ])
}
