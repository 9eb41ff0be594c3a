import TipcatCore

extension DiagnosticRule {
    /// A file given to `tipcat engine merge-state` that is not a state file this tipcat reads.
    static let stateFile = DiagnosticRule(
        "state-file", .error, stage: .engine,
        summary: "a file given to engine merge-state that is not a state file this tipcat reads (nothing is merged)")
}
