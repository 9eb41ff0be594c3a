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
        // A decoded String Catalog's entries say whether a tip names their key (`isNamedByTip`): only the others
        // are looked up in the set of the tips' keys, made only then. Entries are read in place (tens of
        // thousands; copying one retains each of its parts), and one is looked at whole only when it is reported.
        let entries = catalog.localizations.entries
        var unnamed: [String] = []
        var unknown: [String] = []
        var index = entries.startIndex
        while index != entries.endIndex {
            switch entries.values[index].isNamedByTip {
            case true?: break
            case false?: unnamed.append(entries.keys[index])
            case nil: unknown.append(entries.keys[index])
            }
            entries.formIndex(after: &index)
        }
        var tipKeys: Set<String>?
        func keys() -> Set<String> {
            if let tipKeys { return tipKeys }
            var keys = Set<String>(minimumCapacity: catalog.tips.count * 3)
            for tip in catalog.tips { tip.forEachLocalizableKey { keys.insert($0) } }
            tipKeys = keys
            return keys
        }
        if !unknown.isEmpty {
            let named = keys()
            unnamed += unknown.filter { !named.contains($0) }
        }
        guard !unnamed.isEmpty else { return [] }
        let tipIDs = Set(catalog.tips.map(\.id.rawValue))
        return unnamed.compactMap { key in
            guard Self.isTipShaped(key, tipIDs: tipIDs) else { return nil }
            return Diagnostic("'\(key)' matches no tip text" + Suggestions.didYouMean(key, in: keys()),
                              rule: description, at: entries[key]?.location)
        }
    }

    /// `TipID.anything` for a tip of the catalog (tip ids may contain dots), else a key shaped like a tip
    /// text: `<tip id>.title`, `<tip id>.message`, `<tip id>.action.<kebab-id>` (platform texts,
    /// `Tip.mac.title`, have the same shape).
    static func isTipShaped(_ key: String, tipIDs: Set<String>) -> Bool {
        if IdentifierSyntax.startsWithDottedPrefix(key, in: tipIDs) { return true }
        for suffix in [".title", ".message"] where key.hasSuffix(suffix) {
            return IdentifierSyntax.isTipIdentifier(String(key.dropLast(suffix.count)))
        }
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[parts.count - 2] == "action" else { return false }
        return IdentifierSyntax.isTipIdentifier(parts.dropLast(2).joined(separator: "."))
            && IdentifierSyntax.isKebabIdentifier(String(parts[parts.count - 1]))
    }
}
