public import TipcatCore

extension DiagnosticRule {
    /// A link in a text whose destination is not an `https:`, `http:` or `mailto:` address (`javascript:`,
    /// `file:`, `data:`, a relative path): styles show only its label, and an app must not follow it.
    public static let unsafeLink = DiagnosticRule(
        "unsafe-link", .error, stage: .messages,
        summary: "a link in a text to anything but an https:, http: or mailto: address",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""message": "See [the map](javascript:alert(1))""##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""message": "See [the map](https://example.com/map)""##)]),
        ])
}

extension Diagnostic {
    /// `the link 'javascript:alert(1)' uses 'javascript:'; … in the message of tip 'A'`.
    static func unsafeLink(_ problem: String, in what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(problem) in \(what)", rule: .unsafeLink, at: location)
    }
}
