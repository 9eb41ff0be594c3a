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

extension Diagnostic {
    /// `tip parameter 'isLoggedIn' of tip 'A' has the name of the app parameter '$isLoggedIn'; …`.
    static func shadowedParameter(_ name: String, of subject: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("tip parameter '\(name)' of \(subject) has the name of the app parameter '$\(name)'; rules tell them apart by the '$', but readers may not",
                   rule: .shadowedParameter, at: location)
    }
}
