public import TipcatCore

extension DiagnosticRule {
    /// Inline Markdown in a text that is probably not what the writer meant: emphasis, a code span or a link
    /// destination opened and never closed, an image (a tip cannot show one), markup nested too deeply.
    public static let malformedMarkup = DiagnosticRule(
        "malformed-markup", .warning, stage: .messages,
        summary: "inline Markdown in a text that is opened and never closed, or that a tip cannot show",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""message": "Tap **Save to keep it""##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""message": "Tap **Save** to keep it, or 5 * 3 snake_case""##)]),
        ])
}

extension Diagnostic {
    /// `'**' opens emphasis that is never closed; write '\*' for a literal '*' in the message of tip 'A'`.
    static func malformedMarkup(_ problem: String, in what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(problem) in \(what)", rule: .malformedMarkup, at: location)
    }
}
