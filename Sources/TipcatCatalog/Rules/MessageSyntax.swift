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
