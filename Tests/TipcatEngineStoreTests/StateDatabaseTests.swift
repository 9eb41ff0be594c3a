import Testing
import TipcatCatalog
import TipcatCore
import TipcatEngine
@testable import TipcatEngineStore
import TipcatSQLite
import TipcatTestSupport

/// The state database's storage settings and its pruning.
@Suite struct StateDatabaseTests {
    /// New databases get 1 KiB pages and checkpoint at about 4 MiB of log; existing ones keep their pages.
    @Test func pageSizeAndCheckpointInterval() throws {
        let scratch = try TemporaryDirectory()
        let fresh = try SQLiteTipStateStore(path: scratch.file("new.sqlite"))
        #expect(try fresh.database.connection.scalar("PRAGMA page_size")?.intValue == 1024)
        #expect(try fresh.database.connection.scalar("PRAGMA wal_autocheckpoint")?.intValue == 4096)
        #expect(try fresh.database.connection.journalMode() == "wal")

        let oldPath = scratch.file("old.sqlite")
        do {
            let old = try Connection(path: oldPath)
            try old.execute("PRAGMA page_size = 4096; CREATE TABLE unrelated (x INTEGER)")
        }
        var reopened = try SQLiteTipStateStore(path: oldPath)
        #expect(try reopened.database.connection.scalar("PRAGMA page_size")?.intValue == 4096)
        #expect(try reopened.database.connection.scalar("PRAGMA wal_autocheckpoint")?.intValue == 1024)
        try reopened.appendDonation(StoredDonation(event: "a", timestamp: Timestamp(secondsSince1970: 1)))
        #expect(try reopened.load().donations.count == 1)
    }

    /// Reading shares decoded event names and records between rows: what comes back is still exactly what was
    /// stored, in the order it was stored.
    @Test func donationsReadBackAsStored() throws {
        let scratch = try TemporaryDirectory()
        var store = try SQLiteTipStateStore(path: scratch.file("state.sqlite"))
        var stored: [StoredDonation] = []
        for index in 0..<300 {
            let event = EventID(["a", "entered-backyard-detail-view", "viewed-food-detail-with-a-long-name"][index % 3])
            var values: [String: Value] = ["backyardID": .int(index % 4)]
            if index % 5 == 0 { values["name"] = .string("name \(index)") }
            if index % 7 == 0 { values = [:] }
            let donation = StoredDonation(event: event, timestamp: Timestamp(secondsSince1970: Double(1000 - index % 50)), values: values)
            try store.appendDonation(donation)
            stored.append(donation)
        }
        #expect(try SQLiteTipStateStore(path: scratch.file("state.sqlite")).load().donations == stored)
    }

    /// Pruning keeps the newest donations of one event (ties by the order they were stored) and no other event's.
    @Test func pruningKeepsTheNewestOfOneEvent() throws {
        let scratch = try TemporaryDirectory()
        var store = try SQLiteTipStateStore(path: scratch.file("state.sqlite"))
        for index in 0..<10 {
            // Two donations per instant: the later-stored one is the newer.
            try store.appendDonation(StoredDonation(event: "a", timestamp: Timestamp(secondsSince1970: Double(index / 2)), values: ["n": .int(index)]))
            try store.appendDonation(StoredDonation(event: "b", timestamp: Timestamp(secondsSince1970: Double(index)), values: ["n": .int(index)]))
        }
        try store.pruneDonations(of: "a", keepingNewest: 3)
        let kept = try store.load().donations
        #expect(kept.filter { $0.event == "a" }.map { $0.values["n"] } == [.int(7), .int(8), .int(9)])
        #expect(kept.filter { $0.event == "b" }.count == 10)
        try store.pruneDonations(of: "a", keepingNewest: 0)
        #expect(try store.load().donations.allSatisfy { $0.event == "b" })
    }
}
