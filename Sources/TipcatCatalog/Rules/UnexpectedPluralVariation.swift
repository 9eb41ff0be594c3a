public import TipcatCore

extension DiagnosticRule {
    /// Plural variations for a text that does not have exactly one plural.
    public static let unexpectedPluralVariation = DiagnosticRule(
        "unexpected-plural-variation", .error, stage: .translations,
        summary: "plural variations for a text without exactly one plural",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"fr": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated",
                "value": "Une astuce"}}, "other": {"stringUnit": {"state": "translated",
                "value": "Des astuces"}}}}}}}
                """##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"fr": {"stringUnit": {"state": "translated",
                "value": "Une astuce"}}}}
                """##)]),
        ])
}

extension Diagnostic {
    /// `… has plural variations, but the source text has 0 plural arguments; …`.
    static func unexpectedPluralVariation(_ what: String, sourcePlurals: Int, at location: SourceLocation?) -> Diagnostic {
        Diagnostic(
            "\(what) has plural variations, but the source text has \(sourcePlurals) plural arguments; plural variations need exactly one (write the plurals inside the message instead)",
            rule: .unexpectedPluralVariation, at: location)
    }
}
