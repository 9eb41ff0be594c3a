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

extension Diagnostic {
    /// `event 'opened-map' is declared twice`, with a note at the first declaration.
    static func duplicateEvent(_ id: String, at location: SourceLocation, first: SourceLocation) -> Diagnostic {
        Diagnostic("event '\(id)' is declared twice", rule: .duplicateEvent, at: location,
                   notes: [.init("first declared here", at: first)])
    }
}
