public import TipcatCore
public import TipcatLocalization

/// One content rule of `lint.json` (Vale-style): what it looks for in tip texts, how serious a finding is,
/// the message, and which texts it reads.
public struct ContentRule: Sendable, Hashable {
    /// The localizable texts of a tip.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case title
        case message
        /// Action (button) titles.
        case action
    }

    /// Which texts a rule reads.
    public struct Scope: Sendable, Hashable {
        /// The fields; all of them by default.
        public var fields: Set<Field>
        /// The locales; nil means the source text and every translated locale. A locale matches its
        /// regional variants (`de` matches `de-CH`).
        public var locales: [LocaleID]?

        public init(fields: Set<Field> = Set(Field.allCases), locales: [LocaleID]? = nil) {
            self.fields = fields
            self.locales = locales
        }
    }

    /// Title case or sentence case.
    public enum CapitalizationStyle: String, Sendable, Hashable, CaseIterable {
        /// `Save as a Favorite`: every word capitalized except articles, coordinating conjunctions and
        /// prepositions of four letters or fewer, unless first, last or after a colon.
        case title
        /// `Save as a favorite`: only the first word (and the first word of each sentence) capitalized.
        case sentence
    }

    /// One `"swap"` entry of a substitution rule: write `expected` instead of `pattern`.
    public struct Swap: Sendable, Hashable {
        public var pattern: String
        public var expected: String
        public init(_ pattern: String, _ expected: String) {
            self.pattern = pattern
            self.expected = expected
        }
    }

    /// What the rule checks.
    public enum Kind: Sendable, Hashable {
        /// Banned words or phrases, matched as whole words (regular expressions when `regex`).
        case existence(tokens: [String], ignoreCase: Bool, regex: Bool)
        /// Preferred wording: each swap's pattern is reported with its expected replacement.
        case substitution(swaps: [Swap], ignoreCase: Bool, regex: Bool)
        /// Title or sentence case; `exceptions` are words left as written (brand names, proper nouns).
        case capitalization(style: CapitalizationStyle, exceptions: Set<String>)
        /// At most `max` display columns, with per-locale limits (`de` matches `de-CH`).
        case length(max: Int, maxByLocale: [LocaleID: Int])
        /// Endings and characters a text must not have.
        case punctuation(forbidEnding: [String], forbid: [String])

        /// The name written in `"kind"`.
        public var name: String {
            switch self {
            case .existence: "existence"
            case .substitution: "substitution"
            case .capitalization: "capitalization"
            case .length: "length"
            case .punctuation: "punctuation"
            }
        }
    }

    /// Kebab-case id, reported as the diagnostic's rule id.
    public var id: String
    public var kind: Kind
    public var severity: Severity
    /// The finding's message with `{match}`, `{expected}`, `{max}`, `{actual}` and `{text}` substitutions;
    /// nil for the kind's default message.
    public var message: String?
    public var scope: Scope
    public var enabled: Bool
    /// Where the rule's id is written in `lint.json`.
    public var location: SourceLocation?

    public init(
        id: String, kind: Kind, severity: Severity = .warning, message: String? = nil, scope: Scope = Scope(),
        enabled: Bool = true, location: SourceLocation? = nil
    ) {
        self.id = id
        self.kind = kind
        self.severity = severity
        self.message = message
        self.scope = scope
        self.enabled = enabled
        self.location = location
    }
}
