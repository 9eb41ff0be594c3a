public import TipcatCore

extension DiagnosticRule {
    /// A value of the wrong JSON type.
    public static let wrongType = DiagnosticRule(
        "wrong-type", .error, stage: .catalog,
        summary: "a value of the wrong JSON type",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": ##"{"id": "A", "title": 42}"##]),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": "[1]"]),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""$schema": 1"##)]),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""options": {"maxDisplayCount": 2.5}"##)]),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""options": {"maxDisplayDuration": true}"##)]),
            ["catalog.json": ##"""
                {"name": "Example", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en", 1]}
                """##],
            CatalogExample.catalog(tips: ["A"], extra: ["groups.json": ##"""
                {"groups": [{"id": "g", "priority": "ordered", "tips": [1]}]}
                """##]),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""rules": [1]"##)]),
            CatalogExample.catalog(tips: ["A"], extra: ["parameters.json": ##"""
                {"parameters": [{"name": "launches", "type": 1, "default": 0}]}
                """##]),
        ],
        nonTriggering: [CatalogExample.catalog(tips: ["A"])])
}

extension Diagnostic {
    /// `'maxDisplayCount' in the options of tip 'A' must be an integer, found a string`.
    static func wrongType(_ key: String, in subject: String, expected: String, found: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'\(key)' in \(subject) must be \(expected), found \(found)", rule: .wrongType, at: location)
    }

    /// `a tip must be a JSON object, found an array` (`subject` names the object).
    static func notAnObject(_ subject: String, found: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("\(subject) must be a JSON object, found \(found)", rule: .wrongType, at: location)
    }

    /// `'$schema' must be a string`.
    static func schemaNotAString(at location: SourceLocation) -> Diagnostic {
        Diagnostic("'$schema' must be a string", rule: .wrongType, at: location)
    }

    /// `'maxDisplayCount' in the options of tip 'A' must be a whole number, found 2.5`.
    static func notAWholeNumber(_ key: String, in subject: String, found text: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'\(key)' in \(subject) must be a whole number, found \(text)", rule: .wrongType, at: location)
    }

    /// `'maxDisplayDuration' in the options of tip 'A' must be a duration (…), found a boolean`.
    static func notADuration(_ key: String, in subject: String, found: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'\(key)' in \(subject) must be a duration (seconds, or text like '5m'), found \(found)", rule: .wrongType, at: location)
    }

    /// `'supportedLocales' must hold locale identifiers (strings), found a number`.
    static func localeNotAString(found: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'supportedLocales' must hold locale identifiers (strings), found \(found)", rule: .wrongType, at: location)
    }

    /// `the tips of group 'compass' must be tip ids (strings), found a number`.
    static func groupMemberNotAString(_ group: String, found: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("the tips of group '\(group)' must be tip ids (strings), found \(found)", rule: .wrongType, at: location)
    }

    /// `each rule of A must be a string in the rule language, found a number`.
    static func ruleNotAString(of tip: String, found: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("each rule of \(tip) must be a string in the rule language, found \(found)", rule: .wrongType, at: location)
    }

    /// `the type of parameter 'launches' must be a type name such as "int", found a number`.
    static func typeNotAName(of what: String, expected: String, found: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("the type of \(what) must be \(expected), found \(found)", rule: .wrongType, at: location)
    }
}
