public import TipcatCore

extension DiagnosticRule {
    /// A custom ID that uses a plural or select.
    public static let invalidCustomID = DiagnosticRule(
        "invalid-custom-id", .error, stage: .messages,
        summary: "a custom ID with a plural or select",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##"""
                "parameters": {"count": "int"}, "customID": "A-{count, plural, other {#}}"
                """##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""parameters": {"count": "int"}, "customID": "A-{count}""##)]),
        ])
}

extension Diagnostic {
    /// `the customID of tip 'A' may only use plain placeholders such as {trail.id}, not plural or select`.
    static func invalidCustomID(_ what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) may only use plain placeholders such as {trail.id}, not plural or select",
                   rule: .invalidCustomID, at: location)
    }
}
