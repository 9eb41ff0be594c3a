public import TipcatCatalog
public import TipcatCore
public import TipcatRules

/// The engine as a plain value with synchronous calls: for command-line tools and other single-threaded
/// callers that run one command per process and have no use for an actor or status streams.
///
/// It drives exactly the same state machine as `TipEngine`, with the same store and the same errors.
public struct TipEngineSession: Sendable {
    var core: EngineCore

    /// Creates and configures an engine over `catalog` (a published `revision` applies republish policies),
    /// loading the state from `store`.
    public init(
        catalog: Catalog, revision: CatalogRevision? = nil, store: any TipStateStore,
        configuration: TipEngineConfiguration = TipEngineConfiguration()
    ) throws(TipEngineError) {
        core = EngineCore(preloading: catalog, revision: revision, store: store)
        try core.configure(configuration)
    }

    /// Creates and configures an engine over a prepared catalog (its rules already checked and compiled).
    public init(
        prepared: PreparedCatalog, revision: CatalogRevision? = nil, store: any TipStateStore,
        configuration: TipEngineConfiguration = TipEngineConfiguration()
    ) throws(TipEngineError) {
        core = EngineCore(compiled: prepared.compiled, revision: revision, store: store)
        try core.configure(configuration)
    }

    /// Creates and configures an engine over a prepared catalog and the state `store.load()` gave (read while the
    /// catalog was being prepared); a reset in the configuration or the environment still wipes the store first.
    package init(
        prepared: PreparedCatalog, revision: CatalogRevision?, store: any TipStateStore, loaded: Result<TipStateSnapshot, TipStateStoreError>,
        configuration: TipEngineConfiguration
    ) throws(TipEngineError) {
        core = EngineCore(compiled: prepared.compiled, revision: revision, store: store, loaded: loaded)
        try core.configure(configuration)
    }

    /// The catalog the engine runs.
    public var catalog: Catalog { core.compiled.catalog }

    /// The ids of the catalog's tips, in catalog order (without decoding the tips of a prepared snapshot).
    public var tipIDs: [TipID] { core.compiled.tipIDs }

    /// The catalog's tip `id` (the first of that id), decoding only it when the catalog came prepared.
    public func tip(_ id: TipID) -> Tip? { core.compiled.tipIndex[id].map(core.compiled.tip) }
    /// Rules that failed to check (their tips never show).
    public var diagnostics: [Diagnostic] { core.compiled.diagnostics }
    /// The display frequency in effect.
    public var displayFrequency: DisplayFrequency { core.frequency }
    /// The current time, from the engine's clock.
    public var now: Timestamp { core.now }
    /// The state store.
    public var stateStore: any TipStateStore { core.store }

    /// Replaces the clock (simulations); what follows from the new time is decided at the next call.
    public mutating func setClock(_ clock: any TipClock) { core.clock = clock }

    /// Donates `event` now (or at a past `date`).
    public mutating func donate(_ event: EventID, _ values: [String: Value] = [:], at date: Timestamp? = nil) throws(TipEngineError) {
        try core.donate(event, values, at: date)
    }

    /// Deletes the stored donations of `event` beyond its `donationLimit.maxCount`, keeping the newest. The
    /// engine prunes the store itself as its log grows; a process that donates a few times before it exits
    /// calls this so the state database stays bounded too.
    public mutating func pruneStoredDonations(of event: EventID) throws(TipEngineError) { try core.pruneStoredDonations(of: event) }

    /// Removes every donation of `event`.
    public mutating func deleteDonations(_ event: EventID) throws(TipEngineError) { try core.deleteDonations(event) }

    /// Sets an app parameter (type-checked).
    public mutating func setParameter(_ name: ParameterName, to value: Value) throws(TipEngineError) {
        try core.setParameter(name, value)
    }

    /// The current value of an app parameter.
    public func parameter(_ name: ParameterName) throws(TipEngineError) -> Value { try core.parameter(name) }

    /// Registers an instance of a tip with parameters; returns its id.
    @discardableResult
    public mutating func register(_ tip: TipID, parameters: [String: Value]) throws(TipEngineError) -> TipInstanceID {
        try core.register(tip, parameters: parameters)
    }

    /// The app shows the tip.
    public mutating func displayed(_ tip: TipInstanceID) throws(TipEngineError) { try core.displayed(tip) }
    /// The app stopped showing the tip.
    public mutating func hidden(_ tip: TipInstanceID) throws(TipEngineError) { try core.hidden(tip) }
    /// Invalidates the tip (all instances of a tip id).
    public mutating func invalidate(_ tip: TipInstanceID, reason: TipInvalidationReason) throws(TipEngineError) {
        try core.invalidate(tip, reason: reason)
    }
    /// Makes the tip eligible again.
    public mutating func resetEligibility(_ tip: TipInstanceID) throws(TipEngineError) { try core.resetEligibility(tip) }

