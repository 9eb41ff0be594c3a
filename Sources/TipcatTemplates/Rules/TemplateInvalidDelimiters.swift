public import TipcatCore

extension DiagnosticRule {
    /// A set-delimiter tag that does not set two delimiters.
    public static let templateInvalidDelimiters = DiagnosticRule(
        "template-invalid-delimiters", .error, stage: .templates,
        summary: "a set-delimiter tag that does not set two delimiters",
        snippets: [.template("{{=<%=}}")])
}
