public import TipcatCore

extension DiagnosticRule {
    /// The String Catalog's source language is not the catalog's.
    public static let sourceLanguageMismatch = DiagnosticRule(
        "source-language-mismatch", .error, stage: .translations,
        summary: "the String Catalog's source language differs from catalog.json",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": ##"{"sourceLanguage": "fr", "version": "1.0", "strings": {}}"##]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": ##"{"sourceLanguage": "en", "version": "1.0", "strings": {}}"##]),
        ])
}
