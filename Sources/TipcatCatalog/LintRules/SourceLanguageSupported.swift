public import TipcatCore

extension DiagnosticRule {
    /// `supportedLocales` should list the source language.
    public static let sourceLanguageUnsupported = DiagnosticRule(
        "source-language-unsupported", .warning, stage: .lint,
        summary: "`supportedLocales` does not list the source language",
        triggering: [["catalog.json": """
                {"name": "x", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["fr"]}
                """]],
        nonTriggering: [["catalog.json": CatalogExample.catalogJSON]])
}

/// `supportedLocales` should list the source language.
struct SourceLanguageSupportedRule: CatalogLintRule {
    var readsTranslations: Bool { false }
    var description: DiagnosticRule { .sourceLanguageUnsupported }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        let settings = catalog.settings
        guard !settings.supportedLocales.contains(settings.sourceLanguage) else { return [] }
        return [Diagnostic("supportedLocales does not list the source language '\(settings.sourceLanguage)'",
                           rule: description, at: settings.location)]
    }
}
