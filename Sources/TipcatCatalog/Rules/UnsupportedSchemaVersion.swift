public import TipcatCore

extension DiagnosticRule {
    /// `schemaVersion` is not one this tipcat reads.
    public static let unsupportedSchemaVersion = DiagnosticRule(
        "unsupported-schema-version", .error, stage: .catalog,
        summary: "`schemaVersion` other than 1",
        triggering: [
            ["catalog.json": ##"{"name": "Example", "schemaVersion": 2, "sourceLanguage": "en", "supportedLocales": ["en"]}"##],
        ],
        nonTriggering: [
            ["catalog.json": ##"{"name": "Example", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en"]}"##],
        ])
}
