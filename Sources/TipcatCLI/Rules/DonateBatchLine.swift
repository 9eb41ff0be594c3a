import TipcatCore

extension DiagnosticRule {
    /// A line of `tipcat engine donate --batch` that is not a donation of the catalog's events.
    static let donateBatchLine = DiagnosticRule(
        "donate-batch-line", .error, stage: .engine,
        summary: "a line of engine donate --batch that is not a valid donation (nothing from the batch is stored)")
}
