public import TipcatCore

/// A finding about one rule, located by UTF-8 byte offsets in the rule text.
///
/// The caller maps `range` to a file location (the rule text usually sits inside a JSON string).
public struct RuleDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// Errors reject the rule; warnings (`always-true`, `always-false`) do not.
    public var severity: Severity
    /// One line for people, such as `unknown event '#didVisit'; did you mean '#visited-region'?`.
    public var message: String
    /// A stable, kebab-case identifier such as `unknown-event` or `rule-syntax`.
    public var ruleID: String
    /// UTF-8 byte offsets of the offending token or expression in the rule text.
    public var range: Range<Int>
    /// Related places outside the rule (the declaration of a limit the rule cannot reach).
    public var notes: [Diagnostic.Note] = []

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ message: String, rule ruleID: String, range: Range<Int>) {
        self.severity = severity
        self.message = message
        self.ruleID = ruleID
        self.range = range
    }

    /// A finding of `rule`, at the rule's default severity unless `severity` is given.
    public init(_ message: String, rule: DiagnosticRule, range: Range<Int>, severity: Severity? = nil) {
        self.init(severity ?? rule.defaultSeverity, message, rule: rule.id, range: range)
    }

    /// This finding as a general `Diagnostic` at `location` (the location of `range.lowerBound` in the file).
    public func diagnostic(at location: SourceLocation?, notes: [Diagnostic.Note] = []) -> Diagnostic {
        Diagnostic(severity, message, rule: ruleID, at: location, notes: notes)
    }

    /// `start..<end: severity: message [rule-id]`, for debugging and test failures.
    public var description: String {
        "\(range.lowerBound)..<\(range.upperBound): \(severity.rawValue): \(message) [\(ruleID)]"
    }
}

extension Array where Element == RuleDiagnostic {
    /// Whether any of the diagnostics is an error.
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
