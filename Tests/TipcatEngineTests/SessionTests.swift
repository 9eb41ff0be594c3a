import Testing
import TipcatCatalog
import TipcatCore
import TipcatEngine

/// `TipEngineSession` reads the stored state while it compiles the catalog; what it then configures with must
/// be exactly what a separate configure would read.
@Suite struct SessionTests {
    /// A store whose reads fail.
    struct BrokenStore: TipStateStore {
        func load() throws(TipStateStoreError) -> TipStateSnapshot { throw TipStateStoreError("disk on fire") }
        mutating func appendDonation(_ donation: StoredDonation) throws(TipStateStoreError) {}
        mutating func deleteDonations(of event: EventID) throws(TipStateStoreError) {}
        mutating func pruneDonations(of event: EventID, keepingNewest count: Int) throws(TipStateStoreError) {}
        mutating func saveTip(_ record: TipRecord, for instance: TipInstanceID) throws(TipStateStoreError) {}
        mutating func saveParameter(_ value: Value, for name: ParameterName) throws(TipStateStoreError) {}
        mutating func saveEngineRecord(_ record: EngineRecord) throws(TipStateStoreError) {}
        mutating func removeAll() throws(TipStateStoreError) {}
    }

    func storeWithState() throws -> InMemoryTipStateStore {
        var engine = try TipEngineSession(catalog: sampleCatalog, store: InMemoryTipStateStore(),
                                          configuration: TipEngineConfiguration(clock: FixedClock(time("2026-01-05T08:00"))))
        try engine.setParameter("isLoggedIn", to: .bool(true))
        for _ in 0..<3 { try engine.donate("entered-backyard-detail-view", ["backyardID": .int(3)]) }
        return try #require(engine.stateStore as? InMemoryTipStateStore)
    }

    @Test func sessionStartsFromTheStoredStateAsTheActorDoes() async throws {
        let store = try storeWithState()
        let configuration = TipEngineConfiguration(clock: FixedClock(time("2026-01-05T09:00")))
        var session = try TipEngineSession(catalog: sampleCatalog, store: store, configuration: configuration)
        let engine = TipEngine(catalog: sampleCatalog, store: store)
        try await engine.configure(configuration)
        #expect(try session.tips() == (try await engine.tips()))
        #expect(try session.status(of: "FavoriteBackyardTip") == .available)
        #expect(try session.parameter("isLoggedIn") == .bool(true))
    }

    @Test func resetDatastoreIgnoresWhatWasReadAhead() throws {
        let store = try storeWithState()
        var configuration = TipEngineConfiguration(clock: FixedClock(time("2026-01-05T09:00")))
        configuration.resetDatastore = true
        var session = try TipEngineSession(catalog: sampleCatalog, store: store, configuration: configuration)
        #expect(try session.status(of: "FavoriteBackyardTip") == .pending)
        #expect(try session.parameter("isLoggedIn") == .bool(false))
        #expect((session.stateStore as? InMemoryTipStateStore)?.donationCount == 0)
    }

    @Test func aFailingStoreFailsTheSession() {
        #expect(throws: TipEngineError.store(TipStateStoreError("disk on fire"))) {
            _ = try TipEngineSession(catalog: sampleCatalog, store: BrokenStore())
        }
    }
}
