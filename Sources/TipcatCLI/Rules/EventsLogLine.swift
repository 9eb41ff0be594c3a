import TipcatCore

extension DiagnosticRule {
    /// A line of the engine's events log that is not an event (it is skipped).
    static let eventsLogLine = DiagnosticRule(
        "events-log-line", .warning, stage: .engine,
        summary: "a line of the engine's events log (STATE.events.jsonl beside the state database) that is not an event; engine events skips it")
}
