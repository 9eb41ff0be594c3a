public import TipcatCore

extension DiagnosticRule {
    /// An object key the format does not define.
    public static let unknownKey = DiagnosticRule(
        "unknown-key", .error, stage: .catalog,
        summary: "an object key the format does not define (with did-you-mean)",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": ##"{"id": "A", "title": "A tip", "titel": "A tip"}"##]),
        ],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}

extension Diagnostic {
    /// `unknown key 'titel' in tip 'A'; did you mean 'title'?`.
    static func unknownKey(_ key: String, in subject: String, allowed: [String], at location: SourceLocation) -> Diagnostic {
        Diagnostic("unknown key '\(key)' in \(subject)" + Suggestions.didYouMean(key, in: allowed), rule: .unknownKey, at: location)
    }
}
