public import TipcatCore

extension DiagnosticRule {
    /// A file is not strict RFC 8259 JSON.
    public static let invalidJSON = DiagnosticRule(
        "invalid-json", .error, stage: .json,
        summary: "not RFC 8259 JSON: syntax, invalid UTF-8, NUL or control characters, nesting deeper than 512",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": ##"{"id": "A",, "title": "A tip"}"##]),
        ],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}
