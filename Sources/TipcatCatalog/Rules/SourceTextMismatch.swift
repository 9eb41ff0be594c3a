public import TipcatCore

extension DiagnosticRule {
    /// The String Catalog's source-language string differs from the tip file's text; the String Catalog's is shown.
    public static let sourceTextMismatch = DiagnosticRule(
        "source-text-mismatch", .warning, stage: .translations,
        summary: "the String Catalog's source-language string differs from the tip's text (the String Catalog's is shown)",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "One tip"}}}}
                """##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "A tip"}}}}
                """##)]),
        ])
}

extension Diagnostic {
    /// `the 'en' string of 'A.title' is "One tip" but the tip's text is "A tip"; the String Catalog's is shown`.
    static func sourceTextMismatch(_ what: String, catalogText: String, tipText: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) is \"\(catalogText)\" but the tip's text is \"\(tipText)\"; the String Catalog's is shown",
                   rule: .sourceTextMismatch, at: location)
    }
}
