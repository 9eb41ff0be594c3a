public import TipcatCore

extension DiagnosticRule {
    /// Generated paths that would leave the output directory.
    public static let pluginBadPath = DiagnosticRule(
        "plugin-bad-path", .error, stage: .plugins,
        summary: "a generator returned a path that is absolute, has `..`, goes through a symlink or is returned twice (nothing is written)")
}
