public import TipcatCore

extension DiagnosticRule {
    /// A closing tag that closes another section.
    public static let templateMismatchedClosingTag = DiagnosticRule(
        "template-mismatched-closing-tag", .error, stage: .templates,
        summary: "a closing tag that closes another section",
        snippets: [.template("{{#a}}text{{/b}}")])
}
