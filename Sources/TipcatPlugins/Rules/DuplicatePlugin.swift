public import TipcatCore

extension DiagnosticRule {
    /// Plugin names are unique.
    public static let duplicatePlugin = DiagnosticRule(
        "duplicate-plugin", .error, stage: .plugins,
        summary: "two plugins in plugins.json share a name")
}
