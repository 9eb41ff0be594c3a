public import TipcatCore

extension DiagnosticRule {
    /// lint.json: a content rule's regular expression does not compile.
    public static let invalidRegex = DiagnosticRule(
        "invalid-regex", .error, stage: .catalog,
        summary: "a content rule's regular expression does not compile",
        triggering: [CatalogExample.catalog(tips: ["A"], extra: ["lint.json": ##"{"content": [{"id": "r", "kind": "existence", "regex": true, "tokens": ["(unclosed"]}]}"##])],
        nonTriggering: [CatalogExample.catalog(tips: ["A"], extra: ["lint.json": ##"{"content": [{"id": "r", "kind": "existence", "regex": true, "tokens": ["click(ed)?"]}]}"##])])
}
