public import TipcatCatalog

/// Testing overrides, as TipKit's `showAllTipsForTesting`, `showTipsForTesting`, `hideTipsForTesting` and
/// `hideAllTipsForTesting`, with TipKit's precedence: show these > hide these > show all > hide all.
///
/// Names are tip ids (every instance of the tip) or instance ids (`NewTrailTip-butler-fork`).
/// A shown tip bypasses its rules, the display frequency and its group's order; it still honours
/// invalidation (closing it works) and the catalog's kill switch.
public struct TipOverrides: Sendable, Hashable {
    public var showAllTips: Bool
    public var hideAllTips: Bool
    public var showTips: Set<String>
    public var hideTips: Set<String>

    /// Creates overrides; none by default.
    public init(showAllTips: Bool = false, hideAllTips: Bool = false, showTips: Set<String> = [], hideTips: Set<String> = []) {
        self.showAllTips = showAllTips
        self.hideAllTips = hideAllTips
        self.showTips = showTips
        self.hideTips = hideTips
    }

    /// Whether any override is set.
    public var isEmpty: Bool { !showAllTips && !hideAllTips && showTips.isEmpty && hideTips.isEmpty }

    /// Both sets of overrides: flags or'ed, lists united.
    public func merging(_ other: TipOverrides) -> TipOverrides {
        TipOverrides(
            showAllTips: showAllTips || other.showAllTips, hideAllTips: hideAllTips || other.hideAllTips,
            showTips: showTips.union(other.showTips), hideTips: hideTips.union(other.hideTips))
    }

    /// What the overrides say about one instance, or nil when they leave it to the rules.
    public func decision(for instance: TipInstanceID, of tip: TipID) -> TipOverrideDecision? {
        if isEmpty { return nil }
        if showTips.contains(instance.rawValue) || showTips.contains(tip.rawValue) { return .show(.showTips) }
        if hideTips.contains(instance.rawValue) || hideTips.contains(tip.rawValue) { return .hide(.hideTips) }
        if showAllTips { return .show(.showAllTips) }
        if hideAllTips { return .hide(.hideAllTips) }
        return nil
    }

    // MARK: Environment

    /// The environment variables read by `environment(_:)`.
    public enum Variable: String, Sendable, CaseIterable {
        case showAllTips = "TIPCAT_SHOW_ALL_TIPS"
        case showTips = "TIPCAT_SHOW_TIPS"
        case hideTips = "TIPCAT_HIDE_TIPS"
        case hideAllTips = "TIPCAT_HIDE_ALL_TIPS"
        case resetDatastore = "TIPCAT_RESET_DATASTORE"
    }

    /// Reads the `TIPCAT_*` variables: flags take `1`/`true`/`yes` or `0`/`false`/`no`/empty (any case);
    /// lists are comma-separated names (spaces around names ignored, empty entries skipped).
    public static func environment(_ environment: [String: String]) throws(TipEngineError)
        -> (overrides: TipOverrides, resetDatastore: Bool)
    {
        func flag(_ variable: Variable) throws(TipEngineError) -> Bool {
            guard let text = environment[variable.rawValue] else { return false }
            switch text.trimmingWhitespace().lowercased() {
            case "1", "true", "yes", "on": return true
            case "", "0", "false", "no", "off": return false
            default:
                throw .invalidEnvironment(variable: variable.rawValue, value: text, reason: "expected 1, true, yes or on, or 0, false, no, off or empty")
            }
        }
        func list(_ variable: Variable) -> Set<String> {
            guard let text = environment[variable.rawValue] else { return [] }
            return Set(text.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty })
        }
        let overrides = TipOverrides(
            showAllTips: try flag(.showAllTips), hideAllTips: try flag(.hideAllTips),
            showTips: list(.showTips), hideTips: list(.hideTips))
        return (overrides, try flag(.resetDatastore))
    }
}

/// What a testing override decided for a tip, and which setting decided it.
public enum TipOverrideDecision: Sendable, Hashable, CustomStringConvertible {
    case show(TipOverrideSetting)
    case hide(TipOverrideSetting)

    public var description: String {
        switch self {
        case .show(let setting): "shown by \(setting)"
        case .hide(let setting): "hidden by \(setting)"
        }
    }
}

/// The four testing settings, named as TipKit's calls with their environment twins.
public enum TipOverrideSetting: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case showTips, hideTips, showAllTips, hideAllTips

    public var description: String {
        switch self {
        case .showTips: "showTipsForTesting (TIPCAT_SHOW_TIPS)"
        case .hideTips: "hideTipsForTesting (TIPCAT_HIDE_TIPS)"
        case .showAllTips: "showAllTipsForTesting (TIPCAT_SHOW_ALL_TIPS)"
        case .hideAllTips: "hideAllTipsForTesting (TIPCAT_HIDE_ALL_TIPS)"
        }
    }
}
