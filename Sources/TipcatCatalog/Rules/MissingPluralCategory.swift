public import TipcatCore
import TipcatLocalization

extension DiagnosticRule {
    /// A plural lacks `other`, which every language needs (a missing other category falls back to `other`:
    /// `plural-category-fallback`).
    public static let missingPluralCategory = DiagnosticRule(
        "missing-plural-category", .error, stage: .messages,
        summary: "a plural variation lacks `other` (the source text is shown)",
        triggering: [
            CatalogExample.catalog(tips: [], extra: [
                "tips/A.json": CatalogExample.tip("A", ##"""
                    "parameters": {"count": "int"}, "message": "{count, plural, one {# trail} other {# trails}}"
                    """##),
                "Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                    "A.message": {"localizations": {"fr": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated",
                    "value": "# sentier"}}}}}}}
                    """##),
            ]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: [
                "tips/A.json": CatalogExample.tip("A", ##"""
                    "parameters": {"count": "int"}, "message": "{count, plural, one {# trail} other {# trails}}"
                    """##),
                "Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                    "A.message": {"localizations": {"fr": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated",
                    "value": "# sentier"}}, "many": {"stringUnit": {"state": "translated", "value": "# de sentiers"}},
                    "other": {"stringUnit": {"state": "translated", "value": "# sentiers"}}}}}}}
                    """##),
            ]),
        ])
}

extension Diagnostic {
    /// `the plural of 'count' in the message of tip 'A' lacks 'other', which 'en' needs`.
    static func missingPluralCategory(_ path: String, in what: String, missing: [String], locale: LocaleID, at location: SourceLocation) -> Diagnostic {
        Diagnostic("the plural of '\(path)' in \(what) lacks \(MessageChecker.list(missing)), which '\(locale)' needs",
                   rule: .missingPluralCategory, at: location)
    }

    /// `the 'fr' translation of 'A.message' lacks the plural category 'other', which 'fr' needs` (plural variations).
    static func missingPluralVariation(in what: String, missing: [String], locale: LocaleID, at location: SourceLocation?) -> Diagnostic {
        Diagnostic("\(what) lacks the plural \(missing.count == 1 ? "category" : "categories") \(MessageChecker.list(missing)), which '\(locale)' needs",
                   rule: .missingPluralCategory, at: location)
    }
}
