public import TipcatCore

extension DiagnosticRule {
    /// Timeouts, exits, signals and answers that cannot be used.
    public static let pluginFailed = DiagnosticRule(
        "plugin-failed", .error, stage: .plugins,
        summary: "an external plugin timed out, exited non-zero, died on a signal, could not start, or answered invalid JSON, another protocol version, more than 64 MiB or a response without what its kind needs")
}
