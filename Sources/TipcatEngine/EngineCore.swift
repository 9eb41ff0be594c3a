import TipcatCatalog
import TipcatCore
import TipcatLocalization
import TipcatRules

/// The engine's state machine: synchronous, a value, with every TipKit rule in it. `TipEngine` (an actor)
/// wraps it for concurrent use and status streams; the simulation and the benchmarks drive the same code.
///
/// Every change is written through to the store before the in-memory state changes, so a failed write
/// leaves both as they were.
struct EngineCore: Sendable {
    /// One tip instance: a parameterless tip, or one custom ID of a tip with parameters.
    struct Instance: Sendable {
        let id: TipInstanceID
        /// Index into `compiled.tips`.
        let tip: Int
        var record: TipRecord
        var cache = RuleCache()
    }

    /// The last rule verdict of an instance and the times it stands for: from when it was computed until
    /// `validBefore` (see `RuleVerdict.validBefore`). A clock that moved backwards re-evaluates.
    struct RuleCache: Sendable {
        var valid = false
        var holds = false
        var evaluatedAt = 0.0
        var validBefore = 0.0
        /// The states of the tips the rules read (`tip(ID)`), in `referencedTips` order; the verdict stands
        /// only while they are the same.
        var tipStates: [RuleTipState] = []

        func stands(at now: Double) -> Bool { valid && evaluatedAt <= now && now < validBefore }
    }

    let compiled: EngineCatalog
    let revision: CatalogRevision?
    var store: any TipStateStore
    private(set) var configured = false
    var frequency: DisplayFrequency
    var locale: LocaleID
    var clock: any TipClock = SystemClock()
    /// The user's time zone for calendar rules.
    var timeZone: RuleTimeZone = .utc
    var overrides = TipOverrides()

    var parameters: [String: Value] = [:]
    var logs: [String: DonationLog] = [:]
    var instances: [Instance] = []
    var instanceIndex: [TipInstanceID: Int] = [:]
    /// Instances of each tip (indices into `instances`), ordered by instance id.
    var instancesByTip: [[Int]]
    var engineRecord = EngineRecord()
    /// Instances the app reported displayed and not yet hidden.
    var onScreen: Set<Int> = []
    /// Events for the events log, while someone listens.
    var events = EventRecorder()

    init(catalog: Catalog, revision: CatalogRevision?, store: any TipStateStore) {
        self.init(compiled: EngineCatalog(catalog), revision: revision, store: store)
    }

    init(compiled: EngineCatalog, revision: CatalogRevision?, store: any TipStateStore) {
        self.compiled = compiled
        self.revision = revision
        self.store = store
        self.frequency = compiled.declarations.settings.displayFrequency
        self.locale = compiled.declarations.settings.sourceLanguage
        self.instancesByTip = compiled.tips.map { _ in [] }
    }

    /// The stored state read (and its donations indexed) while the catalog was compiled, for `configure`.
    var preloaded: Result<(TipStateSnapshot, [String: DonationLog]), TipStateStoreError>?

    /// An engine whose stored state is read while its catalog is compiled (`TipEngineSession`, which configures
    /// at once): `configure` then uses what was read, unless it is asked to reset the store first.
    init(preloading catalog: Catalog, revision: CatalogRevision?, store: any TipStateStore) {
        let events = EngineCatalog.events(of: catalog)
        let (compiled, preloaded) = EngineCatalog.compile(catalog) {
            Result { () throws(TipStateStoreError) in
                let snapshot = try store.load()
                return (snapshot, EngineCore.logs(events, snapshot.donations))
            }
        }
        self.init(compiled: compiled, revision: revision, store: store)
        self.preloaded = preloaded
    }

    /// An engine whose stored state was read (`store.load()`) while its catalog was being prepared.
    init(compiled: EngineCatalog, revision: CatalogRevision?, store: any TipStateStore, loaded: Result<TipStateSnapshot, TipStateStoreError>) {
        self.init(compiled: compiled, revision: revision, store: store)
        let events = compiled.events
        preloaded = loaded.map { ($0, EngineCore.logs(events, $0.donations)) }
    }

