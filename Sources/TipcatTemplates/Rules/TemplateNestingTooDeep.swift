public import TipcatCore

extension DiagnosticRule {
    /// Sections nested too deeply.
    public static let templateNestingTooDeep = DiagnosticRule(
        "template-nesting-too-deep", .error, stage: .templates,
        summary: "sections nested too deeply")
}
