import TipcatCore

/// `tips/Foo.json` declares tip `Bar`: people find tips by file name.
struct FileNameMismatchRule: CatalogLintRule {
    var description: LintRuleDescription {
        LintRuleDescription(
            id: "file-name-mismatch", summary: "A tip's file is named after its id.", severity: .warning,
            triggeringExamples: [LintExample.catalog(tips: [], extra: ["tips/Old.json": LintExample.tip("New")])],
            nonTriggeringExamples: [LintExample.catalog(tips: ["New"])])
    }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        catalog.tips.compactMap { tip in
            let name = tip.file.split(separator: "/").last.map(String.init) ?? tip.file
            guard name != "\(tip.id).json" else { return nil }
            return .warning("the file of tip '\(tip.id)' is named '\(name)'; name it '\(tip.id).json'",
                            rule: description.id, at: tip.location)
        }
    }
}

/// `supportedLocales` should list the source language.
struct SourceLanguageSupportedRule: CatalogLintRule {
    var description: LintRuleDescription {
        LintRuleDescription(
            id: "source-language-unsupported", summary: "supportedLocales lists the source language.", severity: .warning,
            triggeringExamples: [["catalog.json": """
                {"name": "x", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["fr"]}
                """]],
            nonTriggeringExamples: [["catalog.json": LintExample.catalogJSON]])
    }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        let settings = catalog.settings
        guard !settings.supportedLocales.contains(settings.sourceLanguage) else { return [] }
        return [.warning("supportedLocales does not list the source language '\(settings.sourceLanguage)'",
                         rule: description.id, at: settings.location)]
    }
}

/// A translation into a locale that `supportedLocales` does not list is never shown.
struct UnsupportedLocaleRule: CatalogLintRule {
    var description: LintRuleDescription {
        LintRuleDescription(
            id: "unsupported-locale", summary: "Translations are only for supported locales.", severity: .warning,
            triggeringExamples: [LintExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": """
                {"sourceLanguage": "en", "version": "1.0", "strings": {"A.title": {"localizations": {
                  "de": {"stringUnit": {"state": "translated", "value": "Ein Tipp"}}}}}}
                """])],
            nonTriggeringExamples: [LintExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": """
                {"sourceLanguage": "en", "version": "1.0", "strings": {"A.title": {"localizations": {
                  "fr": {"stringUnit": {"state": "translated", "value": "Une astuce"}}}}}}
                """])])
    }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        let supported = Set(catalog.settings.supportedLocales)
        var findings: [Diagnostic] = []
        // No sorting here: the loader sorts all findings by location.
        for (key, entry) in catalog.localizations.entries {
            for (locale, translation) in entry.translations where !supported.contains(locale) {
                findings.append(.warning(
                    "'\(key)' is translated into '\(locale)', which is not in supportedLocales; add it there or remove the translation",
                    rule: description.id, at: translation.location))
            }
        }
        return findings
    }
}

/// A String Catalog key that matches no tip text (a renamed or deleted tip, or a typo).
struct OrphanTranslationRule: CatalogLintRule {
    var description: LintRuleDescription {
        LintRuleDescription(
            id: "orphan-translation", summary: "Every String Catalog key belongs to a tip text.", severity: .warning,
            triggeringExamples: [LintExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": """
                {"sourceLanguage": "en", "version": "1.0", "strings": {"A.titel": {"localizations": {
                  "fr": {"stringUnit": {"state": "translated", "value": "Une astuce"}}}}}}
                """])],
            nonTriggeringExamples: [LintExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": """
                {"sourceLanguage": "en", "version": "1.0", "strings": {"A.title": {"localizations": {
                  "fr": {"stringUnit": {"state": "translated", "value": "Une astuce"}}}}}}
                """])])
    }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        let keys = Set(catalog.tips.flatMap { $0.localizableTexts.map(\.key) })
        return catalog.localizations.entries.compactMap { key, entry in
            guard !keys.contains(key) else { return nil }
            return .warning("'\(key)' matches no tip text" + Suggestions.didYouMean(key, in: keys),
                            rule: description.id, at: entry.location)
        }
    }
}
