public import TipcatCore

extension DiagnosticRule {
    /// The program of a plugin must exist.
    public static let pluginNotFound = DiagnosticRule(
        "plugin-not-found", .error, stage: .plugins,
        summary: "a configured plugin's program is not found or not executable (`tipcat plugins check`)")
}
