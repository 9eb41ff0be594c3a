public import TipcatCore

extension DiagnosticRule {
    /// A render that grows past the output or expansion limit (partials that fan out).
    public static let templateTooLarge = DiagnosticRule(
        "template-too-large", .error, stage: .templates,
        summary: "a render larger than the limits: over 4 MiB of output or 20,000 partials, sections and list items (partials that fan out)")
}
