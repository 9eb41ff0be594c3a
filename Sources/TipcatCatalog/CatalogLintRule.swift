public import TipcatCore

/// A check across a loaded catalog (SwiftLint-style): it says what it is and shows examples.
///
/// The built-in rules are listed in `LintRegistry.builtIn`; tests load every rule's examples and assert that the
/// triggering ones report the rule's id and the others do not.
public protocol CatalogLintRule: Sendable {
    var description: LintRuleDescription { get }
    func check(_ catalog: Catalog) -> [Diagnostic]
}

/// What a lint rule checks, how serious it is, and catalogs that do and do not trigger it.
public struct LintRuleDescription: Sendable {
    public var id: String
    public var summary: String
    public var severity: Severity
    /// Catalog directories (relative path → file text) that must trigger the rule.
    public var triggeringExamples: [[String: String]]
    /// Catalog directories that must not.
    public var nonTriggeringExamples: [[String: String]]

    public init(
        id: String, summary: String, severity: Severity, triggeringExamples: [[String: String]],
        nonTriggeringExamples: [[String: String]]
    ) {
        self.id = id
        self.summary = summary
        self.severity = severity
        self.triggeringExamples = triggeringExamples
        self.nonTriggeringExamples = nonTriggeringExamples
    }
}

/// The lint rules `validate` runs.
public enum LintRegistry {
    public static let builtIn: [any CatalogLintRule] = [
        DuplicateTipIDRule(),
        DuplicateGroupRule(),
        UnknownGroupMemberRule(),
        TipInSeveralGroupsRule(),
        FileNameMismatchRule(),
        SourceLanguageSupportedRule(),
        UnsupportedLocaleRule(),
        OrphanTranslationRule(),
    ]
}

/// Minimal catalog files for lint-rule examples: a valid catalog with the given tips, groups and extra files.
public enum LintExample {
    public static let catalogJSON = """
        {"name": "Example", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en", "fr"]}
        """

    public static func tip(_ id: String, title: String = "A tip") -> String {
        "{\"id\": \"\(id)\", \"title\": \"\(title)\"}"
    }

    /// A catalog with one file per tip id (`tips/<id>.json`) plus `extra` files.
    public static func catalog(tips: [String], extra: [String: String] = [:]) -> [String: String] {
        var files = ["catalog.json": catalogJSON]
        for id in tips { files["tips/\(id).json"] = tip(id) }
        return files.merging(extra) { _, new in new }
    }
}