    var now: Timestamp { clock.now }

    /// The longest interval the engine accepts (100 years): far beyond any real use, short enough that every
    /// date and duration stays printable.
    static let longestSpan = TimeSpan.longest

    func requireConfigured() throws(TipEngineError) {
        guard configured else { throw .notConfigured }
    }

    // MARK: Configuration

    /// TipKit's `Tips.configure`: reads the environment twins, optionally wipes the store, loads the state,
    /// applies republish policies. A second call fails.
    mutating func configure(_ configuration: TipEngineConfiguration) throws(TipEngineError) {
        guard !configured else { throw .alreadyConfigured }
        let outOfRange = compiled.withinLimits ? [] : CatalogLimits.problems(in: compiled.catalog)
        if !outOfRange.isEmpty {
            throw .invalidConfiguration("the catalog has values out of range (tipcat validate reports them): " + outOfRange.joined(separator: "; "))
        }
        let (fromEnvironment, resetFromEnvironment) = try TipOverrides.environment(configuration.environment)
        let overrides = configuration.overrides.merging(fromEnvironment)
        try validateNames(in: configuration.overrides)
        for (variable, names) in [(TipOverrides.Variable.showTips, fromEnvironment.showTips), (.hideTips, fromEnvironment.hideTips)] {
            do throws(TipEngineError) {
                try validateNames(in: TipOverrides(showTips: names))
            } catch {
                throw .invalidEnvironment(variable: variable.rawValue, value: configuration.environment[variable.rawValue] ?? "",
                                          reason: error.description)
            }
        }
        let frequency = configuration.displayFrequency ?? compiled.declarations.settings.displayFrequency
        let interval = frequency.interval.seconds
        guard interval >= 0, interval <= EngineCore.longestSpan.seconds else {
            throw .invalidConfiguration("the display frequency must be between 0 and \(EngineCore.longestSpan), not \(interval) seconds")
        }
        self.frequency = frequency
        locale = configuration.locale ?? compiled.declarations.settings.sourceLanguage
        clock = configuration.clock
        timeZone = configuration.timeZone
        self.overrides = overrides
        let reset = configuration.resetDatastore || resetFromEnvironment
        let preloaded = self.preloaded
        self.preloaded = nil
        do throws(TipStateStoreError) {
            if !reset, let preloaded {
                let (snapshot, logs) = try preloaded.get()
                load(snapshot, logs: logs)
            } else {
                if reset { try store.removeAll() }
                let snapshot = try store.load()
                load(snapshot, logs: EngineCore.logs(compiled.events, snapshot.donations))
            }
        } catch {
            throw .store(error)
        }
        configured = true
        try applyRepublishPolicies()
    }

    /// Override names must be tip ids or could be custom IDs (they start with a template's fixed prefix).
    func validateNames(in overrides: TipOverrides) throws(TipEngineError) {
        guard !overrides.showTips.isEmpty || !overrides.hideTips.isEmpty else { return }
        // Custom-ID templates are read from the whole tips (decoded now when the catalog came from a snapshot).
        let tips = compiled.catalog.tips
        let tipIDs = tips.map(\.id.rawValue)
        let prefixes: [String] = tips.compactMap { tip in
            guard let customID = tip.customID, let template = EngineCore.parsedTemplate(customID),
                  case .text(let prefix)? = template.parts.first
            else { return nil }
            return prefix.isEmpty ? nil : prefix
        }
        for name in overrides.showTips.union(overrides.hideTips).sorted() {
            if compiled.tipIndex[TipID(name)] != nil || prefixes.contains(where: { name.hasPrefix($0) }) { continue }
            throw .unknownTip(name, suggestion: Suggestions.closest(to: name, in: tipIDs))
        }
    }

