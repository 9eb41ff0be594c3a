public import TipcatCore

extension DiagnosticRule {
    /// A custom ID that uses a plural or select, can be empty, or is another tip's id.
    public static let invalidCustomID = DiagnosticRule(
        "invalid-custom-id", .error, stage: .messages,
        summary: "a custom ID with a plural or select, with no fixed text (it can be empty), or equal to another tip's id",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##"""
                "parameters": {"count": "int"}, "customID": "A-{count, plural, other {#}}"
                """##)]),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""parameters": {"name": "string"}, "customID": "{name}""##)]),
            CatalogExample.catalog(tips: ["B"], extra: ["tips/A.json": CatalogExample.tip("A", ##""customID": "B""##)]),
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

    /// `the custom ID of A has no fixed text, so it can be empty; …`.
    static func emptyCustomID(_ what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) has no fixed text, so it can be empty (a parameter may be \"\"); start it with text such as the tip's id",
                   rule: .invalidCustomID, at: location)
    }

    /// `the custom ID of A is 'B', the id of another tip; …`.
    static func customIDIsATipID(_ what: String, tip: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) is '\(tip)', the id of another tip, so the two cannot be told apart; give it a placeholder or another name",
                   rule: .invalidCustomID, at: location)
    }
}
