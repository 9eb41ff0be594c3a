public import TipcatCore

extension DiagnosticRule {
    /// A required key is missing.
    public static let missingKey = DiagnosticRule(
        "missing-key", .error, stage: .catalog,
        summary: "a required key is missing",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": ##"{"id": "A"}"##]),
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##""A.title": {"localizations": {"fr": {}}}"##)]),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##"""
                "parameters": {"trail": {"id": "string", "name": "string"}}, "example": {"trail": {"id": "x"}}
                """##)]),
        ],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}

extension Diagnostic {
    /// `missing required key 'title' in tip 'A'`.
    static func missingKey(_ key: String, in subject: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("missing required key '\(key)' in \(subject)", rule: .missingKey, at: location)
    }

    /// `the 'fr' translation of 'A.title' has neither a 'stringUnit' nor plural 'variations'`.
    static func missingTranslationValue(_ what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) has neither a 'stringUnit' nor plural 'variations'", rule: .missingKey, at: location)
    }

    /// `the example of tip 'A' is missing field 'name'` (a record value without one of its fields).
    static func missingField(_ name: String, in what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) is missing field '\(name)'", rule: .missingKey, at: location)
    }
}
