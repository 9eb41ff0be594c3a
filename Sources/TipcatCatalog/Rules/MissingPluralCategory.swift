public import TipcatCore

extension DiagnosticRule {
    /// A plural lacks a category its language needs.
    public static let missingPluralCategory = DiagnosticRule(
        "missing-plural-category", .error, stage: .messages,
        summary: "a plural lacks a category its language needs (or `other`)",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##"""
                "parameters": {"count": "int"}, "message": "{count, plural, other {# trails}}"
                """##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##"""
                "parameters": {"count": "int"}, "message": "{count, plural, one {# trail} other {# trails}}"
                """##)]),
        ])
}
