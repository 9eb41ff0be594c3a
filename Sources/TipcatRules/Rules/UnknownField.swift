public import TipcatCore

extension DiagnosticRule {
    /// A field that the event or record does not have.
    public static let unknownField = DiagnosticRule(
        "unknown-field", .error, stage: .rules,
        summary: "an event or record field that does not exist (did-you-mean)",
        triggering: [
            CatalogExample.rule("#opened-map.where(regoin == \"north\").count > 0"),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##"""
                "parameters": {"trail": {"id": "string"}}, "example": {"trail": {"id": "x", "name": "y"}}
                """##)]),
        ],
        nonTriggering: [CatalogExample.rule("#opened-map.where(region == \"north\").count > 0")])
}
