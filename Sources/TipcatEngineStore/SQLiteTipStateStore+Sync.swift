import TipcatCatalog
import TipcatCore
public import TipcatEngine
import TipcatSQLite

/// The state database's device id and hybrid logical clock (table `sync`).
enum SyncBookkeeping {
    /// This device's id (read once per connection).
    static func device(_ database: StateDatabase) throws(SQLiteError) -> String {
        if let device = database.device { return device }
        let device = try database.connection.scalar("SELECT device FROM sync WHERE id = 1")?.textValue ?? ""
        database.device = device
        return device
    }

    /// The clock's current reading.
    static func clock(_ database: StateDatabase) throws(SQLiteError) -> HybridTime {
        let statement = try database.statement("SELECT clock_ms, clock_counter FROM sync WHERE id = 1")
        defer { statement.reset() }
        guard try statement.step() else { return HybridTime() }
        return HybridTime(milliseconds: statement.int64(0), counter: statement.int64(1))
    }

    /// A new stamp for a write at wall-clock time `now`, later than every stamp this device made or saw.
    static func tick(_ database: StateDatabase, now: Timestamp) throws(SQLiteError) -> HLCStamp {
        let next = try clock(database).tick(now: now)
        try database.statement("UPDATE sync SET clock_ms = ?, clock_counter = ? WHERE id = 1")
            .execute([.integer(next.milliseconds), .integer(next.counter)])
        return HLCStamp(time: next, device: try device(database))
    }
}

extension SQLiteTipStateStore {
    /// This device's id: 16 hex digits chosen when the database was created (or migrated); it names the
    /// device's donations, displays and writes in exported states.
    public func deviceID() throws(TipStateStoreError) -> String {
        try runSync("read the device id") { database throws(SQLiteError) in try SyncBookkeeping.device(database) }
    }

    /// The device's state as a state file (`tipcat engine export-state`): a consistent snapshot, even while
    /// other processes write.
    public func exportState() throws(TipStateStoreError) -> SyncStateFile {
        try runSync("export the state") { database throws(SQLiteError) in
            let connection = database.connection
            let own = connection.isAutocommit
            if own { try connection.execute("BEGIN DEFERRED TRANSACTION") }
            defer { if own { try? connection.execute("COMMIT TRANSACTION") } }
            return try Self.readSyncState(database).file
        }
    }

    /// Merges device states into this database (`tipcat engine merge-state`), in one transaction: afterwards
    /// the database holds this device's state merged with every one of `files` (see `SyncState`), donations
    /// pruned to `limits`. Returns the merged state. On any failure nothing changes.
    ///
    /// Parameters the catalog makes transient, tips and events it no longer has are merged and kept like any
    /// other; the engine ignores what does not fit its catalog.
    @discardableResult
    public func mergeState(_ files: [SyncStateFile], limits: SyncState.DonationLimits = SyncState.DonationLimits()) throws(TipStateStoreError) -> SyncState {
        try runSync("merge states") { database throws(SQLiteError) in
            try Self.inTransaction(database) { () throws(SQLiteError) in
                let local = try Self.readSyncState(database)
                let merged = SyncState.merge([local.file.state] + files.map(\.state), limits: limits)
                try Self.write(merged, over: local, database)
                return merged
            }
        }
    }

    private func runSync<T>(_ what: String, _ body: (StateDatabase) throws(SQLiteError) -> T) throws(TipStateStoreError) -> T {
        do {
            return try database.with { database in try body(database) }
        } catch let error as SQLiteError {
            throw TipStateStoreError("\(path): cannot \(what): \(error.message)")
        } catch {
            throw TipStateStoreError("\(path): cannot \(what): the state database holds a malformed value")
        }
    }

    /// The state as read, with what writing a merged state over it needs: row ids of donations, the
    /// instances' on-screen times, the engine row.
    struct LocalSyncState {
        var file: SyncStateFile
        var rows: [SyncState.DonationID: Int64]
        var onScreen: [TipInstanceID: (reset: HLCStamp?, since: Double)]
    }