    /// The tip to show now, or nil.
    public mutating func next() throws(TipEngineError) -> TipInstanceID? { try core.next() }
    /// The tip a group shows now, or nil.
    public mutating func currentTip(group: GroupID) throws(TipEngineError) -> TipInstanceID? { try core.currentTip(group: group) }
    /// The tip's status now.
    public mutating func status(of tip: TipInstanceID) throws(TipEngineError) -> TipStatus { try core.status(of: tip) }
    /// Every instance with its state, in catalog order.
    public mutating func tips() throws(TipEngineError) -> [TipInstanceSummary] { try core.summaries() }
    /// Whether the tip may show now (available and its group's current tip); records a `suppressed` event when
    /// it may not and is not invalidated.
    public mutating func shouldDisplay(_ tip: TipInstanceID) throws(TipEngineError) -> Bool {
        try core.displayDecision(tip) == .show
    }
    /// Whether the tip may show now and, if not, why; records a `suppressed` event when it may not and is not
    /// invalidated.
    public mutating func displayDecision(_ tip: TipInstanceID) throws(TipEngineError) -> TipDisplayDecision {
        try core.displayDecision(tip)
    }
    /// The user chose one of the tip's actions: records `actionPerformed`, then invalidates the tip with
    /// `actionPerformed` unless `invalidates` is false.
    public mutating func performAction(_ tip: TipInstanceID, action: String, invalidates: Bool = true) throws(TipEngineError) {
        try core.performAction(tip, action: action, invalidates: invalidates)
    }

    /// Whether the session records `TipEvent`s (off by default); take them with `takeEvents()`.
    public var recordsEvents: Bool {
        get { core.events.isOn }
        set {
            core.events.isOn = newValue
            if !newValue { core.events.pending = [] }
        }
    }
    /// The events recorded since the last call, oldest first.
    public mutating func takeEvents() -> [TipEvent] { core.takeEvents() }

    /// Why the tip is (not) showing.
    public mutating func explain(_ tip: TipInstanceID) throws(TipEngineError) -> TipExplanation { try core.explain(tip) }

    /// The instance a name resolves to: a custom ID, or a tip id with one instance.
    public func instanceID(_ name: TipInstanceID) throws(TipEngineError) -> TipInstanceID {
        core.instances[try core.resolve(name)].id
    }

    /// The tip and the registered parameter values of an instance (a tip id with one instance works too).
    public func instance(_ name: TipInstanceID) throws(TipEngineError) -> (tip: TipID, parameters: [String: Value]) {
        let record = core.instances[try core.resolve(name)].record
        return (record.tip, record.parameters)
    }
}

extension TipEngineSession {
    /// Stores one donation of `event` without starting an engine, for a process that only donates: the values
    /// are checked against the declaration exactly as `donate` checks them, the donation is appended, and the
    /// event's stored donations are pruned to its donation limit (the newest kept), as `donate` followed by
    /// `pruneStoredDonations` does. The next engine to load the store decides with it.
    ///
    /// - Returns: when the donation happened (`date`, or `now`).
    @discardableResult
    public static func recordDonation(
        of event: EventDeclaration, _ values: [String: Value], at date: Timestamp? = nil, now: Timestamp, in store: inout some TipStateStore
    ) throws(TipEngineError) -> Timestamp {
        let when = date ?? now
        guard when <= now else { throw .futureDonation(event: event.id.rawValue, at: when, now: now) }
        let (stored, _) = try EngineCore.storedDonation(of: event, values, at: when)
        do throws(TipStateStoreError) {
            try store.appendDonation(stored)
            try store.pruneDonations(of: event.id, keepingNewest: event.donationLimit?.maxCount ?? DonationLog.defaultMaxCount)
        } catch {
            throw .store(error)
        }
        return when
    }

    /// Sets an app parameter without starting an engine, for a process that only sets it: the value is checked
    /// and normalized against the declaration exactly as `setParameter` does, and stored when the parameter is
    /// persistent (a transient value lasts only while an engine runs, so there is nothing to keep).
    ///
    /// - Returns: the value as stored (normalized to the parameter's type).
    @discardableResult
    public static func recordParameter(_ parameter: AppParameter, _ value: Value, in store: inout some TipStateStore) throws(TipEngineError) -> Value {
        guard let normal = value.normalized(to: parameter.type) else {
            throw .invalidValue(subject: "$\(parameter.name)", expected: parameter.type, got: value)
        }
        guard parameter.lifetime == .persistent else { return normal }
        do throws(TipStateStoreError) {
            try store.saveParameter(normal, for: parameter.name)
        } catch {
            throw .store(error)
        }
        return normal
    }
}
