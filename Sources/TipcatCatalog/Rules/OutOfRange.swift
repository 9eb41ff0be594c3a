public import TipcatCore

extension DiagnosticRule {
    /// A number outside its allowed range.
    public static let outOfRange = DiagnosticRule(
        "out-of-range", .error, stage: .catalog,
        summary: "a number outside its range",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""options": {"maxDisplayCount": 0}"##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""options": {"maxDisplayCount": 3}"##)]),
        ])
}
