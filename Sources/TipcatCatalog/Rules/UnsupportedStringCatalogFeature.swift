public import TipcatCore

extension DiagnosticRule {
    /// String Catalog features tipcat does not support: `substitutions` and device variations.
    public static let unsupportedStringCatalogFeature = DiagnosticRule(
        "unsupported-string-catalog-feature", .error, stage: .translations,
        summary: "`substitutions` or device variations",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"fr": {"stringUnit": {"state": "translated",
                "value": "Une astuce"}, "substitutions": {}}}}
                """##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"fr": {"stringUnit": {"state": "translated",
                "value": "Une astuce"}}}}
                """##)]),
        ])
}
