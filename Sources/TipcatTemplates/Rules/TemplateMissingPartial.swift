public import TipcatCore

extension DiagnosticRule {
    /// A partial that does not exist.
    public static let templateMissingPartial = DiagnosticRule(
        "template-missing-partial", .error, stage: .templates,
        summary: "a partial that does not exist")
}
