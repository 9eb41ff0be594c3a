/// How serious a finding is. Errors always fail `validate`; warnings fail it only with `--strict`.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    case note
    case warning
    case error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// One finding about user input: what is wrong, where, how bad, and which rule says so.
///
/// Libraries return diagnostics; they never print them. The CLI chooses the output format.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public var severity: Severity
    public var message: String
    /// A stable, kebab-case identifier such as `unknown-event`: the id of a `DiagnosticRule` (all of them are
    /// listed in `DiagnosticRules.all` and the README).
    public var ruleID: String
    public var location: SourceLocation?
    /// Extra lines printed as `note:` under the finding (for example the first definition of a duplicate).
    public var notes: [Note]

    public struct Note: Hashable, Sendable {
        public var message: String
        public var location: SourceLocation?
        /// A note with an optional location.
        public init(_ message: String, at location: SourceLocation? = nil) {
            self.message = message
            self.location = location
        }
    }

    /// A finding with an explicit severity and rule id. Code that reports findings names a `DiagnosticRule`
    /// instead (`Diagnostic(message, rule: .unknownEvent, at: location)`); this one re-creates findings that
    /// already carry an id (from a `RuleDiagnostic`, a file, a child process).
    public init(
        _ severity: Severity, _ message: String, rule ruleID: String,
        at location: SourceLocation? = nil, notes: [Note] = []
    ) {
        self.severity = severity
        self.message = message
        self.ruleID = ruleID
        self.location = location
        self.notes = notes
    }

    /// An error finding with a raw rule id.
    @available(*, deprecated, message: "declare a DiagnosticRule and use Diagnostic(_:rule:at:notes:)")
    public static func error(_ message: String, rule: String, at location: SourceLocation?, notes: [Note] = []) -> Diagnostic {
        Diagnostic(.error, message, rule: rule, at: location, notes: notes)
    }

    /// A warning finding with a raw rule id.
    @available(*, deprecated, message: "declare a DiagnosticRule and use Diagnostic(_:rule:at:notes:)")
    public static func warning(_ message: String, rule: String, at location: SourceLocation?, notes: [Note] = []) -> Diagnostic {
        Diagnostic(.warning, message, rule: rule, at: location, notes: notes)
    }

    /// swiftc style: `path:line:col: error: message [rule-id]`.
    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity.rawValue): \(message) [\(ruleID)]"
    }
}

extension Array where Element == Diagnostic {
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// Sorted by file, line, column, then severity (errors first) — the order people read them in.
    public func sortedForOutput() -> [Diagnostic] {
        enumerated().sorted { a, b in
            switch (a.element.location, b.element.location) {
            case let (l?, r?) where l != r: return l < r
            case (nil, _?): return false
            case (_?, nil): return true
            default:
                if a.element.severity != b.element.severity { return a.element.severity > b.element.severity }
                return a.offset < b.offset
            }
        }.map(\.element)
    }
}
