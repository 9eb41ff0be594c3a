public import TipcatCatalog
public import TipcatCore

/// Everything an engine call can reject. Bad input is an error value, never a crash.
public enum TipEngineError: TipcatError, Sendable, Hashable, CustomStringConvertible {
    /// `configure` was called a second time (TipKit's `tipsDatastoreAlreadyConfigured`).
    case alreadyConfigured
    /// A call that needs state came before `configure`.
    case notConfigured
    case unknownTip(String, suggestion: String?)
    /// A tip id named where one instance is needed, but the tip has several (or none yet).
    case ambiguousTip(TipID, instances: [TipInstanceID])
    case unknownEvent(String, suggestion: String?)
    case unknownParameter(String, suggestion: String?)
    case unknownGroup(String, suggestion: String?)
    /// An action id the tip does not have.
    case unknownAction(tip: TipID, action: String, suggestion: String?)
    /// A value that does not fit its declaration: `subject` names what was set (`$launchCount`,
    /// `field 'backyardID' of #entered-backyard-detail-view`, `parameter 'trail' of NewTrailTip`).
    case invalidValue(subject: String, expected: ValueType, got: Value)
    case missingField(event: String, field: String)
    case unknownField(event: String, field: String, suggestion: String?)
    /// A donation dated after `now`.
    case futureDonation(event: String, at: Timestamp, now: Timestamp)
    /// A tip with parameters used without registering an instance, or registered without all parameters.
    case tipNeedsParameters(TipID, missing: [String])
    /// A custom ID could not be formatted, or collides with another tip.
    case invalidCustomID(TipID, reason: String)
    /// A `TIPCAT_*` variable with a value that cannot be read.
    case invalidEnvironment(variable: String, value: String, reason: String)
    /// A configuration value out of range (a display frequency longer than `TipEngine.longestSpan`).
    case invalidConfiguration(String)
    /// The state store failed.
    case store(TipStateStoreError)

    public var description: String {
        func hint(_ suggestion: String?) -> String { suggestion.map { "; did you mean '\($0)'?" } ?? "" }
        switch self {
        case .alreadyConfigured:
            return "the engine is already configured; configure it once per engine"
        case .notConfigured:
            return "the engine is not configured; call configure first"
        case .unknownTip(let name, let suggestion):
            return "unknown tip '\(name)'\(hint(suggestion))"
        case .ambiguousTip(let tip, let instances):
            if instances.isEmpty { return "tip '\(tip)' has no registered instance; register it with its parameters" }
            return "tip '\(tip)' has \(instances.count) instances; name one: "
                + instances.map(\.rawValue).joined(separator: ", ")
        case .unknownEvent(let name, let suggestion):
            return "unknown event '\(name)'\(hint(suggestion))"
        case .unknownParameter(let name, let suggestion):
            return "unknown parameter '\(name)'\(hint(suggestion))"
        case .unknownGroup(let name, let suggestion):
            return "unknown group '\(name)'\(hint(suggestion))"
        case .unknownAction(let tip, let action, let suggestion):
            return "\(tip) has no action '\(action)'\(hint(suggestion))"
        case .invalidValue(let subject, let expected, let got):
            return "\(subject) is \(expected), not \(got)"
        case .missingField(let event, let field):
            return "a donation of #\(event) needs a value for '\(field)'"
        case .unknownField(let event, let field, let suggestion):
            return "#\(event) has no field '\(field)'\(hint(suggestion))"
        case .futureDonation(let event, let at, let now):
            return "a donation of #\(event) dated \(at) is in the future (now is \(now))"
        case .tipNeedsParameters(let tip, let missing):
            return "tip '\(tip)' needs values for its parameters: " + missing.joined(separator: ", ")
        case .invalidCustomID(let tip, let reason):
            return "cannot make the custom ID of '\(tip)': \(reason)"
        case .invalidEnvironment(let variable, let value, let reason):
            return "\(variable)=\(value): \(reason)"
        case .invalidConfiguration(let reason):
            return "invalid configuration: \(reason)"
        case .store(let error):
            return "state store: \(error.message)"
        }
    }
}
