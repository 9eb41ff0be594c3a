public import TipcatCatalog
public import TipcatCore
public import TipcatEngine
import TipcatSQLite

/// A `TipStateStore` in an SQLite database (default `.tipcat/state.sqlite`): write-ahead log, a busy
/// timeout, schema migrations registered by id, donations indexed by (event, time).
///
/// Every call is one statement in autocommit mode (or part of a batch, see `beginBatch`), so several
/// processes can share one database: each donation is its own `INSERT`, and concurrent writers wait for each
/// other (up to the busy timeout) instead of overwriting each other's rows. Copies share the connection.
public struct SQLiteTipStateStore: TipStateStore {
    /// The default location, relative to the working directory (next to the catalog store).
    public static let defaultPath = ".tipcat/state.sqlite"

    /// The page size of new state databases.
    static let pageSize = 1024
    /// The size the write-ahead log grows to before SQLite copies it back into the database.
    static let checkpointBytes: Int64 = 4 << 20

    /// The database file.
    public let path: String
    let database: StateDatabase
    /// The wall clock of the hybrid logical clock that stamps parameter writes, registrations and resets (give
    /// it the engine's clock so stamps follow the engine's time).
    public var clock: any TipClock = SystemClock()

    /// Opens (creating when needed) the state database at `path`; the directory must exist.
    ///
    /// - Parameter busyTimeoutMilliseconds: how long a write waits for another process's lock.
    public init(path: String = SQLiteTipStateStore.defaultPath, busyTimeoutMilliseconds: Int32 = 10_000) throws(TipStateStoreError) {
        self.path = path
        do {
            let connection = try Connection(path: path, mode: .readWriteCreate, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            try connection.retryingWhileBusy(for: busyTimeoutMilliseconds) { try Self.prepare(connection) }
            database = StateDatabase(connection: connection)
        } catch let error as SQLiteError {
            throw TipStateStoreError("\(path): \(error.message)")
        } catch let error as MigrationError {
            throw TipStateStoreError("\(path): \(error.description)")
        } catch {
            throw TipStateStoreError("\(path): \(error)")
        }
    }

    /// Page size of a new file, write-ahead log, pragmas, migrations. Retried while another process sets up
    /// the same new database (see `Connection.retryingWhileBusy`), so every step is idempotent.
    private static func prepare(_ connection: Connection) throws {
        // A new database gets small pages: each donation commits one row and one index entry, so a commit
        // appends two pages to the write-ahead log, and small pages make that (and checkpoints) cheap.
        // Only possible before the file is first written; existing databases keep their page size.
        if try connection.scalar("PRAGMA page_count")?.integerValue == 0 {
            try connection.execute("PRAGMA page_size = \(Self.pageSize)")
        }
        if try connection.journalMode() != "wal" { try connection.enableWriteAheadLog() }
        // With a write-ahead log, NORMAL never corrupts; a power cut may lose the last commits.
        try connection.execute("PRAGMA synchronous = NORMAL")
        // Checkpoint when the log reaches about 4 MiB, whatever the page size (SQLite's default is 1,000
        // pages, 4 MiB with its default 4 KiB pages).
        let pageSize = try connection.scalar("PRAGMA page_size")?.integerValue ?? 4096
        try connection.execute("PRAGMA wal_autocheckpoint = \(max(1000, Int(Self.checkpointBytes / max(512, pageSize))))")
        try StateSchema.migrator.migrate(connection)
    }

    /// Runs `body` against the database, turning SQLite failures into store errors.
    private func run<T>(_ what: String, _ body: (StateDatabase) throws(SQLiteError) -> T) throws(TipStateStoreError) -> T {
        do {
            return try database.with { database in try body(database) }
        } catch let error as SQLiteError {
            throw TipStateStoreError("\(path): cannot \(what): \(error.message)")
        } catch {
            throw TipStateStoreError("\(path): cannot \(what): \(error)")
        }
    }

    // MARK: Batches

    /// Starts a write transaction: the calls until `commitBatch` become one commit (many donations per
    /// second). Other processes wait for the lock meanwhile, so keep batches short.
    public func beginBatch() throws(TipStateStoreError) {
        try run("begin a batch") { database throws(SQLiteError) in try database.connection.execute("BEGIN IMMEDIATE TRANSACTION") }
    }

    /// Commits the batch started by `beginBatch`.
    public func commitBatch() throws(TipStateStoreError) {
        try run("commit a batch") { database throws(SQLiteError) in try database.connection.execute("COMMIT TRANSACTION") }
    }

    /// Undoes the batch started by `beginBatch`: nothing written since is kept.
    public func rollbackBatch() throws(TipStateStoreError) {
        try run("roll back a batch") { database throws(SQLiteError) in try database.connection.execute("ROLLBACK TRANSACTION") }
    }

    /// How many donations of `event` are stored.
    public func donationCount(of event: EventID) throws(TipStateStoreError) -> Int {
        try run("count donations") { database throws(SQLiteError) in
            let statement = try database.statement("SELECT count(*) FROM donations WHERE event = ?")
            defer { statement.reset() }
            try statement.bind([.text(event.rawValue)])
            return try statement.step() ? Int(statement.int64(0)) : 0
        }
    }

    /// How many donations are stored (all events).
    public func donationCount() throws(TipStateStoreError) -> Int {
        try run("count donations") { database throws(SQLiteError) in
            try database.connection.scalar("SELECT count(*) FROM donations")?.intValue ?? 0
        }
    }

    // MARK: TipStateStore

    public func load() throws(TipStateStoreError) -> TipStateSnapshot {
        do {
            return try database.with { database in
                let connection = database.connection
                // One read transaction: a consistent snapshot even while other processes write.
                try connection.execute("BEGIN DEFERRED TRANSACTION")
                defer { try? connection.execute("COMMIT TRANSACTION") }
                var snapshot = TipStateSnapshot()
                snapshot.donations = try Self.readDonations(connection)
                let tips = try connection.prepare("""
                    SELECT instance, tip, parameters, invalidation, invalidated_at, display_count, display_duration,
                           first_displayed, last_displayed, on_screen_since FROM tips
                    """)
                while try tips.step() {
                    guard let instance = tips.text(0), let tip = tips.text(1) else { continue }
                    var record = TipRecord(tip: TipID(tip), parameters: try StoredValueCodec.decodeRecord(tips.blob(2) ?? []))
                    record.invalidation = tips.text(3).flatMap(TipInvalidationReason.init(rawValue:))
                    record.invalidatedAt = Self.time(tips.column(4))
                    record.displayCount = Int(tips.int64(5))
                    record.displayDuration = TimeSpan(seconds: Self.real(tips.column(6)) ?? 0)
                    record.firstDisplayed = Self.time(tips.column(7))
                    record.lastDisplayed = Self.time(tips.column(8))
                    record.onScreenSince = Self.time(tips.column(9))
                    snapshot.tips[TipInstanceID(instance)] = record
                }
                let parameters = try connection.prepare("SELECT name, value FROM parameters")
                while try parameters.step() {
                    guard let name = parameters.text(0) else { continue }
                    snapshot.parameters[ParameterName(name)] = try StoredValueCodec.decode(parameters.blob(1) ?? [])
                }
                let engine = try connection.prepare("SELECT last_new_tip_shown, catalog_version FROM engine WHERE id = 1")
                if try engine.step() {
                    // A hash per tip (1.6 MB at 20,000 tips, hundreds of the state's small pages): read and decoded
                    // only when asked — when the engine runs another version than this one, or writes the record.
                    let hashes = TipContentHashes(deferred: { [database = self.database] in Self.storedContentHashes(database) })
                    snapshot.engine = EngineRecord(lastNewTipShown: Self.time(engine.column(0)), catalogVersion: engine.text(1), contentHashes: hashes)
                }
                return snapshot
            }
        } catch let error as SQLiteError {
            throw TipStateStoreError("\(path): cannot read the state: \(error.message)")
        } catch {
            throw TipStateStoreError("\(path): the state database holds a malformed value")
        }
    }

    /// Every donation, in the order they were stored (one pass over the table, no index lookups).
    ///
    /// Event names and field records repeat from row to row, so each distinct one is decoded once and shared.
    static func readDonations(_ connection: Connection) throws -> [StoredDonation] {
        var count = 0
        if let rows = try connection.scalar("SELECT max(id) FROM donations")?.intValue { count = rows }
        var donations: [StoredDonation] = []
        donations.reserveCapacity(min(count, 1 << 20))
        var events = BytesInterner<EventID>()
        var records = BytesInterner<[String: Value]>(limit: 4096)
        let rows = try connection.prepare("SELECT event, time, fields FROM donations ORDER BY id")
        while try rows.step() {
            guard !rows.isNull(0), !rows.isNull(1) else { continue }
            // The column bytes are used before the next step, as SQLite requires.
            let event = events.value(for: rows.unsafeBytes(0)) { EventID(String(decoding: $0, as: UTF8.self)) }
            let fields = try records.value(for: rows.unsafeBytes(2)) { bytes throws(StoredValueCodec.Malformed) in
                try StoredValueCodec.decodeRecord(bytes)
            }
            donations.append(StoredDonation(event: event, timestamp: Timestamp(secondsSince1970: rows.double(1)), values: fields))
        }
        return donations
    }

    public mutating func appendDonation(_ donation: StoredDonation) throws(TipStateStoreError) {
        try run("store a donation") { database throws(SQLiteError) in
            // A row without device and seq is this device's donation numbered by its row id, which is above every
            // number it used: one more than the largest row id or the recorded high mark (see `retire`).
            try database.statement("""
                INSERT INTO donations (id, event, time, fields) VALUES
                    (max((SELECT high_seq FROM sync WHERE id = 1), coalesce((SELECT max(id) FROM donations), 0)) + 1, ?1, ?2, ?3)
                """).execute([
                .text(donation.event.rawValue), .real(donation.timestamp.secondsSince1970),
                .blob(StoredValueCodec.encode(record: donation.values)),
            ])
        }
    }

    /// Records the largest row id as used before rows are deleted, so a new donation never takes the sequence
    /// number of a deleted one.
    static func retire(_ database: StateDatabase) throws(SQLiteError) {
        try database.statement("UPDATE sync SET high_seq = max(high_seq, coalesce((SELECT max(id) FROM donations), 0)) WHERE id = 1")
            .execute([])
    }

    public mutating func deleteDonations(of event: EventID) throws(TipStateStoreError) {
        try run("delete donations") { database throws(SQLiteError) in
            try Self.inTransaction(database) { () throws(SQLiteError) in
                // The newest donation deleted becomes the event's deletion mark (kept when merging states).
                let local = try SyncBookkeeping.device(database)
                try database.statement("""
                    INSERT INTO deleted_donations (event, time, device, seq)
                    SELECT event, time, coalesce(device, ?2), coalesce(seq, id) FROM donations WHERE event = ?1
                        ORDER BY time DESC, coalesce(device, ?2) DESC, coalesce(seq, id) DESC LIMIT 1
                    ON CONFLICT (event) DO UPDATE SET time = excluded.time, device = excluded.device, seq = excluded.seq
                        WHERE (excluded.time, excluded.device, excluded.seq) > (time, device, seq)
                    """).execute([.text(event.rawValue), .text(local)])
                try Self.retire(database)
                try database.statement("DELETE FROM donations WHERE event = ?").execute([.text(event.rawValue)])
            }
        }
    }

    public mutating func pruneDonations(of event: EventID, keepingNewest count: Int) throws(TipStateStoreError) {
        try run("prune donations") { database throws(SQLiteError) in
            let name = SQLiteValue.text(event.rawValue)
            let keep = max(0, count)
            // The newest `keep` by (time, device, seq), as merging states prunes. The event's index gives the
            // times at the boundary: the oldest kept and the newest dropped.
            let boundary = try database.statement("SELECT time FROM donations WHERE event = ?1 ORDER BY time DESC LIMIT 2 OFFSET ?2")
            defer { boundary.reset() }
            try boundary.bind([name, .integer(Int64(max(0, keep - 1)))])
            var times: [Double] = []
            while times.count < 2, try boundary.step() { times.append(boundary.double(0)) }
            boundary.reset()
            if keep > 0 && times.count < 2 || keep == 0 && times.isEmpty { return }
            try Self.inTransaction(database) { () throws(SQLiteError) in
                let before = try Self.largestRowID(database)
                if keep == 0 {
                    try database.statement("DELETE FROM donations WHERE event = ?1").execute([name])
                } else if times[0] > times[1] {
                    // No tie across the boundary: everything older than the oldest kept goes (one index range).
                    try database.statement("DELETE FROM donations WHERE event = ?1 AND time < ?2").execute([name, .real(times[0])])
                } else {
                    // Donations at the boundary time share it: those with the greatest (device, seq) are kept.
                    let tie = times[0]
                    let newer = try database.connection.scalar(
                        "SELECT count(*) FROM donations WHERE event = ?1 AND time > ?2", [name, .real(tie)])?.intValue ?? 0
                    try database.statement("DELETE FROM donations WHERE event = ?1 AND time < ?2").execute([name, .real(tie)])
                    try database.statement("""
                        DELETE FROM donations WHERE id IN (SELECT id FROM donations WHERE event = ?1 AND time = ?2
                            ORDER BY coalesce(device, ?4) DESC, coalesce(seq, id) DESC LIMIT -1 OFFSET ?3)
                        """).execute([name, .real(tie), .integer(Int64(max(0, keep - newer))), .text(try SyncBookkeeping.device(database))])
                }
                let after = try Self.largestRowID(database)
                if after < before {
                    try database.statement("UPDATE sync SET high_seq = max(high_seq, ?) WHERE id = 1").execute([.integer(Int64(before))])
                }
            }
        }
    }

    /// The largest donation row id (0 for none).
    static func largestRowID(_ database: StateDatabase) throws(SQLiteError) -> Int64 {
        let statement = try database.statement("SELECT coalesce(max(id), 0) FROM donations")
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : 0
    }

    /// Runs `body` in a transaction unless one is open (a batch).
    static func inTransaction<T>(_ database: StateDatabase, _ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        let connection = database.connection
        let own = connection.isAutocommit
        if own { try connection.execute("BEGIN IMMEDIATE TRANSACTION") }
        do throws(SQLiteError) {
            let result = try body()
            if own { try connection.execute("COMMIT TRANSACTION") }
            return result
        } catch {
            if own { try? connection.execute("ROLLBACK TRANSACTION") }
            throw error
        }
    }

    public mutating func saveTip(_ record: TipRecord, for instance: TipInstanceID) throws(TipStateStoreError) {
        let now = clock.now
        try run("store a tip's state") { database throws(SQLiteError) in
            try Self.inTransaction(database) { () throws(SQLiteError) in
                try Self.saveTip(record, for: instance, now: now, database)
            }
        }
    }

    /// Writes the record and keeps the sync bookkeeping: a changed registration is stamped; fewer displays,
    /// less time or a lifted invalidation is a reset (stamped; every device's displays start over); more
    /// displays or time are this device's; a new invalidation is this device's.
    private static func saveTip(_ record: TipRecord, for instance: TipInstanceID, now: Timestamp, _ database: StateDatabase) throws(SQLiteError) {
        let previous = try database.statement("""
            SELECT tip, parameters, invalidation, invalidated_at, display_count, display_duration,
                   parameters_ms, parameters_counter, parameters_device, reset_ms, reset_counter, reset_device, invalidated_by
            FROM tips WHERE instance = ?
            """)
        defer { previous.reset() }
        try previous.bind([.text(instance.rawValue)])
        let local = try SyncBookkeeping.device(database)
        let parametersBlob = StoredValueCodec.encode(record: record.parameters)
        var parametersStamp: HLCStamp
        var reset: HLCStamp?
        var invalidatedBy: String? = record.invalidation == nil ? nil : local
        var countDelta = record.displayCount
        var secondsDelta = record.displayDuration.seconds
        if try previous.step() {
            parametersStamp = HLCStamp(time: HybridTime(milliseconds: previous.int64(6), counter: previous.int64(7)), device: previous.text(8) ?? local)
            if previous.text(0) != record.tip.rawValue || (previous.blob(1) ?? []) != parametersBlob {
                parametersStamp = try SyncBookkeeping.tick(database, now: now)
            }
            if !previous.isNull(9) {
                reset = HLCStamp(time: HybridTime(milliseconds: previous.int64(9), counter: previous.int64(10)), device: previous.text(11) ?? local)
            }
            let oldCount = Int(previous.int64(4))
            let oldSeconds = previous.double(5)
            let wasInvalidated = !previous.isNull(2)
            if record.displayCount < oldCount || record.displayDuration.seconds < oldSeconds || (wasInvalidated && record.invalidation == nil) {
                reset = try SyncBookkeeping.tick(database, now: now)
                try database.statement("DELETE FROM tip_displays WHERE instance = ?").execute([.text(instance.rawValue)])
            } else {
                countDelta -= oldCount
                secondsDelta -= oldSeconds
                if record.invalidation != nil, previous.text(2) == record.invalidation?.rawValue,
                   Self.time(previous.column(3)) == record.invalidatedAt
                {
                    invalidatedBy = previous.text(12) ?? local
                }
            }
        } else {
            parametersStamp = try SyncBookkeeping.tick(database, now: now)
        }
        previous.reset()
        if countDelta > 0 || secondsDelta > 0 {
            try database.statement("""
                INSERT INTO tip_displays (instance, device, count, seconds, first_displayed, last_displayed)
                VALUES (?1, ?2, ?3, ?4, ?5, ?5)
                ON CONFLICT (instance, device) DO UPDATE SET count = count + excluded.count, seconds = seconds + excluded.seconds,
                    first_displayed = coalesce(first_displayed, excluded.first_displayed),
                    last_displayed = CASE WHEN excluded.count > 0 THEN excluded.last_displayed ELSE last_displayed END
                """).execute([
                    .text(instance.rawValue), .text(local), .integer(Int64(max(0, countDelta))), .real(max(0, secondsDelta)),
                    Self.value(record.lastDisplayed),
                ])
        }
        try database.statement("""
            INSERT OR REPLACE INTO tips (instance, tip, parameters, invalidation, invalidated_at, display_count,
                display_duration, first_displayed, last_displayed, on_screen_since,
                parameters_ms, parameters_counter, parameters_device, reset_ms, reset_counter, reset_device, invalidated_by)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute([
                .text(instance.rawValue), .text(record.tip.rawValue), .blob(parametersBlob),
                record.invalidation.map { .text($0.rawValue) } ?? .null, Self.value(record.invalidatedAt),
                .integer(Int64(record.displayCount)), .real(record.displayDuration.seconds),
                Self.value(record.firstDisplayed), Self.value(record.lastDisplayed), Self.value(record.onScreenSince),
                .integer(parametersStamp.time.milliseconds), .integer(parametersStamp.time.counter), .text(parametersStamp.device),
                reset.map { .integer($0.time.milliseconds) } ?? .null, reset.map { .integer($0.time.counter) } ?? .null,
                reset.map { .text($0.device) } ?? .null, invalidatedBy.map { .text($0) } ?? .null,
            ])
    }

    public mutating func saveParameter(_ value: Value, for name: ParameterName) throws(TipStateStoreError) {
        let now = clock.now
        try run("store a parameter") { database throws(SQLiteError) in
            try Self.inTransaction(database) { () throws(SQLiteError) in
                let stamp = try SyncBookkeeping.tick(database, now: now)
                try database.statement("""
                    INSERT OR REPLACE INTO parameters (name, value, stamp_ms, stamp_counter, stamp_device) VALUES (?, ?, ?, ?, ?)
                    """).execute([
                        .text(name.rawValue), .blob(StoredValueCodec.encode(value)),
                        .integer(stamp.time.milliseconds), .integer(stamp.time.counter), .text(stamp.device),
                    ])
            }
        }
    }

    /// The content hashes of the engine record as the database holds them when asked (read after `load`'s
    /// transaction: a record another process wrote since is read as it is now); a record that cannot be read
    /// reads as no hashes (no tip's content is then known to have changed, so no tip is reset).
    static func storedContentHashes(_ database: StateDatabase) -> [TipID: String] {
        let stored = try? database.with { database throws -> [UInt8] in
            let statement = try database.connection.prepare("SELECT content_hashes FROM engine WHERE id = 1")
            return try statement.step() ? statement.blob(0) ?? [] : []
        }
        return contentHashes(stored ?? [])
    }

    /// The content hashes of the engine record as stored; a damaged record reads as no hashes (no tip's content
    /// is then known to have changed, so no tip is reset).
    static func contentHashes(_ stored: [UInt8]) -> [TipID: String] {
        var hashes: [TipID: String] = [:]
        for (tip, value) in (try? StoredValueCodec.decodeRecord(stored)) ?? [:] {
            if case .string(let hash) = value { hashes[TipID(tip)] = hash }
        }
        return hashes
    }

    public mutating func saveEngineRecord(_ record: EngineRecord) throws(TipStateStoreError) {
        var hashes: [String: Value] = [:]
        for (tip, hash) in record.contentHashes { hashes[tip.rawValue] = .string(hash) }
        let encoded = StoredValueCodec.encode(record: hashes)
        try run("store the engine record") { database throws(SQLiteError) in
            try database.statement("""
                INSERT OR REPLACE INTO engine (id, last_new_tip_shown, catalog_version, content_hashes) VALUES (1, ?, ?, ?)
                """).execute([Self.value(record.lastNewTipShown), record.catalogVersion.map { .text($0) } ?? .null, .blob(encoded)])
        }
    }

    public mutating func removeAll() throws(TipStateStoreError) {
        try run("reset the state") { database throws(SQLiteError) in
            // The device id, its clock and its sequence numbers are kept: they identify this device's writes.
            try Self.inTransaction(database) { () throws(SQLiteError) in
                try Self.retire(database)
                try database.connection.execute("""
                    DELETE FROM donations; DELETE FROM tips; DELETE FROM parameters; DELETE FROM engine;
                    DELETE FROM tip_displays; DELETE FROM deleted_donations;
                    """)
            }
        }
    }

    // MARK: Column helpers

    static func value(_ time: Timestamp?) -> SQLiteValue {
        time.map { .real($0.secondsSince1970) } ?? .null
    }

    static func real(_ value: SQLiteValue) -> Double? {
        switch value {
        case .real(let number): number
        case .integer(let number): Double(number)
        default: nil
        }
    }

    static func time(_ value: SQLiteValue) -> Timestamp? {
        real(value).map { Timestamp(secondsSince1970: $0) }
    }
}
