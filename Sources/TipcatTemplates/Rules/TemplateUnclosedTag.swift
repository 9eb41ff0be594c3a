public import TipcatCore

extension DiagnosticRule {
    /// A tag that is not closed.
    public static let templateUnclosedTag = DiagnosticRule(
        "template-unclosed-tag", .error, stage: .templates,
        summary: "a tag that is not closed",
        snippets: [.template("Hello {{name")])
}
