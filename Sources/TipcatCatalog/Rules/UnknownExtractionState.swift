public import TipcatCore

extension DiagnosticRule {
    /// An `extractionState` Xcode does not write (`manual`, `stale`, `extracted_with_value`, `migrated`).
    public static let unknownExtractionState = DiagnosticRule(
        "unknown-extraction-state", .warning, stage: .translations,
        summary: "an `extractionState` other than `manual`, `stale`, `extracted_with_value` or `migrated`",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"extractionState": "automatic", "localizations": {}}
                """##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                "A.title": {"extractionState": "manual", "localizations": {}}
                """##)]),
        ])
}

extension Diagnostic {
    /// The values of `extractionState` Xcode writes.
    static let extractionStates = ["extracted_with_value", "manual", "migrated", "stale"]

    /// `string 'A.title' has the extractionState 'automatic', which Xcode does not write; …`.
    static func unknownExtractionState(_ value: String, key: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("string '\(key)' has the extractionState '\(value)', which Xcode does not write "
                   + "('extracted_with_value', 'manual', 'migrated' or 'stale')" + Suggestions.didYouMean(value, in: extractionStates),
                   rule: .unknownExtractionState, at: location)
    }
}
