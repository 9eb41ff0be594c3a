public import TipcatCore

extension DiagnosticRule {
    /// A String Catalog key that matches no tip text (a renamed or deleted tip, or a typo).
    public static let orphanTranslation = DiagnosticRule(
        "orphan-translation", .warning, stage: .lint,
        summary: "a String Catalog key that matches no tip text",
        triggering: [CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": """
                {"sourceLanguage": "en", "version": "1.0", "strings": {"A.titel": {"localizations": {
                  "fr": {"stringUnit": {"state": "translated", "value": "Une astuce"}}}}}}
                """])],
        nonTriggering: [CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": """
                {"sourceLanguage": "en", "version": "1.0", "strings": {"A.title": {"localizations": {
                  "fr": {"stringUnit": {"state": "translated", "value": "Une astuce"}}}}}}
                """])])
}

/// A String Catalog key that matches no tip text (a renamed or deleted tip, or a typo).
struct OrphanTranslationRule: CatalogLintRule {
    var description: DiagnosticRule { .orphanTranslation }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        let keys = Set(catalog.tips.flatMap { $0.localizableTexts.map(\.key) })
        return catalog.localizations.entries.compactMap { key, entry in
            guard !keys.contains(key) else { return nil }
            return Diagnostic("'\(key)' matches no tip text" + Suggestions.didYouMean(key, in: keys),
                              rule: description, at: entry.location)
        }
    }
}
