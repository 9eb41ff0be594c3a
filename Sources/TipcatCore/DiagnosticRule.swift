/// What one diagnostic id means: its id, how serious it is by default, which stage reports it, a summary and
/// examples (swift-format's and SwiftLint's rule descriptions).
///
/// Every id a diagnostic can carry is declared once, as a static constant in the module that reports it,
/// one rule a file:
///
/// ```swift
/// extension DiagnosticRule {
///     /// A rule names an event that `events.json` does not declare.
///     public static let unknownEvent = DiagnosticRule(
///         "unknown-event", .error, stage: .rules, summary: "a rule names an event events.json does not declare",
///         triggering: [...], nonTriggering: [...])
/// }
/// ```
///
/// Emission sites name the rule, never a string: `Diagnostic(message, rule: .unknownEvent, at: location)` or
/// `DiagnosticRule.unknownEvent.diagnostic(message, at: location)`, and the finding gets the rule's severity.
/// Messages are built next to the rule, in its file. The registry of every rule is `DiagnosticRules.all` in
/// TipcatCLI (add a new rule there too); the README's table is generated from it (`make docs`).
public struct DiagnosticRule: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The part of tipcat that reports the rule, in the order a catalog goes through them.
    public enum Stage: String, Sendable, Hashable, CaseIterable, Comparable {
        /// Reading files and JSON syntax.
        case json
        /// The catalog's files and declarations: keys, types, names, values.
        case catalog
        /// Messages (titles, messages, custom ids): syntax, placeholders, plurals.
        case messages
        /// The String Catalog (`Localizable.xcstrings`).
        case translations
        /// The eligibility rule language: syntax and type checking.
        case rules
        /// Checks across files of a loaded catalog (`CatalogLintRule`).
        case lint
        /// Mustache templates of styles.
        case templates
        /// Style folders (`style.json`, `tip.mustache`).
        case styles
        /// Scripts of `tipcat engine simulate`.
        case simulation
        /// The engine's use of a published catalog.
        case engine
        /// External plugins: plugins.json, running them, and what they answer (tested with fixture plugins).
        case plugins

        private var rank: Int { Stage.allCases.firstIndex(of: self) ?? 0 }

        public static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.rank < rhs.rank }
    }

    /// A stable kebab-case identifier such as `unknown-event`, printed as `[unknown-event]`.
    public let id: String
    /// The severity the rule reports at unless the emission site says otherwise.
    public let defaultSeverity: Severity
    /// Which stage reports it.
    public let stage: Stage
    /// One line for the README's table: what the rule checks.
    public let summary: String
    /// Catalog directories (relative path → file text) that must report the rule.
    public let triggeringExamples: [[String: String]]
    /// Catalog directories that must report nothing at all.
    public let nonTriggeringExamples: [[String: String]]
    /// Inputs that are not catalogs (a template, a line of a simulation script) and report the rule.
    public let snippets: [Snippet]

    /// A small input that is not a catalog and reports the rule.
    public struct Snippet: Sendable, Hashable {
        /// What the text is.
        public enum Kind: String, Sendable, Hashable {
            /// A Mustache template, reported when it is parsed.
            case template
            /// One line of a simulation script, reported when it is parsed against the sample catalog (`Catalog/`).
            case simulation
        }

        /// What the text is.
        public var kind: Kind
        /// The input.
        public var text: String

        /// A Mustache template that reports the rule when parsed.
        public static func template(_ text: String) -> Snippet { Snippet(kind: .template, text: text) }

        /// A simulation-script line that reports the rule when parsed against the sample catalog.
        public static func simulation(_ text: String) -> Snippet { Snippet(kind: .simulation, text: text) }
    }

    /// Declares a rule. The tests run the examples: triggering catalogs must report `id` at `severity`,
    /// non-triggering ones must load without any finding, and snippets must report `id`.
    public init(
        _ id: String, _ severity: Severity, stage: Stage, summary: String,
        triggering: [[String: String]] = [], nonTriggering: [[String: String]] = [], snippets: [Snippet] = []
    ) {
        self.id = id
        self.defaultSeverity = severity
        self.stage = stage
        self.summary = summary
        self.triggeringExamples = triggering
        self.nonTriggeringExamples = nonTriggering
        self.snippets = snippets
    }

    /// A finding of this rule at its default severity (or `severity`).
    public func diagnostic(
        _ message: String, at location: SourceLocation?, notes: [Diagnostic.Note] = [], severity: Severity? = nil
    ) -> Diagnostic {
        Diagnostic(severity ?? defaultSeverity, message, rule: id, at: location, notes: notes)
    }

    /// Rules are identified by their id.
    public static func == (lhs: DiagnosticRule, rhs: DiagnosticRule) -> Bool { lhs.id == rhs.id }

    /// Hashes the id.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The id.
    public var description: String { id }
}

extension Diagnostic {
    /// A finding of `rule`, at the rule's default severity unless `severity` is given.
    public init(
        _ message: String, rule: DiagnosticRule, at location: SourceLocation?, notes: [Note] = [],
        severity: Severity? = nil
    ) {
        self.init(severity ?? rule.defaultSeverity, message, rule: rule.id, at: location, notes: notes)
    }
}

extension Array where Element == DiagnosticRule {
    /// The rules as a Markdown table (id, severity, stage, summary), one row per rule in this order.
    public func markdownTable() -> String {
        var lines = ["| id | severity | stage | what |", "|---|---|---|---|"]
        for rule in self {
            let summary = rule.summary.replacingPipes()
            lines.append("| `\(rule.id)` | \(rule.defaultSeverity.rawValue) | \(rule.stage.rawValue) | \(summary) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// `|` escaped for a Markdown table cell.
    fileprivate func replacingPipes() -> String {
        var result = ""
        for character in self {
            if character == "|" { result += "\\|" } else { result.append(character) }
        }
        return result
    }
}
