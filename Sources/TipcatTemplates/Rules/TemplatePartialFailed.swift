public import TipcatCore

extension DiagnosticRule {
    /// A partial that cannot be read or parsed.
    public static let templatePartialFailed = DiagnosticRule(
        "template-partial-failed", .error, stage: .templates,
        summary: "a partial that cannot be read or parsed")
}
