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

extension Diagnostic {
    /// `schema version 2 is not supported; this tipcat reads schema version 1`.
    static func unsupportedSchemaVersion(_ version: Int, supported: Int, at location: SourceLocation) -> Diagnostic {
        Diagnostic("schema version \(version) is not supported; this tipcat reads schema version \(supported)",
                   rule: .unsupportedSchemaVersion, at: location)
    }
}
