public import TipcatCore

extension DiagnosticRule {
    /// Rendering nested too deeply (a partial or lambda that includes itself).
    public static let templateRecursionLimit = DiagnosticRule(
        "template-recursion-limit", .error, stage: .templates,
        summary: "rendering nested too deeply (a partial or lambda that includes itself)")
}
