public import TipcatCore

extension DiagnosticRule {
    /// A translation whose placeholders differ from the source text.
    public static let placeholderMismatch = DiagnosticRule(
        "placeholder-mismatch", .error, stage: .translations,
        summary: "a translation's placeholders differ from the source text",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.message": {"localizations": {"fr": {"stringUnit": {"state": "translated",
                "value": "Salut {nom}"}}}}
                """##), "tips/A.json": CatalogExample.tip("A", ##""parameters": {"name": "string"}, "message": "Hi {name}""##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.message": {"localizations": {"fr": {"stringUnit": {"state": "translated",
                "value": "Salut {name}"}}}}
                """##), "tips/A.json": CatalogExample.tip("A", ##""parameters": {"name": "string"}, "message": "Hi {name}""##)]),
        ])
}

extension Diagnostic {
    /// `the 'fr' translation of 'A.message' has {nom}, which the source text does not have and lacks {name} …`
    /// (`problems` are joined with "and").
    static func placeholderMismatch(_ what: String, problems: [String], at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) \(problems.joined(separator: " and "))", rule: .placeholderMismatch, at: location)
    }
}
