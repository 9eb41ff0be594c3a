public import TipcatCore

extension DiagnosticRule {
    /// An event declared twice.
    public static let duplicateEvent = DiagnosticRule(
        "duplicate-event", .error, stage: .catalog,
        summary: "an event declared twice",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["events.json": ##"{"events": [{"id": "opened-map"}, {"id": "opened-map"}]}"##]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["events.json": ##"{"events": [{"id": "opened-map"}, {"id": "closed-map"}]}"##]),
        ])
}
