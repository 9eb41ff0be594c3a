public import TipcatCore

extension DiagnosticRule {
    /// A printf-style translation (`%@`, `%lld`, `%1$@`) whose arguments do not fit the source text's placeholders.
    public static let printfMismatch = DiagnosticRule(
        "printf-mismatch", .error, stage: .translations,
        summary: "a printf-style translation (`%@`, `%lld`, `%2$@`) whose arguments do not fit the source text's placeholders in number or type",
        triggering: [
            CatalogExample.catalog(tips: [], extra: [
                "tips/A.json": CatalogExample.tip("A", ##""parameters": {"name": "string"}, "message": "Hi {name}""##),
                "Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                    "A.message": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "Salut %lld"}}}}
                    """##),
            ]),
            CatalogExample.catalog(tips: [], extra: [
                "tips/A.json": CatalogExample.tip("A", ##""parameters": {"name": "string"}, "message": "Hi {name}""##),
                "Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                    "A.message": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "Salut %@ et %@"}}}}
                    """##),
            ]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: [
                "tips/A.json": CatalogExample.tip("A", ##""parameters": {"name": "string", "count": "int"}, "message": "Hi {name}, {count} new""##),
                "Localizable.xcstrings": CatalogExample.stringCatalog(##"""
                    "A.message": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "%2$lld nouveaux, %1$@ (100 %%)"}}}}
                    """##),
            ]),
        ])
}

extension Diagnostic {
    /// `%2$@ in the 'fr' translation of 'A.message' is argument 2, but the source text has 1 placeholder ({name})`.
    static func printfArgumentOutOfRange(_ specifier: String, index: Int, in what: String, paths: [String], at location: SourceLocation) -> Diagnostic {
        let list = paths.isEmpty ? "" : " (" + paths.map { "{\($0)}" }.joined(separator: ", ") + ")"
        return Diagnostic("\(specifier) in \(what) is argument \(index + 1), but the source text has \(paths.count) "
                          + (paths.count == 1 ? "placeholder" : "placeholders") + list,
                          rule: .printfMismatch, at: location)
    }

    /// `the 'fr' translation of 'A.message' has no argument for {count} (placeholder 2) of the source text`.
    static func printfMissingArguments(in what: String, missing: [(index: Int, path: String)], at location: SourceLocation) -> Diagnostic {
        let items = missing.map { "{\($0.path)} (placeholder \($0.index + 1))" }
        let list = items.count > 1 ? items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "") : (items.first ?? "")
        return Diagnostic("\(what) has no argument for \(list) of the source text", rule: .printfMismatch, at: location)
    }

    /// `%lld in the 'fr' translation of 'A.message' formats an integer, but {name} is string`.
    static func printfTypeMismatch(_ specifier: String, formats kind: String, path: String, type: String, in what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(specifier) in \(what) formats \(kind), but {\(path)} is \(type)", rule: .printfMismatch, at: location)
    }

    /// `the 'fr' translation of 'A.message' uses %#@trails@, which its substitutions do not define`.
    static func undefinedSubstitution(_ name: String, in what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) uses %#@\(name)@, which its substitutions do not define", rule: .printfMismatch, at: location)
    }

    /// `the substitution 'trails' of … has the formatSpecifier 'x', which is not an integer or floating-point one`.
    static func printfUnusableSpecifier(_ specifier: String, in what: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(what) has the formatSpecifier '\(specifier)'; a plural substitution needs an integer (lld, d, u) or floating-point (f, lf) one",
                   rule: .printfMismatch, at: location)
    }
}