    /// Rebuilds the in-memory state from a snapshot: parameter defaults (transient ones are never loaded),
    /// donation indexes, instances and their records.
    mutating func load(_ snapshot: TipStateSnapshot, logs: [String: DonationLog]) {
        parameters = [:]
        for parameter in compiled.declarations.parameters where parameters[parameter.name.rawValue] == nil {
            parameters[parameter.name.rawValue] = parameter.defaultValue.normalized(to: parameter.type) ?? parameter.defaultValue
        }
        for (name, value) in snapshot.parameters {
            guard let declaration = compiled.parameters[name.rawValue], declaration.lifetime == .persistent,
                  let normal = value.normalized(to: declaration.type)
            else { continue }
            parameters[name.rawValue] = normal
        }

        self.logs = logs
        instances = []
        instanceIndex = [:]
        instancesByTip = compiled.tips.map { _ in [] }
        onScreen = []
        instances.reserveCapacity(compiled.tips.count)
        instanceIndex.reserveCapacity(compiled.tips.count)
        for order in compiled.tips.indices where !compiled.flags[order].takesParameters {
            let tipID = compiled.tips[order].facts.id
            let id = TipInstanceID(tipID.rawValue)
            let stored = snapshot.tips.isEmpty ? nil : snapshot.tips[id].flatMap { $0.tip == tipID ? $0 : nil }
            addInstance(id, tip: order, record: stored ?? TipRecord(tip: tipID))
        }
        for (id, record) in snapshot.tips.sorted(by: { $0.key < $1.key }) {
            guard instanceIndex[id] == nil, let tip = compiled.tipIndex[record.tip], compiled.flags[tip].takesParameters,
                  let parameters = try? tipParameters(of: compiled.tips[tip].facts, record.parameters)
            else { continue }
            var normal = record
            normal.parameters = parameters
            addInstance(id, tip: tip, record: normal)
        }
        engineRecord = snapshot.engine
    }

    /// The donation logs of `events` from stored donations: for each event, the newest `maxCount` that still
    /// fit its declaration (the catalog may have changed), normalized, in time order.
    static func logs(_ events: [String: EventDeclaration], _ donations: [StoredDonation]) -> [String: DonationLog] {
        var byEvent: [String: [Int]] = [:]
        for index in donations.indices { byEvent[donations[index].event.rawValue, default: []].append(index) }
        // Each event's log is made on its own (a full state holds up to maxCount donations of every event): a
        // few events at a time, on every core.
        let declarations = Array(events)
        let grouped = byEvent
        let made = concurrentChunks(count: declarations.count, chunkSize: max(1, declarations.count / (4 * onlineCores))) { range in
            range.map { index -> (String, DonationLog) in
                let (id, declaration) = declarations[index]
                return (id, log(declaration, donations, grouped[id] ?? []))
            }
        }
        var logs: [String: DonationLog] = [:]
        logs.reserveCapacity(declarations.count)
        for chunk in made {
            for (id, log) in chunk { logs[id] = log }
        }
        return logs
    }

    /// The log of one event from the stored `donations` at `order` (theirs, in storage order).
    private static func log(_ declaration: EventDeclaration, _ donations: [StoredDonation], _ order: [Int]) -> DonationLog {
        var log = DonationLog(
            fields: declaration.fields.map(\.name),
            maxCount: declaration.donationLimit?.maxCount ?? DonationLog.defaultMaxCount,
            maxAge: declaration.donationLimit?.maxAge)
        var order = order
        if !zip(order, order.dropFirst()).allSatisfy({ donations[$0].timestamp <= donations[$1].timestamp }) {
            order.sort { (donations[$0].timestamp, $0) < (donations[$1].timestamp, $1) }
        }
        // Only the newest `maxCount` valid donations can ever be visible: collect those, newest first, into
        // one flat array of field values. Donations that no longer fit the declaration (the catalog
        // changed) are ignored.
        let fields = declaration.fields
        var times: [Timestamp] = []
        var values: [Value] = []
        donation: for index in order.reversed() where times.count < log.maxCount {
            let stored = donations[index].values
            for field in fields {
                guard let value = stored[field.name], let normal = value.normalized(to: field.type) else {
                    values.removeLast(values.count - times.count * fields.count)
                    continue donation
                }
                values.append(normal)
            }
            times.append(donations[index].timestamp)
        }
        for kept in times.indices.reversed() {
            log.append(at: times[kept], values: values[(kept * fields.count)..<((kept + 1) * fields.count)])
        }
        return log
    }

