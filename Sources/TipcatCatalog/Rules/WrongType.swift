public import TipcatCore

extension DiagnosticRule {
    /// A value of the wrong JSON type.
    public static let wrongType = DiagnosticRule(
        "wrong-type", .error, stage: .catalog,
        summary: "a value of the wrong JSON type",
        triggering: [CatalogExample.catalog(tips: [], extra: ["tips/A.json": ##"{"id": "A", "title": 42}"##])],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}
