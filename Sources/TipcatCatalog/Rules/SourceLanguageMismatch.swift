public import TipcatCore
import TipcatLocalization

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

extension Diagnostic {
    /// `the String Catalog's source language is 'fr' but catalog.json says 'en'`.
    static func sourceLanguageMismatch(_ language: String, catalog: LocaleID, at location: SourceLocation) -> Diagnostic {
        Diagnostic("the String Catalog's source language is '\(language)' but catalog.json says '\(catalog)'",
                   rule: .sourceLanguageMismatch, at: location)
    }
}
