public import TipcatCore

extension DiagnosticRule {
    /// A tip parameter has the name of an app parameter.
    public static let shadowedParameter = DiagnosticRule(
        "shadowed-parameter", .warning, stage: .catalog,
        summary: "a tip parameter has an app parameter's name",
        triggering: [
            CatalogExample.catalog(tips: [], extra: [
                "parameters.json": CatalogExample.parametersJSON,
                "tips/A.json": CatalogExample.tip("A", ##""parameters": {"isLoggedIn": "bool"}"##),
            ]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: [
                "parameters.json": CatalogExample.parametersJSON,
                "tips/A.json": CatalogExample.tip("A", ##""parameters": {"isSignedUp": "bool"}"##),
            ]),
        ])
}
