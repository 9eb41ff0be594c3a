public import TipcatCore

extension DiagnosticRule {
    /// A type name tipcat does not know, or a type where it is not allowed.
    public static let unknownType = DiagnosticRule(
        "unknown-type", .error, stage: .catalog,
        summary: "a parameter or field type that does not exist",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["parameters.json": ##"""
                {"parameters": [{"name": "launches", "type": "integer", "default": 0}]}
                """##]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["parameters.json": ##"""
                {"parameters": [{"name": "launches", "type": "int", "default": 0}]}
                """##]),
        ])
}
