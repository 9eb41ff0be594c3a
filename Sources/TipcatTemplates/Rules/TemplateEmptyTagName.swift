public import TipcatCore

extension DiagnosticRule {
    /// A tag with no name.
    public static let templateEmptyTagName = DiagnosticRule(
        "template-empty-tag-name", .error, stage: .templates,
        summary: "a tag with no name",
        snippets: [.template("Hello {{}}")])
}
