public import TipcatCore

extension DiagnosticRule {
    /// A style folder that lacks `style.json` or `tip.mustache`.
    public static let invalidStyle = DiagnosticRule(
        "invalid-style", .error, stage: .styles,
        summary: "a style folder without `style.json` or `tip.mustache`")
}
