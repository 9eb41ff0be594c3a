public import TipcatCore

extension DiagnosticRule {
    /// A partial name that could leave the style folder.
    public static let templateUnsafePartialName = DiagnosticRule(
        "template-unsafe-partial-name", .error, stage: .templates,
        summary: "a partial name that could leave the style folder")
}
