public import TipcatCore

/// `lint.json`: a catalog's house style as data — content rules over tip texts, and per-rule levels that
/// turn any diagnostic off or re-grade it.
///
/// The loader decodes the file (every problem a located diagnostic) and applies it at the end of
/// `CatalogLoader.load`; `apply(to:)` is public so findings produced later (external plugins) get the
/// same treatment.
public struct LintConfiguration: Sendable, Hashable {
    /// What `"rules": {"<id>": level}` does to the diagnostics of rule `<id>`.
    public enum Level: String, Sendable, Hashable, CaseIterable {
        /// Drop the diagnostics.
        case off
        case note
        case warning
        case error

        /// The severity diagnostics get, nil for `off`.
        public var severity: Severity? {
            switch self {
            case .off: nil
            case .note: .note
            case .warning: .warning
            case .error: .error
            }
        }
    }

    /// Rule id → level, from `"rules"`.
    public var levels: [String: Level]
    /// The content rules from `"content"`, in file order (disabled ones included, with `enabled == false`).
    public var contentRules: [ContentRule]
    /// The path of the `lint.json` the configuration came from; its own diagnostics are never changed.
    public var file: String?

    /// Rule ids whose diagnostics cannot be disabled or re-graded: `invalid-json` (a file that cannot be read),
    /// and the ids only `lint.json` itself is reported with, so a broken configuration can never hide itself.
    public static let lockedRuleIDs: Set<String> = Set([DiagnosticRule.unknownRule, .ruleNotConfigurable, .invalidRegex, .duplicateRuleID, .invalidJSON].map(\.id))

    /// A configuration; the default changes nothing and has no content rules.
    public init(levels: [String: Level] = [:], contentRules: [ContentRule] = [], file: String? = nil) {
        self.levels = levels
        self.contentRules = contentRules
        self.file = file
    }

    /// The level `"rules"` sets for `ruleID`; nil when it sets none, or the rule is locked.
    private func level(of ruleID: String) -> Level? {
        Self.lockedRuleIDs.contains(ruleID) ? nil : levels[ruleID]
    }

    /// Whether the diagnostics of rule `ruleID`, reported at `severity`, are errors once this configuration is
    /// applied (`apply(to:)`).
    public func makesErrors(of ruleID: String, reportedAt severity: Severity) -> Bool {
        level(of: ruleID).map { $0 == .error } ?? (severity == .error)
    }

    /// The diagnostics with `"rules"` applied: `off` drops a rule's findings, a severity replaces theirs.
    ///
    /// Diagnostics of `lockedRuleIDs` and diagnostics located in the configuration's own file are kept as
    /// they are. Order is preserved.
    public func apply(to diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard !levels.isEmpty else { return diagnostics }
        var result: [Diagnostic] = []
        result.reserveCapacity(diagnostics.count)
        for var diagnostic in diagnostics {
            guard let level = level(of: diagnostic.ruleID), file == nil || diagnostic.location?.file != file
            else {
                result.append(diagnostic)
                continue
            }
            guard let severity = level.severity else { continue }
            diagnostic.severity = severity
            result.append(diagnostic)
        }
        return result
    }
}
