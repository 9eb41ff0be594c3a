public import TipcatCore

extension DiagnosticRule {
    /// An app parameter declared twice.
    public static let duplicateParameter = DiagnosticRule(
        "duplicate-parameter", .error, stage: .catalog,
        summary: "an app parameter declared twice",
        triggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["parameters.json": ##"{"parameters": [{"name": "isLoggedIn", "type": "bool", "default": false}, {"name": "isLoggedIn", "type": "bool", "default": true}]}"##]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: ["A"], extra: ["parameters.json": ##"{"parameters": [{"name": "isLoggedIn", "type": "bool", "default": false}]}"##]),
        ])
}
