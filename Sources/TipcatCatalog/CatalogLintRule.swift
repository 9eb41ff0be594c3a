public import TipcatCore

/// A check across a loaded catalog (SwiftLint-style): it says what it is and shows examples.
///
/// The built-in rules are listed in `LintRegistry.builtIn`; tests load every rule's examples and assert that the
/// triggering ones report the rule's id and the others do not.
public protocol CatalogLintRule: Sendable {
    /// The rule's id, severity, summary and examples; its findings carry this rule.
    var description: DiagnosticRule { get }
    /// The rule's findings in `catalog`.
    func check(_ catalog: Catalog) -> [Diagnostic]
    /// Whether the rule reads the String Catalog's translations (`catalog.localizations`). A rule that does not
    /// runs while the String Catalog is decoded, on the catalog without its translations (the loader's second
    /// core is otherwise idle through part of that). True by default.
    var readsTranslations: Bool { get }
}

extension CatalogLintRule {
    public var readsTranslations: Bool { true }
}

/// What a lint rule checks, how serious it is, and catalogs that do and do not trigger it: its `DiagnosticRule`.
public typealias LintRuleDescription = DiagnosticRule

extension DiagnosticRule {
    /// The rule's default severity (the name lint rules used before every diagnostic had a `DiagnosticRule`).
    public var severity: Severity { defaultSeverity }
}

/// The lint rules `validate` runs.
public enum LintRegistry {
    /// One instance of every built-in lint rule, in the order their findings are reported.
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

/// Minimal catalog files for rule examples (the name lint rules used before `CatalogExample` moved to TipcatCore).
public typealias LintExample = CatalogExample
