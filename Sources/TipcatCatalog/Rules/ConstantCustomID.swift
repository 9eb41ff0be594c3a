public import TipcatCore

extension DiagnosticRule {
    /// A custom ID without a placeholder (every instance has the same id).
    public static let constantCustomID = DiagnosticRule(
        "constant-custom-id", .warning, stage: .messages,
        summary: "a custom ID with no placeholder",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""customID": "A-fixed""##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""parameters": {"count": "int"}, "customID": "A-{count}""##)]),
        ])
}

extension Diagnostic {
    /// `the customID of tip 'A' has no placeholder, so every instance has the same id; …`.
    static func constantCustomID(_ what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) has no placeholder, so every instance has the same id; use the tip's 'id' instead",
                   rule: .constantCustomID, at: location)
    }
}
