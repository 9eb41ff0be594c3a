public import TipcatCore

extension DiagnosticRule {
    /// A value that is not one of the allowed ones.
    public static let invalidValue = DiagnosticRule(
        "invalid-value", .error, stage: .catalog,
        summary: "a value that is not one of the allowed values (with did-you-mean)",
        triggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""republish": "never""##)]),
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""options": {"maxDisplayDuration": "5 minutes"}"##)]),
            ["catalog.json": ##"""
                {"name": "Example", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en"],
                "displayFrequency": "sometimes"}
                """##],
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""image": """##)]),
        ],
        nonTriggering: [
            CatalogExample.catalog(tips: [], extra: ["tips/A.json": CatalogExample.tip("A", ##""republish": "reset""##)]),
        ])
}

extension Diagnostic {
    /// `'republish' in tip 'A' must be one of 'keep', 'reset', found 'never'` (with a did-you-mean).
    static func invalidChoice(_ key: String, in subject: String, choices: [String], found text: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(
            "'\(key)' in \(subject) must be one of \(choices.map { "'\($0)'" }.joined(separator: ", ")), found '\(text)'"
                + Suggestions.didYouMean(text, in: choices),
            rule: .invalidValue, at: location)
    }

    /// `'maxDisplayDuration' in the options of tip 'A' is not a duration: '5 minutes'; write …`.
    static func invalidDuration(_ key: String, in subject: String, text: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(
            "'\(key)' in \(subject) is not a duration: '\(text)'; write seconds (90) or a number with a unit s, m, h, d or w ('5m', '12h', '3d')",
            rule: .invalidValue, at: location)
    }

    /// `'displayFrequency' must be one of immediate, hourly, …, found 'sometimes'` (with a did-you-mean).
    static func invalidDisplayFrequency(_ text: String, names: [String], at location: SourceLocation) -> Diagnostic {
        Diagnostic(
            "'displayFrequency' must be one of \(names.joined(separator: ", ")), a number of seconds or a duration such as '12h', found '\(text)'"
                + Suggestions.didYouMean(text, in: names),
            rule: .invalidValue, at: location)
    }

    /// `'image' of tip 'A' is empty; remove it or name a symbol such as 'location.circle'`.
    static func emptyImage(of subject: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("'image' of \(subject) is empty; remove it or name a symbol such as 'location.circle'",
                   rule: .invalidValue, at: location)
    }
}
