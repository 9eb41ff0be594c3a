public import TipcatCore

extension DiagnosticRule {
    /// A placeholder that names no parameter of the tip.
    public static let undeclaredPlaceholder = DiagnosticRule(
        "undeclared-placeholder", .error, stage: .messages,
        summary: "a placeholder that names no tip parameter (did-you-mean)",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""parameters": {"name": "string"}, "message": "Hello {nmae}""##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""parameters": {"name": "string"}, "message": "Hello {name}""##)]),
        ])
}
