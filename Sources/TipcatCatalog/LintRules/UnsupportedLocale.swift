public import TipcatCore
import TipcatLocalization

extension DiagnosticRule {
    /// A translation into a locale that `supportedLocales` does not list is never shown.
    public static let unsupportedLocale = DiagnosticRule(
        "unsupported-locale", .warning, stage: .lint,
        summary: "a translation into a locale that `supportedLocales` does not list",
        triggering: [CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": """
                {"sourceLanguage": "en", "version": "1.0", "strings": {"A.title": {"localizations": {
                  "de": {"stringUnit": {"state": "translated", "value": "Ein Tipp"}}}}}}
                """])],
        nonTriggering: [CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": """
                {"sourceLanguage": "en", "version": "1.0", "strings": {"A.title": {"localizations": {
                  "fr": {"stringUnit": {"state": "translated", "value": "Une astuce"}}}}}}
                """])])
}

/// A translation into a locale that `supportedLocales` does not list is never shown.
struct UnsupportedLocaleRule: CatalogLintRule {
    var description: DiagnosticRule { .unsupportedLocale }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        let supported = Set(catalog.settings.supportedLocales)
        // A catalog names the same dozen locales in every entry: each is looked up once, then compared.
        var known: [(locale: LocaleID, isSupported: Bool)] = []
        func isSupported(_ locale: LocaleID) -> Bool {
            if let seen = known.first(where: { $0.locale == locale }) { return seen.isSupported }
            let answer = supported.contains(locale)
            if known.count < 64 { known.append((locale, answer)) }
            return answer
        }
        var findings: [Diagnostic] = []
        // Entries list the same locales, one after another: an entry's unsupported ones are worked out again only
        // when its list differs from the entry before's.
        var lastLocales: [LocaleID] = []
        var lastUnsupported: [LocaleID] = []
        // No sorting here: the loader sorts all findings by location.
        // Locales first: a translation is read only when it is reported.
        // Entries read in place (tens of thousands; copying one retains each of its parts).
        let entries = catalog.localizations.entries
        var index = entries.startIndex
        while index != entries.endIndex {
            defer { entries.formIndex(after: &index) }
            let locales = entries.values[index].translationLocales
            if locales != lastLocales {
                lastUnsupported = locales.filter { !isSupported($0) }
                lastLocales = locales
            }
            for locale in lastUnsupported {
                findings.append(Diagnostic(
                    "'\(entries.keys[index])' is translated into '\(locale)', which is not in supportedLocales; add it there or remove the translation",
                    rule: description, at: entries.values[index].translations[locale]?.location))
            }
        }
        return findings
    }
}
