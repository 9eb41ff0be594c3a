public import TipcatCore

extension DiagnosticRule {
    /// A placeholder of an optional parameter with no text for when it has no value.
    public static let optionalPlaceholder = DiagnosticRule(
        "optional-placeholder", .error, stage: .messages,
        summary: "a placeholder of an optional parameter without a text for nil (`{x, select, nil {…} other {{x}}}`)",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""parameters": {"name": "string?"}, "message": "Hello {name}""##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip(
                "A", ##""parameters": {"name": "string?"}, "message": "Hello {name, select, nil {there} other {{name}}}""##)]),
        ])
}

extension Diagnostic {
    /// `'{name}' in the message of tip 'A' has no text for when 'name' (string?) is nil; …`.
    static func optionalPlaceholder(_ path: String, in what: String, absent: String, type: ValueType?, at location: SourceLocation) -> Diagnostic {
        let typeText = type.map { " (\($0))" } ?? ""
        return Diagnostic(
            "'{\(path)}' in \(what) has no text for when '\(absent)'\(typeText) is nil; "
                + "write one with a nil case, as in '{\(absent), select, nil {…} other {{\(path)}}}'",
            rule: .optionalPlaceholder, at: location)
    }
}
