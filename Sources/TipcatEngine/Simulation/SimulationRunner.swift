public import TipcatCatalog
public import TipcatCore

/// Runs a simulation script against an in-memory state — fresh, or a copy of `initialState` — a user's week in
/// a second.
///
/// The clock starts at `start` (2026-01-01T00:00:00Z unless given) and moves only with `at` and `advance`.
/// The engine is configured at the first command that needs it (with the latest `configure` and `env`
/// lines) and again after each `restart`. The run stops at the first unmet expectation or engine error.
public struct SimulationRunner: Sendable {
    public var catalog: Catalog
    public var revision: CatalogRevision?
    public var start: Timestamp
    /// Environment variables every engine start sees (a script's `env` lines add to them).
    public var environment: [String: String]
    /// The state the run starts from (empty by default): a device's stored state, to try a timeline on it.
    /// The run works on an in-memory copy; nothing is written back.
    public var initialState = TipStateSnapshot()
    /// Whether the run records `TipEvent`s (the events log) into `SimulationResult.events`.
    public var recordsEvents = false

    /// The default start of the clock.
    public static let defaultStart = Timestamp(secondsSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    /// Creates a runner for `catalog`.
    public init(catalog: Catalog, revision: CatalogRevision? = nil, start: Timestamp = SimulationRunner.defaultStart,
                environment: [String: String] = [:]) {
        self.catalog = catalog
        self.revision = revision
        self.start = start
        self.environment = environment
    }

    /// Runs every step of `script`; never throws — problems are in the result. Synchronous: the engine runs as
    /// a `TipEngineSession`, each `restart` a new one over the same in-memory store.
    public func run(_ script: SimulationScript) -> SimulationResult {
        var session = Session(runner: self)
        var result = SimulationResult(transcript: [], failure: nil)
        for step in script.steps {
            do throws(SimulationFailure) {
                try session.run(step)
                result.stepsRun += 1
                if case .expectNext = step.command { result.expectationsMet += step.count }
                if case .expectStatus = step.command { result.expectationsMet += step.count }
                if case .expectExplanation = step.command { result.expectationsMet += step.count }
                result.transcript.append(session.record(step))
            } catch {
                result.failure = error
                break
            }
        }
        result.events = session.events + session.takeEvents()
        return result
    }
}

/// What a run produced.
public struct SimulationResult: Sendable, Hashable {
    /// One entry per step run: the time, the line, and what changed.
    public var transcript: [SimulationTranscriptEntry]
    /// The first unmet expectation or engine error; nil when the script passed.
    public var failure: SimulationFailure?
    public var stepsRun = 0
    public var expectationsMet = 0
    /// The events the run recorded, oldest first (with `SimulationRunner.recordsEvents`).
    public var events: [TipEvent] = []

    /// Creates a result.
    public init(transcript: [SimulationTranscriptEntry], failure: SimulationFailure?) {
        self.transcript = transcript
        self.failure = failure
    }

    public var passed: Bool { failure == nil }

    /// The transcript as text: each step with its time, and under it the status changes and the tip `next()`
    /// offers whenever that changes. With `changesOnly`, steps that changed nothing are left out.
    public func transcriptText(changesOnly: Bool = false) -> String {
        transcript.filter { !changesOnly || !$0.changes.isEmpty || $0.nextChanged || $0.note != nil }
            .map(\.description).joined(separator: "\n")
    }
}

/// One step of a run and its effects.
public struct SimulationTranscriptEntry: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    /// The clock after the step.
    public var time: Timestamp
    /// The line as written.
    public var command: String
    /// Status changes the step caused (or that time caused by then), in catalog order.
    public var changes: [TipStatusChange]
    /// What `next()` returns after the step.
    public var next: TipInstanceID?
    /// Whether that differs from before the step.
    public var nextChanged: Bool
    /// Anything else worth saying (`restarted: transient parameters reset`).
    public var note: String?

    /// Creates an entry.
    public init(line: Int, time: Timestamp, command: String, changes: [TipStatusChange], next: TipInstanceID?,
                nextChanged: Bool, note: String? = nil) {
        self.line = line
        self.time = time
        self.command = command
        self.changes = changes
        self.next = next
        self.nextChanged = nextChanged
        self.note = note
    }

