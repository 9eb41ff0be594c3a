public import TipcatCore

extension DiagnosticRule {
    /// A message (title, message, custom ID) that does not parse.
    public static let messageSyntax = DiagnosticRule(
        "message-syntax", .error, stage: .messages,
        summary: "a message that does not parse",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""parameters": {"name": "string"}, "message": "Hello {name""##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""parameters": {"name": "string"}, "message": "Hello {name}""##)]),
        ])
}

extension Diagnostic {
    /// `expected '}' in the message of tip 'A'` (`problem` is the parser's message).
    static func messageSyntax(_ problem: String, in what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(problem) in \(what)", rule: .messageSyntax, at: location)
    }
}
