import Synchronization
import Testing
import TipcatCatalog
import TipcatCore
import TipcatEngine

/// Tips' content hashes are read only when the engine runs another version than its state was last used with.
@Suite struct DeferredHashesTests {
    final class Reads: Sendable {
        let count = Mutex(0)
    }

    /// A revision whose hashes count how often they were read.
    static func revision(_ version: String, _ hashes: [TipID: String], reads: Reads) -> CatalogRevision {
        CatalogRevision(version: version, contentHashes: TipContentHashes(deferred: {
            reads.count.withLock { $0 += 1 }
            return hashes
        }))
    }

    @Test func hashesAreReadOnlyForAnotherVersionAndThenOnce() throws {
        var catalog = sampleCatalog
        for index in catalog.tips.indices where catalog.tips[index].id == "ShowLocationTip" { catalog.tips[index].republish = .reset }
        let first = ["NewTrailTip": "a", "ShowLocationTip": "s", "HighlightTip": "h"] as [TipID: String]
        let store = InMemoryTipStateStore()
        let reads = Reads()
        // A new state: the version differs from none, so the hashes are read (and stored) once.
        var engine = try TipEngineSession(catalog: catalog, revision: Self.revision("1", first, reads: reads), store: store,
                                          configuration: TipEngineConfiguration(clock: FixedClock(time("2026-01-01T09:00"))))
        #expect(reads.count.withLock { $0 } == 1)
        try engine.invalidate("ShowLocationTip", reason: .tipClosed)
        // The same version again: nothing reads them.
        let sameReads = Reads()
        var same = try TipEngineSession(catalog: catalog, revision: Self.revision("1", first, reads: sameReads), store: engine.stateStore,
                                        configuration: TipEngineConfiguration(clock: FixedClock(time("2026-01-01T10:00"))))
        #expect(sameReads.count.withLock { $0 } == 0)
        #expect(try same.status(of: "ShowLocationTip") == .invalidated(.tipClosed))
        // Another version whose ShowLocationTip changed: read once, and the reset applies.
        let nextReads = Reads()
        var changed = first
        changed["ShowLocationTip"] = "s2"
        var upgraded = try TipEngineSession(catalog: catalog, revision: Self.revision("2", changed, reads: nextReads), store: engine.stateStore,
                                            configuration: TipEngineConfiguration(clock: FixedClock(time("2026-01-02T10:00"))))
        #expect(nextReads.count.withLock { $0 } == 1)
        #expect(try upgraded.status(of: "ShowLocationTip") != .invalidated(.tipClosed))
    }

    @Test func deferredAndGivenHashesCompareByContent() {
        let hashes: [TipID: String] = ["A": "1", "B": "2"]
        let given = CatalogRevision(version: "v", contentHashes: hashes)
        let deferred = CatalogRevision(version: "v", contentHashes: TipContentHashes(deferred: { hashes }))
        #expect(given == deferred)
        #expect(given.hashValue == deferred.hashValue)
        #expect(given != CatalogRevision(version: "v", contentHashes: ["A": "1"]))
        var record = EngineRecord(lastNewTipShown: nil, catalogVersion: "v", contentHashes: TipContentHashes(deferred: { hashes }))
        #expect(record == EngineRecord(catalogVersion: "v", contentHashes: hashes))
        record.contentHashes["C"] = "3"
        #expect(record.contentHashes == ["A": "1", "B": "2", "C": "3"])
    }
}
