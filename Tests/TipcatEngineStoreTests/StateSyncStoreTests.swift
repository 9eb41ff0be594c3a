import Foundation
import Testing
import TipcatCatalog
import TipcatCore
import TipcatEngine
@testable import TipcatEngineStore
import TipcatSQLite
import TipcatTestSupport

/// The state database's sync bookkeeping: ids, stamps, per-device counters, deletion marks, the migration of
/// databases made before it, and merging into a database.
@Suite struct StateSyncStoreTests {
    static func time(_ seconds: Double) -> Timestamp { Timestamp(secondsSince1970: 1_767_600_000 + seconds) }

    /// A database from before state sync (only migration 001) with donations, tips and a parameter opens,
    /// migrates, loads the same state, and exports it as this device's: donations numbered by their row ids,
    /// display counts as this device's counter, the invalidation as this device's. New donations get higher
    /// sequence numbers.
    @Test func oldDatabasesMigrate() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.file("old.sqlite")
        do {
            let connection = try Connection(path: path)
            try Migrator([StateSchema.migrations[0]], tableName: "state_migrations").migrate(connection)
            for (index, event) in ["opened-map", "opened-map", "visited-region"].enumerated() {
                let fields: [String: Value] = event == "visited-region" ? ["region": .string("Wasatch")] : [:]
                try connection.run("INSERT INTO donations (event, time, fields) VALUES (?, ?, ?)", [
                    .text(event), .real(Self.time(Double(index)).secondsSince1970), .blob(StoredValueCodec.encode(record: fields)),
                ])
            }
            try connection.run("""
                INSERT INTO tips (instance, tip, parameters, invalidation, invalidated_at, display_count, display_duration,
                    first_displayed, last_displayed, on_screen_since) VALUES ('HighlightTip', 'HighlightTip', ?, 'tipClosed', ?, 2, 7.5, ?, ?, NULL)
                """, [.blob(StoredValueCodec.encode(record: [:])), .real(Self.time(20).secondsSince1970),
                      .real(Self.time(5).secondsSince1970), .real(Self.time(10).secondsSince1970)])
            try connection.run("INSERT INTO parameters (name, value) VALUES ('isLoggedIn', ?)", [.blob(StoredValueCodec.encode(.bool(true)))])
        }
        var store = try SQLiteTipStateStore(path: path)
        let loaded = try store.load()
        #expect(loaded.donations.map(\.event) == ["opened-map", "opened-map", "visited-region"])
        #expect(loaded.tips["HighlightTip"]?.displayCount == 2)
        #expect(loaded.tips["HighlightTip"]?.invalidation == .tipClosed)
        #expect(loaded.parameters["isLoggedIn"] == .bool(true))

        let device = try store.deviceID()
        #expect(device.count == 16 && device.allSatisfy(\.isHexDigit))
        let exported = try store.exportState()
        #expect(exported.device == device)
        #expect(exported.state.donations.keys.sorted() == (1...3).map { SyncState.DonationID(device: device, sequence: $0) })
        let tip = try #require(exported.state.tips["HighlightTip"])
        #expect(tip.displays == [device: SyncState.DisplayCounter(count: 2, seconds: 7.5, first: Self.time(5), last: Self.time(10))])
        #expect(tip.invalidation == SyncState.Invalidation(reason: .tipClosed, at: Self.time(20), device: device))
        #expect(exported.state.parameters["isLoggedIn"]?.value == .bool(true))
        #expect(exported.state.parameters["isLoggedIn"]?.stamp.device == device)

