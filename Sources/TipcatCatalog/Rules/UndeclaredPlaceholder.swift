public import TipcatCore

extension DiagnosticRule {
    /// A placeholder that names no parameter of the tip.
    public static let undeclaredPlaceholder = DiagnosticRule(
        "undeclared-placeholder", .error, stage: .messages,
        summary: "a placeholder that names no tip parameter (did-you-mean)",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""parameters": {"name": "string"}, "message": "Hello {nmae}""##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""parameters": {"name": "string"}, "message": "Hello {name}""##)]),
        ])
}

extension Diagnostic {
    /// `'{nmae}' in the message of tip 'A' is not a parameter of A; did you mean 'name'?` (`hint` follows).
    static func undeclaredPlaceholder(_ path: String, in what: String, tip: String, hint: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'{\(path)}' in \(what) is not a parameter of \(tip)\(hint)", rule: .undeclaredPlaceholder, at: location)
    }
}
