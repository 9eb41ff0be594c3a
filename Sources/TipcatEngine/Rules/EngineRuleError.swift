public import TipcatCore

extension DiagnosticRule {
    /// A rule of a published catalog that the engine cannot check against the catalog's declarations.
    public static let engineRuleError = DiagnosticRule(
        "engine-rule-error", .error, stage: .engine,
        summary: "a rule of a published catalog does not check against its declarations")
}
