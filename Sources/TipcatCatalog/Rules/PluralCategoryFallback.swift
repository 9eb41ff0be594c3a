public import TipcatCore
import TipcatLocalization

extension DiagnosticRule {
    /// A plural lacks a category its language has; `other` is used for those numbers.
    public static let pluralCategoryFallback = DiagnosticRule(
        "plural-category-fallback", .warning, stage: .messages,
        summary: "a plural lacks a category its language has (`other` is used for those numbers)",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##"""
                "parameters": {"count": "int"}, "message": "{count, plural, other {# trails}}"
                """##)]),
            CatalogExample.catalog(tips: [], extra: [
                "tips/A.json": CatalogExample.tip("A", ##"""
                    "parameters": {"count": "int"}, "message": "{count, plural, one {# trail} other {# trails}}"
                    """##),
                "Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                    "A.message": {"localizations": {"pl": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated",
                    "value": "# szlak"}}, "other": {"stringUnit": {"state": "translated", "value": "# szlaku"}}}}}}}
                    """##),
            ]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##"""
                "parameters": {"count": "int"}, "message": "{count, plural, one {# trail} other {# trails}}"
                """##)]),
        ])
}

extension Diagnostic {
    /// `the plural of 'count' in the message of tip 'A' lacks 'one', which 'en' has; 'other' is used for those numbers`.
    static func pluralCategoryFallback(_ path: String, in what: String, missing: [String], locale: LocaleID, at location: SourceLocation) -> Diagnostic {
        Diagnostic("the plural of '\(path)' in \(what) lacks \(MessageChecker.list(missing)), which '\(locale)' has; 'other' is used for those numbers",
                   rule: .pluralCategoryFallback, at: location)
    }

    /// `the 'pl' translation of 'A.message' lacks the plural categories 'few' and 'many', which 'pl' has; …`.
    static func pluralVariationFallback(in what: String, missing: [String], locale: LocaleID, at location: SourceLocation?) -> Diagnostic {
        Diagnostic("\(what) lacks the plural \(missing.count == 1 ? "category" : "categories") \(MessageChecker.list(missing)), which '\(locale)' has; 'other' is used for those numbers",
                   rule: .pluralCategoryFallback, at: location)
    }
}
