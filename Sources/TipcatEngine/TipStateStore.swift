public import TipcatCatalog
public import TipcatCore

/// Where an engine keeps a device's state between runs: donations, parameter values, per-instance tip
/// records and engine-wide bookkeeping.
///
/// The engine reads everything once (`load`) when it is configured, keeps its own indexes in memory, and
/// writes each change through as it happens, so a store is a plain persistence layer with no query logic.
/// `InMemoryTipStateStore` is the reference implementation; a SQLite store (WAL) implements the same calls.
///
/// Value-type stores (the in-memory one) are copied with the engine's state: `TipEngine.stateStore` returns
/// a snapshot that a new engine can start from, which is how a process restart is simulated.
public protocol TipStateStore: Sendable {
    /// Everything persisted. Called when the engine is configured.
    func load() throws(TipStateStoreError) -> TipStateSnapshot

    /// Records one donation.
    mutating func appendDonation(_ donation: StoredDonation) throws(TipStateStoreError)

    /// Removes every donation of `event`.
    mutating func deleteDonations(of event: EventID) throws(TipStateStoreError)

    /// Removes all but the `count` newest donations of `event` (the older ones can never be visible to rules
    /// again under the event's donation limit). Stores may keep more; the engine never reads them.
    mutating func pruneDonations(of event: EventID, keepingNewest count: Int) throws(TipStateStoreError)

    /// Creates or replaces the record of one tip instance.
    mutating func saveTip(_ record: TipRecord, for instance: TipInstanceID) throws(TipStateStoreError)

    /// Stores the value of a persistent app parameter (transient parameters are never stored).
    mutating func saveParameter(_ value: Value, for name: ParameterName) throws(TipStateStoreError)

    /// Stores the engine-wide record.
    mutating func saveEngineRecord(_ record: EngineRecord) throws(TipStateStoreError)

    /// Deletes everything (TipKit's `resetDatastore`).
    mutating func removeAll() throws(TipStateStoreError)
}

/// A store failure, with the store's own words (a SQLite message and code, a path).
public struct TipStateStoreError: TipcatError, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Everything a store holds.
public struct TipStateSnapshot: Sendable, Hashable {
    /// Every stored donation, in any order.
    public var donations: [StoredDonation]
    /// The record of each tip instance ever touched.
    public var tips: [TipInstanceID: TipRecord]
    /// Values of persistent app parameters that were set.
    public var parameters: [ParameterName: Value]
    public var engine: EngineRecord

    /// Creates a snapshot; everything defaults to empty.
    public init(
        donations: [StoredDonation] = [], tips: [TipInstanceID: TipRecord] = [:],
        parameters: [ParameterName: Value] = [:], engine: EngineRecord = EngineRecord()
    ) {
        self.donations = donations
        self.tips = tips
        self.parameters = parameters
        self.engine = engine
    }
}

/// One donation as stored: the event, when, and the field values by name.
public struct StoredDonation: Sendable, Hashable {
    public var event: EventID
    public var timestamp: Timestamp
    public var values: [String: Value]

    /// Creates a stored donation.
    public init(event: EventID, timestamp: Timestamp, values: [String: Value] = [:]) {
        self.event = event
        self.timestamp = timestamp
        self.values = values
    }
}

/// The persistent state of one tip instance.
public struct TipRecord: Sendable, Hashable {
    /// The tip this is an instance of.
    public var tip: TipID
    /// The tip parameters the instance was registered with (empty for tips without parameters).
    public var parameters: [String: Value]
    /// Why the instance was invalidated, if it was.
    public var invalidation: TipInvalidationReason?
    public var invalidatedAt: Timestamp?
    /// How many times the app reported it displayed.
    public var displayCount: Int
    /// How long it was on screen in total (closed displays only; see `onScreenSince`).
    public var displayDuration: TimeSpan
    public var firstDisplayed: Timestamp?
    public var lastDisplayed: Timestamp?
    /// When the current display started, while the app has not reported it hidden.
    public var onScreenSince: Timestamp?

    /// A fresh record: never shown, not invalidated.
    public init(tip: TipID, parameters: [String: Value] = [:]) {
        self.tip = tip
        self.parameters = parameters
        self.invalidation = nil
        self.invalidatedAt = nil
        self.displayCount = 0
        self.displayDuration = TimeSpan(seconds: 0)
        self.firstDisplayed = nil
        self.lastDisplayed = nil
        self.onScreenSince = nil
    }

    /// The record with its eligibility reset (status, count, duration); the tip and parameters are kept.
    public var resetEligibility: TipRecord { TipRecord(tip: tip, parameters: parameters) }
}

/// Engine-wide state.
public struct EngineRecord: Sendable, Hashable {
    /// When a tip was last shown for the first time (the start of the display-frequency interval).
    public var lastNewTipShown: Timestamp?
    /// The catalog version the state was last used with (for republish policies).
    public var catalogVersion: String?
    private var deferred: TipContentHashes

    /// The per-tip content hashes of that version.
    public var contentHashes: [TipID: String] {
        get { deferred.hashes }
        set { deferred = TipContentHashes(newValue) }
    }

    /// Creates a record; everything defaults to empty.
    public init(lastNewTipShown: Timestamp? = nil, catalogVersion: String? = nil, contentHashes: [TipID: String] = [:]) {
        self.init(lastNewTipShown: lastNewTipShown, catalogVersion: catalogVersion, contentHashes: TipContentHashes(contentHashes))
    }

    /// Creates a record whose hashes are read when first needed (a store keeps them for every tip; the engine
    /// reads them only when it runs another version).
    public init(lastNewTipShown: Timestamp?, catalogVersion: String?, contentHashes: TipContentHashes) {
        self.lastNewTipShown = lastNewTipShown
        self.catalogVersion = catalogVersion
        deferred = contentHashes
    }

    public static func == (lhs: EngineRecord, rhs: EngineRecord) -> Bool {
        lhs.lastNewTipShown == rhs.lastNewTipShown && lhs.catalogVersion == rhs.catalogVersion
            && (lhs.deferred === rhs.deferred || lhs.contentHashes == rhs.contentHashes)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(lastNewTipShown)
        hasher.combine(catalogVersion)
        hasher.combine(contentHashes)
    }
}
