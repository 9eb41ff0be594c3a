public import TipcatCore

extension DiagnosticRule {
    /// An event that `events.json` does not declare.
    public static let unknownEvent = DiagnosticRule(
        "unknown-event", .error, stage: .rules,
        summary: "a rule (or simulation script) names an event `events.json` does not declare (did-you-mean)",
        triggering: [CatalogExample.rule("#opened-mpa.count > 3")],
        nonTriggering: [CatalogExample.rule("#opened-map.count > 3")],
        snippets: [.simulation("donate opened-mpa")])
}

extension RuleDiagnostic {
    /// `unknown event '#opened-mpa'; did you mean '#opened-map'?` (`suggestion` follows the name).
    static func unknownEvent(_ id: String, suggestion: String, at range: Range<Int>) -> RuleDiagnostic {
        RuleDiagnostic("unknown event '#\(id)'\(suggestion)", rule: .unknownEvent, range: range)
    }
}
