public import TipcatCore

extension DiagnosticRule {
    /// A closing tag with no open section.
    public static let templateUnexpectedClosingTag = DiagnosticRule(
        "template-unexpected-closing-tag", .error, stage: .templates,
        summary: "a closing tag with no open section",
        snippets: [.template("text{{/a}}")])
}