    public var description: String {
        var lines = ["\(time)  line \(line): \(command)"]
        let indent = String(repeating: " ", count: 22)
        if let note { lines.append(indent + note) }
        lines += changes.map { indent + $0.description }
        if nextChanged { lines.append(indent + "next: " + (next?.rawValue ?? "none")) }
        return lines.joined(separator: "\n")
    }
}

/// Why a run stopped: an unmet expectation or an engine error, at its line and column.
public struct SimulationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String
    /// The explanation of the tip concerned, when there is one (`expect next X` failed: why X is not next).
    public var explanation: String?

    /// Creates a failure.
    public init(location: SourceLocation, message: String, explanation: String? = nil) {
        self.location = location
        self.message = message
        self.explanation = explanation
    }

    /// `path:line:col: error: message`, then the explanation indented.
    public var description: String {
        var text = "\(location): error: \(message)"
        if let explanation {
            text += "\n" + explanation.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
        }
        return text
    }
}

/// A run's moving parts: the clock, the store between restarts, the engine of the current "process".
struct Session {
    let runner: SimulationRunner
    var clock: Timestamp
    var store: any TipStateStore = InMemoryTipStateStore()
    var settings = SimulationSettings()
    var environment: [String: String]
    var engine: TipEngineSession?
    var statuses: [TipInstanceID: TipStatus] = [:]
    var lastNext: TipInstanceID?
    var note: String?
    /// Instances that existed in the saved state the run starts from, until their first status is recorded.
    var restored: Set<TipInstanceID> = []
    /// Events taken from engines that ended (`restart`) or steps that ran.
    var events: [TipEvent] = []

    init(runner: SimulationRunner) {
        self.runner = runner
        self.store = InMemoryTipStateStore(runner.initialState)
        self.clock = runner.start
        self.environment = runner.environment
        if runner.initialState != TipStateSnapshot() {
            restored = Set(runner.initialState.tips.keys)
            for tip in runner.catalog.tips where tip.parameters.isEmpty { restored.insert(TipInstanceID(tip.id.rawValue)) }
        }
    }

    /// Starts the engine of the current process, unless it runs already.
    mutating func start(at location: SourceLocation) throws(SimulationFailure) {
        guard engine == nil else { return }
        let configuration = TipEngineConfiguration(
            displayFrequency: settings.displayFrequency, locale: settings.locale, clock: FixedClock(clock),
            overrides: settings.overrides, resetDatastore: settings.resetDatastore, environment: environment,
            timeZone: .fixed(seconds: settings.timeZoneOffset))
        do throws(TipEngineError) {
            var started = try TipEngineSession(catalog: runner.catalog, revision: runner.revision, store: store, configuration: configuration)
            started.recordsEvents = runner.recordsEvents
            engine = started
        } catch {
            throw SimulationFailure(location: location, message: "cannot start the engine: \(error)")
        }
    }

    /// Runs `body` on the engine of the current process (started on first use); its errors are failures at
    /// the tip's name when there is one, else at the line.
    mutating func withEngine<T>(
        at location: SourceLocation, _ name: SimulationTipName? = nil,
        _ body: (inout TipEngineSession) throws(TipEngineError) -> T
    ) throws(SimulationFailure) -> T {
        try start(at: location)
        guard var engine = self.engine else { throw SimulationFailure(location: location, message: "the engine did not start") }
        // Moved out while in use, so the session is not copied.
        self.engine = nil
        defer { self.engine = engine }
        do throws(TipEngineError) {
            return try body(&engine)
        } catch {
            throw SimulationFailure(location: name?.location ?? location, message: error.description)
        }
    }

    mutating func setClock(_ time: Timestamp) {
        clock = time
        engine?.setClock(FixedClock(time))
    }

    mutating func run(_ step: SimulationStep) throws(SimulationFailure) {
        if let at = step.at { setClock(at) }
        for _ in 0..<step.count {
            try run(step.command, at: step.location)
        }
    }

