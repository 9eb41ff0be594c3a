public import TipcatCatalog
public import TipcatCore

/// TipKit's display logic over a tip catalog, for apps, servers and command-line tools on any platform.
///
/// ```swift
/// let engine = TipEngine(catalog: catalog, store: InMemoryTipStateStore())
/// try await engine.configure(TipEngineConfiguration(displayFrequency: .daily))
/// try await engine.setParameter("isLoggedIn", to: .bool(true))
/// try await engine.donate("entered-backyard-detail-view", ["backyardID": .int(3)])
/// if let tip = try await engine.next() { show(tip); try await engine.displayed(tip) }
/// ```
///
/// An actor: calls from any task are serialized. Every call reads the injected clock once; state changes are
/// written to the `TipStateStore` as they happen. Status changes are published to `statusUpdates(for:)` and
/// `statusChanges()` subscribers after each call; changes caused by time alone (a window closing, a display
/// frequency interval ending) are noticed at the next call — the engine runs no timers.
public actor TipEngine {
    /// The catalog the engine runs.
    public nonisolated let catalog: Catalog
    /// Rules that failed to check (their tips never show), located in the tip files.
    public nonisolated let diagnostics: [Diagnostic]

    var core: EngineCore
    private var subscribers: [Int: Subscriber] = [:]
    private var nextSubscriber = 0
    private var published: [TipInstanceID: TipStatus] = [:]
    private var eventListeners: [Int: EventListener] = [:]

    private enum EventListener {
        case stream(AsyncStream<TipEvent>.Continuation)
        case handler(@Sendable (TipEvent) -> Void)
    }

    private enum Subscriber {
        case one(TipInstanceID, AsyncStream<TipStatus>.Continuation)
        case all(AsyncStream<TipStatusChange>.Continuation)
    }

    /// Creates an engine over `catalog` (optionally a published `revision` of it, for republish policies)
    /// keeping its state in `store`. Call `configure` before anything else.
    public init(catalog: Catalog, revision: CatalogRevision? = nil, store: any TipStateStore = InMemoryTipStateStore()) {
        let core = EngineCore(catalog: catalog, revision: revision, store: store)
        self.catalog = catalog
        self.diagnostics = core.compiled.diagnostics
        self.core = core
    }

    deinit {
        for subscriber in subscribers.values {
            switch subscriber {
            case .one(_, let continuation): continuation.finish()
            case .all(let continuation): continuation.finish()
            }
        }
        for listener in eventListeners.values {
            if case .stream(let continuation) = listener { continuation.finish() }
        }
    }

    // MARK: Configuration

    /// TipKit's `Tips.configure`: display frequency, locale, clock, overrides, reset; loads the state.
    /// Throws `alreadyConfigured` the second time.
    public func configure(_ configuration: TipEngineConfiguration = TipEngineConfiguration()) throws(TipEngineError) {
        try core.configure(configuration)
        publish()
    }

    /// Whether `configure` succeeded.
    public var isConfigured: Bool { core.configured }

    /// The display frequency in effect.
    public var displayFrequency: DisplayFrequency { core.frequency }

    /// The current time, from the engine's clock.
    public var now: Timestamp { core.now }

    /// Replaces the clock (simulations, `--now`). Changes that follow from the new time are published.
    public func setClock(_ clock: any TipClock) {
        core.clock = clock
        if core.configured { publish() }
    }

    /// The state store as it is now. For a value-type store this is a snapshot a new engine can start from.
    public var stateStore: any TipStateStore { core.store }

    // MARK: What the app reports

    /// Donates `event` now, or at a past `date`; `values` must give every declared field with its type.
    public func donate(_ event: EventID, _ values: [String: Value] = [:], at date: Timestamp? = nil) throws(TipEngineError) {
        try core.donate(event, values, at: date)
        publish()
    }

    /// Removes every donation of `event`.
    public func deleteDonations(_ event: EventID) throws(TipEngineError) {
        try core.deleteDonations(event)
        publish()
    }

    /// Sets an app parameter (type-checked against its declaration).
    public func setParameter(_ name: ParameterName, to value: Value) throws(TipEngineError) {
        try core.setParameter(name, value)
        publish()
    }

    /// The current value of an app parameter.
    public func parameter(_ name: ParameterName) throws(TipEngineError) -> Value {
        try core.parameter(name)
    }

    /// Registers an instance of a tip with parameters and returns its id (the formatted custom ID).
    /// Registering again with the same id updates the parameters; the state is per id.
    @discardableResult
    public func register(_ tip: TipID, parameters: [String: Value]) throws(TipEngineError) -> TipInstanceID {
        let id = try core.register(tip, parameters: parameters)
        publish()
        return id
    }

    /// The app shows the tip (counts one display and starts timing it).
    public func displayed(_ tip: TipInstanceID) throws(TipEngineError) {
        try core.displayed(tip)
        publish()
    }

    /// The app stopped showing the tip.
    public func hidden(_ tip: TipInstanceID) throws(TipEngineError) {
        try core.hidden(tip)
        publish()
    }

    /// Invalidates the tip (a tip id: all its instances), as TipKit's `invalidate(reason:)`.
    public func invalidate(_ tip: TipInstanceID, reason: TipInvalidationReason) throws(TipEngineError) {
        try core.invalidate(tip, reason: reason)
        publish()
    }

    /// The user closed the tip: `invalidate(tip, reason: .tipClosed)`.
    public func dismiss(_ tip: TipInstanceID) throws(TipEngineError) {
        try invalidate(tip, reason: .tipClosed)
    }

    /// Makes the tip eligible again: status, display count and duration reset (donations are kept).
    public func resetEligibility(_ tip: TipInstanceID) throws(TipEngineError) {
        try core.resetEligibility(tip)
        publish()
    }

    // MARK: What the engine decides

    /// The tip to show now, or nil.
    public func next() throws(TipEngineError) -> TipInstanceID? {
        let result = try core.next()
        publish()
        return result
    }

    /// The tip a group shows now, or nil (TipKit's `TipGroup.currentTip`).
    public func currentTip(group: GroupID) throws(TipEngineError) -> TipInstanceID? {
        let result = try core.currentTip(group: group)
        publish()
        return result
    }

    /// The tip's status now.
    public func status(of tip: TipInstanceID) throws(TipEngineError) -> TipStatus {
        let result = try core.status(of: tip)
        publish()
        return result
    }

    /// Whether the tip may show now: available and, in a group, the group's current tip. A tip that may not
    /// show and is not invalidated is reported to event listeners as `suppressed`.
    public func shouldDisplay(_ tip: TipInstanceID) throws(TipEngineError) -> Bool {
        try displayDecision(tip) == .show
    }

    /// Whether the tip may show now and, if not, why (reported to event listeners as `suppressed`).
    public func displayDecision(_ tip: TipInstanceID) throws(TipEngineError) -> TipDisplayDecision {
        let result = try core.displayDecision(tip)
        publish()
        return result
    }

    /// The user chose one of the tip's actions: an `actionPerformed` event, then the tip is invalidated with
    /// `actionPerformed` unless `invalidates` is false.
    public func performAction(_ tip: TipInstanceID, action: String, invalidates: Bool = true) throws(TipEngineError) {
        try core.performAction(tip, action: action, invalidates: invalidates)
        publish()
    }

    /// Every instance with its state, in catalog order.
    public func tips() throws(TipEngineError) -> [TipInstanceSummary] {
        let result = try core.summaries()
        publish()
        return result
    }

    /// Why the tip is (not) showing.
    public func explain(_ tip: TipInstanceID) throws(TipEngineError) -> TipExplanation {
        let result = try core.explain(tip)
        publish()
        return result
    }

    // MARK: Status streams

    /// The tip's status now, then each change (TipKit's `statusUpdates`).
    public func statusUpdates(for tip: TipInstanceID) throws(TipEngineError) -> AsyncStream<TipStatus> {
        let index = try core.resolve(tip)
        let id = core.instances[index].id
        let current = try core.status(of: id)
        let (stream, continuation) = AsyncStream.makeStream(of: TipStatus.self)
        startPublishing()
        continuation.yield(current)
        subscribers[nextSubscriber] = .one(id, continuation)
        nextSubscriber += 1
        return stream
    }

    /// Every status change of every instance from now on.
    public func statusChanges() -> AsyncStream<TipStatusChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: TipStatusChange.self)
        startPublishing()
        subscribers[nextSubscriber] = .all(continuation)
        nextSubscriber += 1
        return stream
    }

    // MARK: Events

    /// Every `TipEvent` from now on (`shown`, `closed`, `actionPerformed`, `invalidated`, `suppressed`), for an
    /// app's analytics. The stream keeps at most `bufferingNewest` events that were not read yet (older ones
    /// are dropped), so a slow reader never holds the engine up.
    public func events(bufferingNewest limit: Int = 1_000) -> AsyncStream<TipEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: TipEvent.self, bufferingPolicy: .bufferingNewest(max(1, limit)))
        core.events.isOn = true
        eventListeners[nextSubscriber] = .stream(continuation)
        nextSubscriber += 1
        return stream
    }

    /// Calls `handler` with each `TipEvent` from now on, on the engine's actor after the call that caused it
    /// (keep it short: hand the event to a queue or a task). Returns a token for `removeEventHandler`.
    @discardableResult
    public func onEvent(_ handler: @escaping @Sendable (TipEvent) -> Void) -> Int {
        core.events.isOn = true
        let token = nextSubscriber
        eventListeners[token] = .handler(handler)
        nextSubscriber += 1
        return token
    }

    /// Stops calling the handler `onEvent` returned `token` for.
    public func removeEventHandler(_ token: Int) {
        eventListeners[token] = nil
        if eventListeners.isEmpty { core.events = EngineCore.EventRecorder() }
    }

    /// Hands the recorded events to the listeners.
    private func deliverEvents() {
        let events = core.takeEvents()
        guard !events.isEmpty else { return }
        for (key, listener) in eventListeners.sorted(by: { $0.key < $1.key }) {
            switch listener {
            case .stream(let continuation):
                for event in events {
                    if case .terminated = continuation.yield(event) {
                        eventListeners[key] = nil
                        break
                    }
                }
            case .handler(let handler):
                for event in events { handler(event) }
            }
        }
        if eventListeners.isEmpty { core.events = EngineCore.EventRecorder() }
    }

    /// Remembers the current statuses, the baseline for changes (only while someone listens).
    private func startPublishing() {
        guard subscribers.isEmpty, core.configured, let summaries = try? core.summaries() else { return }
        published = Dictionary(summaries.map { ($0.instance, $0.status) }, uniquingKeysWith: { a, _ in a })
    }

    /// Sends the changes since the last call to the subscribers.
    private func publish() {
        if core.events.isOn { deliverEvents() }
        guard !subscribers.isEmpty, core.configured, let summaries = try? core.summaries() else { return }
        var changes: [TipStatusChange] = []
        for summary in summaries where published[summary.instance] != summary.status {
            changes.append(TipStatusChange(instance: summary.instance, old: published[summary.instance], new: summary.status))
            published[summary.instance] = summary.status
        }
        guard !changes.isEmpty else { return }
        for (key, subscriber) in subscribers {
            var ended = false
            switch subscriber {
            case .one(let id, let continuation):
                for change in changes where change.instance == id {
                    if case .terminated = continuation.yield(change.new) { ended = true }
                }
            case .all(let continuation):
                for change in changes {
                    if case .terminated = continuation.yield(change) { ended = true }
                }
            }
            if ended { subscribers[key] = nil }
        }
    }
}
