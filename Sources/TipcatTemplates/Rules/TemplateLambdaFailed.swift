public import TipcatCore

extension DiagnosticRule {
    /// A lambda that failed.
    public static let templateLambdaFailed = DiagnosticRule(
        "template-lambda-failed", .error, stage: .templates,
        summary: "a lambda that failed")
}