    static func readSyncState(_ database: StateDatabase) throws(SQLiteError) -> LocalSyncState {
        let connection = database.connection
        let device = try SyncBookkeeping.device(database)
        var state = SyncState(clock: try SyncBookkeeping.clock(database))
        var rows: [SyncState.DonationID: Int64] = [:]
        var onScreen: [TipInstanceID: (reset: HLCStamp?, since: Double)] = [:]
        do {
            var records = BytesInterner<[String: Value]>(limit: 4096)
            var events = BytesInterner<EventID>()
            let donations = try connection.prepare("SELECT id, event, time, fields, device, seq FROM donations")
            while try donations.step() {
                let id = SyncState.DonationID(device: donations.text(4) ?? device, sequence: donations.isNull(5) ? donations.int64(0) : donations.int64(5))
                let event = events.value(for: donations.unsafeBytes(1)) { EventID(String(decoding: $0, as: UTF8.self)) }
                let fields = try records.value(for: donations.unsafeBytes(3)) { bytes throws(StoredValueCodec.Malformed) in
                    try StoredValueCodec.decodeRecord(bytes)
                }
                state.donations[id] = SyncState.Donation(id: id, event: event, timestamp: Timestamp(secondsSince1970: donations.double(2)), values: fields)
                rows[id] = donations.int64(0)
            }
            let deleted = try connection.prepare("SELECT event, time, device, seq FROM deleted_donations")
            while try deleted.step() {
                guard let event = deleted.text(0), let owner = deleted.text(2) else { continue }
                state.deletions[EventID(event)] = SyncState.DonationKey(
                    timestamp: Timestamp(secondsSince1970: deleted.double(1)), id: SyncState.DonationID(device: owner, sequence: deleted.int64(3)))
            }
            let tips = try connection.prepare("""
                SELECT instance, tip, parameters, invalidation, invalidated_at, parameters_ms, parameters_counter, parameters_device,
                       reset_ms, reset_counter, reset_device, invalidated_by, on_screen_since FROM tips
                """)
            while try tips.step() {
                guard let instance = tips.text(0), let tip = tips.text(1) else { continue }
                var record = SyncState.Tip(
                    tip: TipID(tip), parameters: try StoredValueCodec.decodeRecord(tips.blob(2) ?? []),
                    parametersStamp: HLCStamp(time: HybridTime(milliseconds: tips.int64(5), counter: tips.int64(6)), device: tips.text(7) ?? device))
                if !tips.isNull(8) {
                    record.reset = HLCStamp(time: HybridTime(milliseconds: tips.int64(8), counter: tips.int64(9)), device: tips.text(10) ?? device)
                }
                if let reason = tips.text(3).flatMap(TipInvalidationReason.init(rawValue:)) {
                    record.invalidation = SyncState.Invalidation(
                        reason: reason, at: time(tips.column(4)) ?? Timestamp(secondsSince1970: 0), device: tips.text(11) ?? device)
                }
                if let since = real(tips.column(12)) { onScreen[TipInstanceID(instance)] = (record.reset, since) }
                state.tips[TipInstanceID(instance)] = record
            }
            let displays = try connection.prepare("SELECT instance, device, count, seconds, first_displayed, last_displayed FROM tip_displays")
            while try displays.step() {
                guard let instance = displays.text(0), let owner = displays.text(1) else { continue }
                state.tips[TipInstanceID(instance)]?.displays[owner] = SyncState.DisplayCounter(
                    count: Int(displays.int64(2)), seconds: displays.double(3), first: time(displays.column(4)), last: time(displays.column(5)))
            }
            let parameters = try connection.prepare("SELECT name, value, stamp_ms, stamp_counter, stamp_device FROM parameters")
            while try parameters.step() {
                guard let name = parameters.text(0) else { continue }
                state.parameters[ParameterName(name)] = SyncState.StampedValue(
                    value: try StoredValueCodec.decode(parameters.blob(1) ?? []),
                    stamp: HLCStamp(time: HybridTime(milliseconds: parameters.int64(2), counter: parameters.int64(3)),
                                    device: parameters.text(4).flatMap { $0.isEmpty ? nil : $0 } ?? device))
            }
            state.lastNewTipShown = time(try connection.scalar("SELECT last_new_tip_shown FROM engine WHERE id = 1") ?? .null)
        } catch let error as SQLiteError {
            throw error
        } catch {
            throw SQLiteError(code: 0, message: "the state database holds a malformed value")
        }
        return LocalSyncState(file: SyncStateFile(device: device, state: state), rows: rows, onScreen: onScreen)
    }

