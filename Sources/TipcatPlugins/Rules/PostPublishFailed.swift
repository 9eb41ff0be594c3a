public import TipcatCore

extension DiagnosticRule {
    /// Post-publish hooks never undo a version.
    public static let postPublishFailed = DiagnosticRule(
        "post-publish-failed", .warning, stage: .plugins,
        summary: "a post-publish hook failed or reported a problem; the version stays published")
}
