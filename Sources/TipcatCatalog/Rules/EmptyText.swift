public import TipcatCore

extension DiagnosticRule {
    /// A title, message or action title that is empty.
    public static let emptyText = DiagnosticRule(
        "empty-text", .error, stage: .catalog,
        summary: "an empty title, message or action title",
        triggering: [CatalogExample.catalog(tips: [], extra: ["tips/A.json": ##"{"id": "A", "title": " "}"##])],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}

extension Diagnostic {
    /// `the title of tip 'A' is empty` (`what` names the text).
    static func emptyText(_ what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) is empty", rule: .emptyText, at: location)
    }
}
