public import TipcatCatalog
public import TipcatCore
public import TipcatLocalization

/// A parsed simulation script (`tipcat engine simulate SCRIPT`): a user's timeline against the engine.
///
/// One command per line; `#` starts a comment (outside quotes); values with spaces are quoted (`"Butler Fork"`).
/// ```
/// at 2026-01-01T09:00                       set the clock (an ISO 8601 time, UTC unless an offset is given)
/// at 2026-01-01T09:00 COMMAND               set the clock, then run COMMAND
/// advance 7d                                move the clock forward (30s, 15m, 2h, 5d, 1w)
/// repeat 3 COMMAND                          run COMMAND three times
/// configure frequency=weekly locale=fr show-tips=A,B hide-tips=C show-all hide-all reset-datastore
///                                           the configuration of the next engine start (first, or after restart)
/// env TIPCAT_SHOW_TIPS=A,B                  an environment variable for the next engine start
/// donate EVENT [field=value …]              donate an event now
/// set PARAMETER VALUE                       set an app parameter (lists: [a, "b c"])
/// register TIP param.field=value …          register a tip instance with parameters (custom ID)
/// displayed TIP | hidden TIP | dismiss TIP  the app shows / hides / the user closes a tip
/// invalidate TIP REASON                     actionPerformed, tipClosed, displayCountExceeded, displayDurationExceeded
/// reset-eligibility TIP                     make a tip eligible again
/// delete-donations EVENT                    remove an event's donations
/// action TIP ACTION                         the user chose the tip's action (then the tip is invalidated)
/// should-display TIP                        the app asks whether to show the tip (a 'suppressed' event if not)
/// restart                                   a new process: the state is kept, transient parameters reset
/// expect next TIP|none                      what next() returns
/// expect next --group GROUP TIP|none        what the group's currentTip is
/// expect status TIP STATUS                  pending, available or invalidated(REASON)
/// expect explain TIP "TEXT"                 the explanation contains TEXT
/// ```
public struct SimulationScript: Sendable, Hashable {
    /// The script's path, as given.
    public var path: String
    public var steps: [SimulationStep]

    /// Creates a script.
    public init(path: String, steps: [SimulationStep]) {
        self.path = path
        self.steps = steps
    }

    /// Parses `source` against `catalog` (events, parameters, tips, groups and value types are checked here,
    /// with line and column). Lines with errors are left out of the script; run it only without errors.
    public static func parse(_ source: SourceFile, catalog: Catalog) -> (script: SimulationScript, diagnostics: [Diagnostic]) {
        var parser = SimulationParser(source: source, catalog: catalog)
        let steps = parser.parse()
        return (SimulationScript(path: source.path, steps: steps), parser.diagnostics)
    }

    /// Parses script text.
    public static func parse(_ text: String, path: String, catalog: Catalog) -> (script: SimulationScript, diagnostics: [Diagnostic]) {
        parse(SourceFile(path: path, text: text), catalog: catalog)
    }
}

/// One line of a script.
public struct SimulationStep: Sendable, Hashable {
    /// Where the command starts.
    public var location: SourceLocation
    /// The line as written (without its comment), for transcripts.
    public var text: String
    /// The time `at` sets before the command, if any.
    public var at: Timestamp?
    /// How many times the command runs (`repeat N`).
    public var count: Int
    public var command: SimulationCommand

    /// Creates a step.
    public init(location: SourceLocation, text: String, at: Timestamp? = nil, count: Int = 1, command: SimulationCommand) {
        self.location = location
        self.text = text
        self.at = at
        self.count = count
        self.command = command
    }
}

/// A tip or instance named in a script, with where it was written.
public struct SimulationTipName: Sendable, Hashable, CustomStringConvertible {
    public var id: TipInstanceID
    public var location: SourceLocation

    /// Creates a name.
    public init(_ id: TipInstanceID, at location: SourceLocation) {
        self.id = id
        self.location = location
    }

    public var description: String { id.rawValue }
}

/// What one script line does.
public enum SimulationCommand: Sendable, Hashable {
    /// Nothing but the clock (`at TIME` alone).
    case clock
    case advance(TimeSpan)
    case configure(SimulationSettings)
    case environment(name: String, value: String)
    case donate(EventID, [String: Value])
    case set(ParameterName, Value)
    case register(TipID, [String: Value])
    case displayed(SimulationTipName)
    case hidden(SimulationTipName)
    case invalidate(SimulationTipName, TipInvalidationReason)
    case resetEligibility(SimulationTipName)
    case deleteDonations(EventID)
    /// `action TIP ACTION`: the user chose an action (the tip is invalidated with `actionPerformed`).
    case action(SimulationTipName, String)
    /// `should-display TIP`: the app asks whether to show the tip.
    case shouldDisplay(SimulationTipName)
    case restart
    /// `expect next [--group G] TIP|none`.
    case expectNext(group: GroupID?, SimulationTipName?)
    case expectStatus(SimulationTipName, TipStatus)
    case expectExplanation(SimulationTipName, contains: String)
}

/// The configuration a `configure` line gives the next engine start.
public struct SimulationSettings: Sendable, Hashable {
    public var displayFrequency: DisplayFrequency?
    public var locale: LocaleID?
    public var overrides: TipOverrides
    public var resetDatastore: Bool
    /// `time-zone=+02:00`: the user's time zone for calendar rules, a fixed offset (UTC by default).
    public var timeZoneOffset: Int = 0

    /// Creates settings; the catalog's frequency and locale, no overrides, by default.
    public init(displayFrequency: DisplayFrequency? = nil, locale: LocaleID? = nil, overrides: TipOverrides = TipOverrides(),
                resetDatastore: Bool = false) {
        self.displayFrequency = displayFrequency
        self.locale = locale
        self.overrides = overrides
        self.resetDatastore = resetDatastore
    }
}
