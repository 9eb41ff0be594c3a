public import TipcatCore
import TipcatLocalization

extension DiagnosticRule {
    /// A plural lacks a category its language needs.
    public static let missingPluralCategory = DiagnosticRule(
        "missing-plural-category", .error, stage: .messages,
        summary: "a plural lacks a category its language needs (or `other`)",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##"""
                "parameters": {"count": "int"}, "message": "{count, plural, other {# trails}}"
                """##)]),
            CatalogExample.catalog(tips: [], extra: [
                "tips/A.json": CatalogExample.tip("A", ##"""
                    "parameters": {"count": "int"}, "message": "{count, plural, one {# trail} other {# trails}}"
                    """##),
                "Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                    "A.message": {"localizations": {"fr": {"variations": {"plural": {"other": {"stringUnit": {"state": "translated",
                    "value": "# sentiers"}}}}}}}
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
    /// `the plural of 'count' in the message of tip 'A' lacks 'one', which 'en' needs`.
    static func missingPluralCategory(_ path: String, in what: String, missing: [String], locale: LocaleID, at location: SourceLocation) -> Diagnostic {
        Diagnostic("the plural of '\(path)' in \(what) lacks \(MessageChecker.list(missing)), which '\(locale)' needs",
                   rule: .missingPluralCategory, at: location)
    }

    /// `the 'fr' translation of 'A.title' lacks the plural category 'one', which 'fr' needs` (plural variations).
    static func missingPluralVariation(in what: String, missing: [String], locale: LocaleID, at location: SourceLocation?) -> Diagnostic {
        Diagnostic("\(what) lacks the plural \(missing.count == 1 ? "category" : "categories") \(MessageChecker.list(missing)), which '\(locale)' needs",
                   rule: .missingPluralCategory, at: location)
    }
}
