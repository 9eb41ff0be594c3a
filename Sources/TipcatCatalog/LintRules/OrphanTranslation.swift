public import TipcatCore

extension DiagnosticRule {
    /// A String Catalog key shaped like a tip's (`Tip.title`, `Tip.message`, `Tip.action.id`, or starting with a
    /// tip's id) that matches no tip text: a renamed or deleted tip, or a typo. Other keys belong to the app.
    public static let orphanTranslation = DiagnosticRule(
        "orphan-translation", .warning, stage: .lint,
        summary: "a String Catalog key shaped like a tip's (`Tip.title`, …) that matches no tip text",
        triggering: [CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": """
                {"sourceLanguage": "en", "version": "1.0", "strings": {"A.titel": {"localizations": {
                  "fr": {"stringUnit": {"state": "translated", "value": "Une astuce"}}}}}}
                """])],
        nonTriggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": """
                {"sourceLanguage": "en", "version": "1.0", "strings": {"A.title": {"localizations": {
                  "fr": {"stringUnit": {"state": "translated", "value": "Une astuce"}}}}}}
                """]),
            // The app's own strings, whatever they hold.
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": """
                {"sourceLanguage": "en", "version": "1.2", "strings": {"Settings": {"shouldTranslate": false},
                  "%lld trails": {"localizations": {"fr": {"stringUnit": {"state": "new", "value": "%#@trails@"},
                    "substitutions": {"trails": {"argNum": 1, "formatSpecifier": "lld", "variations": {}}}}}}}}
                """]),
        ])
}

/// A String Catalog key shaped like a tip's that matches no tip text (a renamed or deleted tip, or a typo).
/// Keys of another shape (`Settings`, `%lld trails nearby`) are the app's own strings: never reported.
struct OrphanTranslationRule: CatalogLintRule {
    var description: DiagnosticRule { .orphanTranslation }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        let keys = Set(catalog.tips.flatMap { $0.localizableTexts.map(\.key) })
        let tipIDs = Set(catalog.tips.map(\.id.rawValue))
        return catalog.localizations.entries.compactMap { key, entry in
            guard !keys.contains(key), Self.isTipShaped(key, tipIDs: tipIDs) else { return nil }
            return Diagnostic("'\(key)' matches no tip text" + Suggestions.didYouMean(key, in: keys),
                              rule: description, at: entry.location)
        }
    }

    /// `Identifier.title`, `Identifier.message`, `Identifier.action.kebab-id`, or `TipID.anything`.
    static func isTipShaped(_ key: String, tipIDs: Set<String>) -> Bool {
        let parts = key.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2 else { return false }
        if tipIDs.contains(parts[0]) { return true }
        guard IdentifierSyntax.isIdentifier(parts[0]) else { return false }
        switch parts[1] {
        case "title", "message": return parts.count == 2
        case "action": return parts.count == 3 && IdentifierSyntax.isKebabIdentifier(parts[2])
        default: return false
        }
    }
}
