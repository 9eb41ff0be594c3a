public import TipcatCore

extension DiagnosticRule {
    /// A finding located outside the catalog or at nothing.
    public static let pluginBadLocation = DiagnosticRule(
        "plugin-bad-location", .error, stage: .plugins,
        summary: "a plugin's finding points at a file, JSON pointer, line or column that does not exist in the catalog")
}
