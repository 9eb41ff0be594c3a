public import TipcatCore

extension DiagnosticRule {
    /// A tag name with characters a name cannot have.
    public static let templateInvalidTagName = DiagnosticRule(
        "template-invalid-tag-name", .error, stage: .templates,
        summary: "a tag name with characters a name cannot have",
        snippets: [.template("Hello {{na me}}")])
}
