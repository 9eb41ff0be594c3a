public import TipcatCore

extension DiagnosticRule {
    /// An app parameter declared twice.
    public static let duplicateParameter = DiagnosticRule(
        "duplicate-parameter", .error, stage: .catalog,
        summary: "an app parameter declared twice",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["parameters.json": ##"""
                {"parameters": [{"name": "isLoggedIn", "type": "bool", "default": false}, {"name": "isLoggedIn",
                "type": "bool", "default": true}]}
                """##]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["parameters.json": ##"""
                {"parameters": [{"name": "isLoggedIn", "type": "bool", "default": false}]}
                """##]),
        ])
}

extension Diagnostic {
    /// `parameter 'isLoggedIn' is declared twice`, with a note at the first declaration.
    static func duplicateParameter(_ name: String, at location: SourceLocation, first: SourceLocation) -> Diagnostic {
        Diagnostic("parameter '\(name)' is declared twice", rule: .duplicateParameter, at: location,
                   notes: [.init("first declared here", at: first)])
    }
}
