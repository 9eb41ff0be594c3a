public import TipcatCatalog
public import TipcatCore

/// A `TipStateStore` that lives in memory: for tests, simulations and apps that keep no state.
///
/// A value: copying it copies the state, so `TipEngine.stateStore` hands out a snapshot that a new engine
/// can start from (a simulated restart).
public struct InMemoryTipStateStore: TipStateStore {
    /// Donations per event, in the order they were stored.
    public private(set) var donations: [EventID: [StoredDonation]]
    public private(set) var tips: [TipInstanceID: TipRecord]
    public private(set) var parameters: [ParameterName: Value]
    public private(set) var engine: EngineRecord

    /// Creates a store holding `snapshot` (empty by default).
    public init(_ snapshot: TipStateSnapshot = TipStateSnapshot()) {
        var byEvent: [EventID: [StoredDonation]] = [:]
        for donation in snapshot.donations { byEvent[donation.event, default: []].append(donation) }
        self.donations = byEvent
        self.tips = snapshot.tips
        self.parameters = snapshot.parameters
        self.engine = snapshot.engine
    }

    /// How many donations are stored, over all events.
    public var donationCount: Int { donations.values.reduce(0) { $0 + $1.count } }

    public func load() throws(TipStateStoreError) -> TipStateSnapshot {
        var all: [StoredDonation] = []
        all.reserveCapacity(donationCount)
        for event in donations.keys.sorted() { all.append(contentsOf: donations[event] ?? []) }
        return TipStateSnapshot(donations: all, tips: tips, parameters: parameters, engine: engine)
    }

    public mutating func appendDonation(_ donation: StoredDonation) throws(TipStateStoreError) {
        donations[donation.event, default: []].append(donation)
    }

    public mutating func deleteDonations(of event: EventID) throws(TipStateStoreError) {
        donations[event] = nil
    }

    public mutating func pruneDonations(of event: EventID, keepingNewest count: Int) throws(TipStateStoreError) {
        guard var list = donations[event], list.count > count else { return }
        if !zip(list, list.dropFirst()).allSatisfy({ $0.timestamp <= $1.timestamp }) {
            // Past-dated donations arrived out of order: order by time, keeping arrival order for ties.
            list = list.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
                .map(\.element)
        }
        list.removeFirst(list.count - max(0, count))
        donations[event] = list
    }

    public mutating func saveTip(_ record: TipRecord, for instance: TipInstanceID) throws(TipStateStoreError) {
        tips[instance] = record
    }

    public mutating func saveParameter(_ value: Value, for name: ParameterName) throws(TipStateStoreError) {
        parameters[name] = value
    }

    public mutating func saveEngineRecord(_ record: EngineRecord) throws(TipStateStoreError) {
        engine = record
    }

    public mutating func removeAll() throws(TipStateStoreError) {
        donations = [:]
        tips = [:]
        parameters = [:]
        engine = EngineRecord()
    }
}
