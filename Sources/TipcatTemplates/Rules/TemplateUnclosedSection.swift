public import TipcatCore

extension DiagnosticRule {
    /// A section that is never closed.
    public static let templateUnclosedSection = DiagnosticRule(
        "template-unclosed-section", .error, stage: .templates,
        summary: "a section that is never closed",
        snippets: [.template("{{#items}}no end")])
}
