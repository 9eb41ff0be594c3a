public import TipcatCore

extension DiagnosticRule {
    /// A simulation command or setting that does not exist.
    public static let unknownCommand = DiagnosticRule(
        "unknown-command", .error, stage: .simulation,
        summary: "a simulation command or setting that does not exist (did-you-mean)",
        snippets: [.simulation("donat opened-map")])
}