        try store.appendDonation(StoredDonation(event: "opened-map", timestamp: Self.time(30)))
        #expect(try store.exportState().state.donations[.init(device: device, sequence: 4)]?.timestamp == Self.time(30))
        // Reopening migrates nothing again.
        #expect(try SQLiteTipStateStore(path: path).deviceID() == device)
    }

    /// Sequence numbers are never reused, even after the newest donation is deleted or everything is reset;
    /// delete-donations leaves a deletion mark at the newest donation it deleted.
    @Test func sequenceNumbersAreNeverReused() throws {
        let scratch = try TemporaryDirectory()
        var store = try SQLiteTipStateStore(path: scratch.file("state.sqlite"))
        let device = try store.deviceID()
        for index in 0..<3 { try store.appendDonation(StoredDonation(event: "opened-map", timestamp: Self.time(Double(index)))) }
        try store.deleteDonations(of: "opened-map")
        #expect(try store.exportState().state.deletions["opened-map"]
                == SyncState.DonationKey(timestamp: Self.time(2), id: .init(device: device, sequence: 3)))
        try store.appendDonation(StoredDonation(event: "opened-map", timestamp: Self.time(9)))
        #expect(try store.exportState().state.donations.keys.map(\.sequence) == [4])
        try store.removeAll()
        try store.appendDonation(StoredDonation(event: "opened-map", timestamp: Self.time(9)))
        #expect(try store.exportState().state.donations.keys.map(\.sequence) == [5])
        #expect(try store.deviceID() == device)
    }

    /// What the engine writes becomes this device's part of the state: its displays, its invalidation, its
    /// parameter writes (stamped by the store's clock); a reset starts every device's displays over.
    @Test func engineWritesBecomeThisDevicesState() throws {
        let scratch = try TemporaryDirectory()
        var store = try SQLiteTipStateStore(path: scratch.file("state.sqlite"))
        store.clock = FixedClock(Self.time(0))
        let device = try store.deviceID()
        var other = SyncState()
        other.tips["HighlightTip"] = SyncState.Tip(tip: "HighlightTip", parametersStamp: HLCStamp(time: HybridTime(), device: "tablet"),
                                                  displays: ["tablet": .init(count: 3, seconds: 6)])
        try store.mergeState([SyncStateFile(device: "tablet", state: other)])
        #expect(try store.load().tips["HighlightTip"]?.displayCount == 3)

        var record = try #require(try store.load().tips["HighlightTip"])
        record.displayCount += 1
        record.displayDuration = TimeSpan(seconds: record.displayDuration.seconds + 2)
        record.lastDisplayed = Self.time(1)
        try store.saveTip(record, for: "HighlightTip")
        try store.saveParameter(.bool(true), for: "isLoggedIn")
        var state = try store.exportState().state
        #expect(state.tips["HighlightTip"]?.displays == ["tablet": .init(count: 3, seconds: 6),
                                                         device: .init(count: 1, seconds: 2, first: Self.time(1), last: Self.time(1))])
        #expect(state.parameters["isLoggedIn"]?.stamp.time.milliseconds == Int64(Self.time(0).secondsSince1970 * 1000))

        record.invalidation = .tipClosed
        record.invalidatedAt = Self.time(2)
        try store.saveTip(record, for: "HighlightTip")
        state = try store.exportState().state
        #expect(state.tips["HighlightTip"]?.invalidation == .init(reason: .tipClosed, at: Self.time(2), device: device))

        try store.saveTip(record.resetEligibility, for: "HighlightTip")
        state = try store.exportState().state
        #expect(state.tips["HighlightTip"]?.displays == [:])
        #expect(state.tips["HighlightTip"]?.invalidation == nil)
        #expect(state.tips["HighlightTip"]?.reset?.device == device)
        // The reset wins over the tablet's older displays when merged again.
        try store.mergeState([SyncStateFile(device: "tablet", state: other)])
        #expect(try store.load().tips["HighlightTip"]?.displayCount == 0)
    }

    /// Two devices that merge each other's files end with the same state, and merging again changes nothing.
    @Test func devicesConverge() throws {
        let scratch = try TemporaryDirectory()
        var phone = try SQLiteTipStateStore(path: scratch.file("phone.sqlite"))
        var laptop = try SQLiteTipStateStore(path: scratch.file("laptop.sqlite"))
        phone.clock = FixedClock(Self.time(100))
        laptop.clock = FixedClock(Self.time(200))
        for index in 0..<5 {
            try phone.appendDonation(StoredDonation(event: "opened-map", timestamp: Self.time(Double(index))))
            try laptop.appendDonation(StoredDonation(event: "opened-map", timestamp: Self.time(Double(index) + 0.5)))
        }
        try phone.saveParameter(.string("satellite"), for: "mapMode")
        try laptop.saveParameter(.string("terrain"), for: "mapMode")
        let limits = SyncState.DonationLimits(perEvent: ["opened-map": 8])
        let phoneFile = try phone.exportState()
        try phone.mergeState([try laptop.exportState()], limits: limits)
        try laptop.mergeState([phoneFile], limits: limits)
        let left = try phone.exportState().state
        let right = try laptop.exportState().state
        #expect(left == right)
        #expect(left.donations.count == 8)
        #expect(left.parameters["mapMode"]?.value == .string("terrain"))
        #expect(try phone.load().parameters["mapMode"] == .string("terrain"))
        try phone.mergeState([try laptop.exportState(), try phone.exportState()], limits: limits)
        #expect(try phone.exportState().state == left)
        // The merged donations are what the engine loads.
        #expect(try phone.load().donations.count == 8)
    }

    /// Two donations under one id (only after a lost sequence number) are settled the same way on every device:
    /// the database then holds exactly the merged state.
    @Test func conflictingDonationIdsAreSettled() throws {
        let scratch = try TemporaryDirectory()
        var store = try SQLiteTipStateStore(path: scratch.file("state.sqlite"))
        let device = try store.deviceID()
        try store.appendDonation(StoredDonation(event: "opened-map", timestamp: Self.time(1)))
        let id = SyncState.DonationID(device: device, sequence: 1)
        var other = SyncState()
        other.donations[id] = SyncState.Donation(id: id, event: "opened-map", timestamp: Self.time(2))
        let merged = try store.mergeState([SyncStateFile(device: "tablet", state: other)])
        #expect(merged.donations[id]?.timestamp == Self.time(2))
        #expect(try store.exportState().state == merged)
        #expect(try store.load().donations.map(\.timestamp) == [Self.time(2)])
    }

    /// The database prunes an event to the same donations as merging states does: the newest by (time, device,
    /// sequence), ties in time included.
    @Test func storePruningMatchesMergePruning() throws {
        var random = SeededGenerator(seed: 7)
        for keep in [0, 1, 3, 5, 8, 13] {
            let scratch = try TemporaryDirectory()
            var store = try SQLiteTipStateStore(path: scratch.file("state.sqlite"))
            var incoming = SyncState()
            for device in ["a", "m", "z"] {
                for sequence in 1...7 {
                    let id = SyncState.DonationID(device: device, sequence: Int64(sequence))
                    // Times from a small set, so many donations share one.
                    incoming.donations[id] = SyncState.Donation(
                        id: id, event: "opened-map", timestamp: Self.time(Double(Int.random(in: 0..<4, using: &random))))
                }
            }
            try store.mergeState([SyncStateFile(device: "a", state: incoming)])
            for index in 0..<3 { try store.appendDonation(StoredDonation(event: "opened-map", timestamp: Self.time(Double(index)))) }
            let before = try store.exportState().state
            try store.pruneDonations(of: "opened-map", keepingNewest: keep)
            var expected = before
            expected.normalize(limits: SyncState.DonationLimits(defaultLimit: keep))
            #expect(try store.exportState().state.donations.keys.sorted() == expected.donations.keys.sorted(), "keeping \(keep)")
            #expect(try store.donationCount() == min(keep, 24))
        }
    }
}