    /// Makes the database hold `merged`: donations added and removed by id (new ones in pruning order), tips,
    /// displays, parameters and deletion marks rewritten, the engine's `lastNewTipShown` and the clock moved
    /// forward. An instance keeps its open display unless a newer reset arrived.
    static func write(_ merged: SyncState, over local: LocalSyncState, _ database: StateDatabase) throws(SQLiteError) {
        let connection = database.connection
        try retire(database)
        let remove = try database.statement("DELETE FROM donations WHERE id = ?")
        // A donation whose id is kept with other content (a conflict the merge settled) is replaced.
        for (id, row) in local.rows where merged.donations[id] != local.file.state.donations[id] { try remove.execute([.integer(row)]) }
        let added = merged.donations.values.filter { local.file.state.donations[$0.id] != $0 }.sorted { $0.key < $1.key }
        let insert = try database.statement("INSERT INTO donations (event, time, fields, device, seq) VALUES (?, ?, ?, ?, ?)")
        var encoded: [[String: Value]: [UInt8]] = [:]
        for donation in added {
            let fields: [UInt8]
            if let known = encoded[donation.values] {
                fields = known
            } else {
                fields = StoredValueCodec.encode(record: donation.values)
                if encoded.count < 4096 { encoded[donation.values] = fields }
            }
            try insert.execute([
                .text(donation.event.rawValue), .real(donation.timestamp.secondsSince1970), .blob(fields),
                .text(donation.id.device), .integer(donation.id.sequence),
            ])
        }

        try connection.execute("DELETE FROM deleted_donations; DELETE FROM tips; DELETE FROM tip_displays; DELETE FROM parameters;")
        let mark = try database.statement("INSERT INTO deleted_donations (event, time, device, seq) VALUES (?, ?, ?, ?)")
        for (event, key) in merged.deletions {
            try mark.execute([.text(event.rawValue), .real(key.timestamp.secondsSince1970), .text(key.id.device), .integer(key.id.sequence)])
        }
        let tip = try database.statement("""
            INSERT INTO tips (instance, tip, parameters, invalidation, invalidated_at, display_count,
                display_duration, first_displayed, last_displayed, on_screen_since,
                parameters_ms, parameters_counter, parameters_device, reset_ms, reset_counter, reset_device, invalidated_by)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let display = try database.statement("""
            INSERT INTO tip_displays (instance, device, count, seconds, first_displayed, last_displayed) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for (instance, record) in merged.tips {
            var onScreen: Double?
            if let open = local.onScreen[instance], open.reset == record.reset { onScreen = open.since }
            try tip.execute([
                .text(instance.rawValue), .text(record.tip.rawValue), .blob(StoredValueCodec.encode(record: record.parameters)),
                record.invalidation.map { .text($0.reason.rawValue) } ?? .null, value(record.invalidation?.at),
                .integer(Int64(record.displayCount)), .real(record.displaySeconds),
                value(record.firstDisplayed), value(record.lastDisplayed), onScreen.map { .real($0) } ?? .null,
                .integer(record.parametersStamp.time.milliseconds), .integer(record.parametersStamp.time.counter),
                .text(record.parametersStamp.device),
                record.reset.map { .integer($0.time.milliseconds) } ?? .null, record.reset.map { .integer($0.time.counter) } ?? .null,
                record.reset.map { .text($0.device) } ?? .null, record.invalidation.map { .text($0.device) } ?? .null,
            ])
            for (device, counter) in record.displays {
                try display.execute([
                    .text(instance.rawValue), .text(device), .integer(Int64(counter.count)), .real(counter.seconds),
                    value(counter.first), value(counter.last),
                ])
            }
        }
        let parameter = try database.statement("""
            INSERT INTO parameters (name, value, stamp_ms, stamp_counter, stamp_device) VALUES (?, ?, ?, ?, ?)
            """)
        for (name, stamped) in merged.parameters {
            try parameter.execute([
                .text(name.rawValue), .blob(StoredValueCodec.encode(stamped.value)),
                .integer(stamped.stamp.time.milliseconds), .integer(stamped.stamp.time.counter), .text(stamped.stamp.device),
            ])
        }
        try connection.run("""
            INSERT INTO engine (id, last_new_tip_shown, catalog_version, content_hashes) VALUES (1, ?, NULL, ?)
            ON CONFLICT (id) DO UPDATE SET last_new_tip_shown = excluded.last_new_tip_shown
            """, [value(merged.lastNewTipShown), .blob(StoredValueCodec.encode(record: [:]))])
        let clock = max(local.file.state.clock, merged.clock)
        try connection.run("UPDATE sync SET clock_ms = ?, clock_counter = ? WHERE id = 1", [.integer(clock.milliseconds), .integer(clock.counter)])
    }
}