    mutating func addInstance(_ id: TipInstanceID, tip: Int, record: TipRecord) {
        let index = instances.count
        instances.append(Instance(id: id, tip: tip, record: record))
        instanceIndex[id] = index
        let siblings = instancesByTip[tip]
        let position = siblings.firstIndex { instances[$0].id > id } ?? siblings.count
        instancesByTip[tip].insert(index, at: position)
        if record.onScreenSince != nil { onScreen.insert(index) }
    }

    /// Resets the state of `reset` tips whose content changed since the version the state was used with.
    mutating func applyRepublishPolicies() throws(TipEngineError) {
        guard let revision, engineRecord.catalogVersion != revision.version else { return }
        if engineRecord.catalogVersion != nil {
            for tip in compiled.tips where tip.facts.republish == .reset {
                guard let old = engineRecord.contentHashes[tip.facts.id], old != revision.contentHashes[tip.facts.id] else {
                    continue
                }
                for index in instancesByTip[tip.order] {
                    try update(index) { $0 = $0.resetEligibility }
                }
            }
        }
        var record = engineRecord
        record.catalogVersion = revision.version
        record.contentHashes = revision.contentHashes
        try saveEngineRecord(record)
    }

    // MARK: Names

    /// The instance `name` means: an instance id, or the id of a tip with exactly one instance.
    func resolve(_ name: TipInstanceID) throws(TipEngineError) -> Int {
        if let index = instanceIndex[name] { return index }
        if let tip = compiled.tipIndex[TipID(name.rawValue)] {
            let members = instancesByTip[tip]
            if members.count == 1, let only = members.first { return only }
            throw .ambiguousTip(TipID(name.rawValue), instances: members.map { instances[$0].id })
        }
        throw .unknownTip(name.rawValue, suggestion: Suggestions.closest(to: name.rawValue, in: knownNames))
    }

    /// Every instance `name` means: an instance id, or all instances of a tip.
    func resolveAll(_ name: TipInstanceID) throws(TipEngineError) -> [Int] {
        if let index = instanceIndex[name] { return [index] }
        if let tip = compiled.tipIndex[TipID(name.rawValue)] { return instancesByTip[tip] }
        throw .unknownTip(name.rawValue, suggestion: Suggestions.closest(to: name.rawValue, in: knownNames))
    }

    var knownNames: [String] { instances.map(\.id.rawValue) + compiled.tipIDs.map(\.rawValue) }

    // MARK: Store writes

    /// Changes an instance's record: written to the store first, then kept in memory (with `onScreen`).
    mutating func update(_ index: Int, _ change: (inout TipRecord) -> Void) throws(TipEngineError) {
        var record = instances[index].record
        change(&record)
        do throws(TipStateStoreError) {
            try store.saveTip(record, for: instances[index].id)
        } catch {
            throw .store(error)
        }
        let old = instances[index].record
        instances[index].record = record
        if events.isOn { recordEvents(index, from: old, to: record) }
        if record.onScreenSince == nil { onScreen.remove(index) } else { onScreen.insert(index) }
    }

    mutating func saveEngineRecord(_ record: EngineRecord) throws(TipEngineError) {
        do throws(TipStateStoreError) {
            try store.saveEngineRecord(record)
        } catch {
            throw .store(error)
        }
        engineRecord = record
    }
}