    mutating func run(_ command: SimulationCommand, at location: SourceLocation) throws(SimulationFailure) {
        switch command {
        case .clock:
            return
        case .advance(let span):
            setClock(clock + span)
        case .configure(let settings):
            guard engine == nil else {
                throw SimulationFailure(location: location, message: "the engine is already configured; 'configure' goes before the first command or right after 'restart'")
            }
            self.settings = settings
        case .environment(let name, let value):
            guard engine == nil else {
                throw SimulationFailure(location: location, message: "the engine already started; 'env' goes before the first command or right after 'restart'")
            }
            environment[name] = value
        case .restart:
            events += takeEvents()
            if let engine { store = engine.stateStore }
            engine = nil
            note = "restarted: state kept, transient parameters reset"
        case .donate(let event, let values):
            try withEngine(at: location) { engine throws(TipEngineError) in try engine.donate(event, values) }
        case .set(let name, let value):
            try withEngine(at: location) { engine throws(TipEngineError) in try engine.setParameter(name, to: value) }
        case .register(let tip, let values):
            try withEngine(at: location) { engine throws(TipEngineError) in _ = try engine.register(tip, parameters: values) }
        case .displayed(let name):
            try withEngine(at: location, name) { engine throws(TipEngineError) in try engine.displayed(name.id) }
        case .hidden(let name):
            try withEngine(at: location, name) { engine throws(TipEngineError) in try engine.hidden(name.id) }
        case .invalidate(let name, let reason):
            try withEngine(at: location, name) { engine throws(TipEngineError) in try engine.invalidate(name.id, reason: reason) }
        case .resetEligibility(let name):
            try withEngine(at: location, name) { engine throws(TipEngineError) in try engine.resetEligibility(name.id) }
        case .deleteDonations(let event):
            try withEngine(at: location) { engine throws(TipEngineError) in try engine.deleteDonations(event) }
        case .action(let name, let action):
            try withEngine(at: location, name) { engine throws(TipEngineError) in try engine.performAction(name.id, action: action) }
        case .shouldDisplay(let name):
            _ = try withEngine(at: location, name) { engine throws(TipEngineError) in try engine.displayDecision(name.id) }
        case .expectNext(let group, let expected):
            let actual = try withEngine(at: location) { engine throws(TipEngineError) in
                if let group { return try engine.currentTip(group: group) }
                return try engine.next()
            }
            guard actual != expected?.id else { return }
            let what = group.map { "the current tip of group '\($0)'" } ?? "next"
            let subject = expected?.id ?? actual
            var explanation: String?
            if let subject { explanation = try? withEngine(at: location) { engine throws(TipEngineError) in try engine.explain(subject).description } }
            throw SimulationFailure(
                location: location,
                message: "expected \(what) to be \(expected?.id.rawValue ?? "none"), got \(actual?.rawValue ?? "none")",
                explanation: explanation)
        case .expectStatus(let name, let expected):
            let actual = try withEngine(at: location, name) { engine throws(TipEngineError) in try engine.status(of: name.id) }
            guard actual != expected else { return }
            throw SimulationFailure(
                location: location, message: "expected \(name) to be \(expected), but it is \(actual)",
                explanation: try? withEngine(at: location) { engine throws(TipEngineError) in try engine.explain(name.id).description })
        case .expectExplanation(let name, let text):
            let explanation = try withEngine(at: location, name) { engine throws(TipEngineError) in try engine.explain(name.id).description }
            guard !explanation.contains(text) else { return }
            throw SimulationFailure(location: location, message: "expected the explanation of \(name) to contain \"\(text)\"",
                                    explanation: explanation)
        }
    }

    /// The events the current engine recorded since they were last taken.
    mutating func takeEvents() -> [TipEvent] {
        guard var engine else { return [] }
        let taken = engine.takeEvents()
        self.engine = engine
        return taken
    }

    /// The transcript entry for a step that just ran: status changes and `next()` since the previous step.
    mutating func record(_ step: SimulationStep) -> SimulationTranscriptEntry {
        var changes: [TipStatusChange] = []
        var next = lastNext
        if var engine, let summaries = try? engine.tips() {
            for summary in summaries where statuses[summary.instance] != summary.status {
                changes.append(TipStatusChange(instance: summary.instance, old: statuses[summary.instance], new: summary.status,
                                               isRestored: restored.contains(summary.instance)))
                statuses[summary.instance] = summary.status
            }
            next = (try? engine.next()) ?? nil
            events += engine.takeEvents()
            self.engine = engine
            restored = []
        }
        // Instances seen for the first time (at the first start, or newly registered) are only worth a line
        // when they are not simply pending.
        changes.removeAll { $0.old == nil && $0.new == .pending }
        let entry = SimulationTranscriptEntry(
            line: step.location.line, time: clock, command: step.text, changes: changes, next: next,
            nextChanged: next != lastNext, note: note)
        lastNext = next
        note = nil
        return entry
    }
}
