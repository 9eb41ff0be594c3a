import TipcatCore
import TipcatSQLite
public import TipcatCodec

/// The SQLite backend of `CatalogStore`: one file (plus its write-ahead log) holding objects, versions and
/// channels. See `StoreSchema` for the tables.
///
/// Opening never writes to a file that is not already a tipcat store: the SQLite header is checked by hand
/// first, then the application id and the recorded migrations. Writers use `BEGIN IMMEDIATE` and wait up to
/// the busy timeout for each other; readers see only committed versions (WAL).
public final class SQLiteCatalogStore: CatalogStore {
    /// How the store is opened.
    public typealias Mode = StoreOpenMode

    public let location: String
    let connection: Connection
    private var objectQuery: Statement?

    /// Opens the store at `path`.
    ///
    /// - Throws: `StoreError.missingStore` (read-only, no file), `.notAStore` (not SQLite, damaged, another
    ///   program's database — the file is left untouched), `.newerStore`, `.database`.
    public init(path: String, mode: Mode, busyTimeoutMilliseconds: Int32 = 10_000) throws(StoreError) {
        location = path
        let state = try StoreFile.inspect(path)
        if case .missing = state {
            guard mode == .readWrite else { throw StoreError.missingStore(path: path) }
            try StoreFile.createParentDirectories(of: path)
        }
        do {
            connection = try Connection(
                path: path, mode: mode == .readOnly ? .readOnly : .readWriteCreate, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } catch {
            throw StoreError.database(context: "cannot open the store '\(path)'", message: error.message)
        }
        try checkIdentity()
        if mode == .readWrite {
            let creating = switch state {
            case .missing, .empty: true
            case .sqlite: false
            }
            try prepareForWriting(busyTimeoutMilliseconds: busyTimeoutMilliseconds, creating: creating)
        } else {
            try checkReadable()
        }
        checkSchema()
    }

    private func classify(_ error: SQLiteError, _ context: String) -> StoreError {
        if error.isHotJournalOnReadOnly {
            // Only a new store's first publish writes through the rollback journal (`prepareForWriting`).
            return StoreError.database(
                context: context,
                message: "its first publish was interrupted before it committed, so it holds no version; publish again "
                    + "(the publish repairs the store)")
        }
        if error.isCorruptOrNotADatabase {
            return StoreError.notAStore(path: location, reason: "it is damaged or not a database (\(error.message))")
        }
        return StoreError.database(context: context, message: error.message)
    }

    /// The application id and the migrations: is this a tipcat store this tipcat understands?
    private func checkIdentity() throws(StoreError) {
        do {
            let tables = try connection.scalar("SELECT count(*) FROM sqlite_schema")?.integerValue ?? 0
            let application = try connection.scalar("PRAGMA application_id")?.integerValue ?? 0
            if tables > 0 && application != StoreSchema.applicationID {
                throw StoreError.notAStore(
                    path: location, reason: "it is an SQLite database of another program (application id \(application))")
            }
            let unknown = try StoreSchema.migrator.unknownIDs(connection)
            if !unknown.isEmpty { throw StoreError.newerStore(path: location, migrations: unknown) }
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw classify(error, "cannot read the store '\(location)'")
        } catch {
            throw StoreError.database(context: "cannot read the store '\(location)'", message: "\(error)")
        }
    }

    /// The page size of stores this tipcat creates.
    static let newStorePageSize = 16384

    /// The objects this connection inserted, and the size of its page cache in KiB (`insertObjects`).
    var objectsInserted = 0
    var cacheKibibytes = 1024
    /// The bytes of objects inserted since the store's files were last written back (`insertObjects`).
    var bytesSinceWriteBack = 0
    static let writeBackInterval = 4 << 20

    /// Whether the store switches to the write-ahead log after its first write transaction (`prepareForWriting`).
    private var writeAheadLogAfterFirstWrite = false

    /// Write-ahead log, pragmas, migrations; retried while another process sets up the same new store.
    ///
    /// A store this process creates (`creating`: no file, or an empty one) keeps SQLite's rollback journal until
    /// its first write transaction — the first publish — ends, then switches to the write-ahead log (`write`). A
    /// rollback journal keeps only what pages held before the transaction, and a new store's pages held nothing:
    /// its first publish writes its objects once, where the log would write them twice (into the log, then copied
    /// into the store); 0.4 s of a first publish of 20,000 tips. Meanwhile other processes wait for it as for any
    /// writer (the busy timeout); a crash rolls the journal back on the next open, as the log would.
    private func prepareForWriting(busyTimeoutMilliseconds: Int32, creating: Bool) throws(StoreError) {
        do {
            try connection.retryingWhileBusy(for: busyTimeoutMilliseconds) {
                if try connection.journalMode() != "wal" {
                    // A new store gets 16 KB pages (a no-op for a database that already has pages): a first publish
                    // of thousands of tips writes a quarter of the pages, and frames, it would in 4 KB pages. Set
                    // before the write-ahead log, which fixes the page size.
                    try connection.execute("PRAGMA page_size = \(Self.newStorePageSize)")
                    if creating {
                        writeAheadLogAfterFirstWrite = true
                    } else {
                        try connection.enableWriteAheadLog()
                    }
                }
                // A writer's page cache holds 1 MiB, and grows with the objects it inserts (`insertObjects`): a first
                // publish inserts tens of megabytes in one transaction, most of them pages it writes once (the default
                // cache, 2,000 KiB by its count, is about 8 MB in use).
                try connection.execute("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -\(cacheKibibytes)")
                try StoreSchema.migrator.migrate(connection)
            }
        } catch let error as SQLiteError {
            throw classify(error, "cannot prepare the store '\(location)'")
        } catch let error as MigrationError {
            if case .unknownMigrations(let ids) = error { throw StoreError.newerStore(path: location, migrations: ids) }
            throw StoreError.database(context: "cannot upgrade the store '\(location)'", message: error.description)
        } catch {
            throw StoreError.database(context: "cannot prepare the store '\(location)'", message: "\(error)")
        }
    }

    /// A read-only store must already have the current schema (an empty file reads as a store with nothing).
    private func checkReadable() throws(StoreError) {
        do {
            let pending = try StoreSchema.migrator.pendingIDs(connection)
            let applied = try StoreSchema.migrator.appliedIDs(connection)
            if !applied.isEmpty && !pending.isEmpty {
                throw StoreError.database(
                    context: "the store '\(location)' was written by an older tipcat",
                    message: "publish once with this tipcat to upgrade it (pending: \(pending.joined(separator: ", ")))")
            }
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw classify(error, "cannot read the store '\(location)'")
        } catch {
            throw StoreError.database(context: "cannot read the store '\(location)'", message: "\(error)")
        }
    }

    /// Whether the schema exists (a read-only open of an empty file has none); checked once after opening.
    private var hasSchema = false

    private func checkSchema() {
        hasSchema = (try? connection.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'versions'")?.integerValue) == 1
    }

    // MARK: Running statements

    func read<T>(_ context: String, _ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw classify(error, context)
        } catch {
            throw StoreError.database(context: context, message: "\(error)")
        }
    }

    /// Runs `body` in an IMMEDIATE transaction (waiting for other writers up to the busy timeout). The first one on
    /// a store this process created switches it to the write-ahead log once it ends (`prepareForWriting`).
    func write<T>(_ context: String, _ body: () throws -> T) throws(StoreError) -> T {
        defer {
            if writeAheadLogAfterFirstWrite, connection.isAutocommit {
                writeAheadLogAfterFirstWrite = false
                // Busy only while another process reads or writes it: then the next writer to open it switches it.
                try? connection.enableWriteAheadLog()
            }
        }
        do {
            return try connection.transaction(.immediate, body)
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            if error.isBusy {
                throw StoreError.database(context: context, message: "the store is locked by another tipcat; try again")
            }
            throw classify(error, context)
        } catch {
            throw StoreError.database(context: context, message: "\(error)")
        }
    }

    // MARK: Reading

    static let versionColumns = """
        number, channel, parent, source, type, author, created_at, message, content_hash, tipcat_version, tips_changed
        """

    private func versionRows(_ sql: String, _ values: [SQLiteValue] = []) throws -> [VersionRecord] {
        guard hasSchema else { return [] }
        let statement = try connection.prepare(sql)
        try statement.bind(values)
        var records: [VersionRecord] = []
        while try statement.step() {
            guard let hash = statement.blob(8).flatMap(SHA256Digest.init(bytes:)),
                  let type = statement.text(4).flatMap(VersionType.init(rawValue:))
            else {
                throw StoreError.damagedObject(digest: "version \(statement.int64(0))", reason: "its record is malformed")
            }
            records.append(VersionRecord(
                number: Int(statement.int64(0)), channel: statement.text(1) ?? "", parent: statement.optionalInt(2),
                source: statement.optionalInt(3), type: type, author: statement.text(5) ?? "",
                createdAt: statement.text(6) ?? "", message: statement.text(7) ?? "", contentHash: hash,
                tipcatVersion: statement.text(9) ?? "", tipsChanged: Int(statement.int64(10))))
        }
        return records
    }

    public func channels() throws(StoreError) -> [ChannelHead] {
        try read("cannot list channels") {
            guard hasSchema else { return [] }
            return try connection.rows("SELECT name, version, updated_at FROM channels ORDER BY name").map { row in
                ChannelHead(name: row[0].textValue ?? "", version: row[1].intValue ?? 0, updatedAt: row[2].textValue ?? "")
            }
        }
    }

    public func head(of channel: ChannelName) throws(StoreError) -> VersionRecord? {
        try read("cannot read channel '\(channel)'") {
            try versionRows(
                "SELECT \(Self.versionColumns) FROM versions WHERE number = (SELECT version FROM channels WHERE name = ?)",
                [.text(channel.rawValue)]).first
        }
    }

    public func version(_ number: Int) throws(StoreError) -> VersionRecord? {
        try read("cannot read version \(number)") {
            try versionRows("SELECT \(Self.versionColumns) FROM versions WHERE number = ?", [.int(number)]).first
        }
    }

    public func versions() throws(StoreError) -> [VersionRecord] {
        try read("cannot list versions") {
            try versionRows("SELECT \(Self.versionColumns) FROM versions ORDER BY number")
        }
    }

    public func history(of channel: ChannelName) throws(StoreError) -> [VersionRecord] {
        try read("cannot read the history of '\(channel)'") {
            let records = try versionRows("""
                SELECT \(Self.versionColumns.split(separator: ",").map { "v." + String($0).trimmingWhitespace() }.joined(separator: ", "))
                FROM channel_moves m JOIN versions v ON v.number = m.version WHERE m.channel = ? ORDER BY m.id
                """, [.text(channel.rawValue)])
            var seen = Set<Int>()
            return records.filter { seen.insert($0.number).inserted }
        }
    }

    public func resets(of version: Int) throws(StoreError) -> [String] {
        try read("cannot read version \(version)") {
            guard hasSchema else { return [] }
            return try connection.rows("SELECT tip FROM republish_resets WHERE version = ? ORDER BY tip", [.int(version)])
                .compactMap { $0.first?.textValue }
        }
    }

    public func bytes(of digest: SHA256Digest) throws(StoreError) -> [UInt8]? {
        try read("cannot read object \(digest.shortHex())") {
            guard hasSchema else { return nil }
            let statement: Statement
            if let objectQuery {
                statement = objectQuery
            } else {
                statement = try connection.prepare("SELECT content FROM objects WHERE hash = ?")
                objectQuery = statement
            }
            defer { statement.reset() }
            try statement.bind(bytes: digest.bytes, at: 1)
            return try statement.step() ? statement.blob(0) : nil
        }
    }

    /// `PRAGMA integrity_check`: `["ok"]` when SQLite finds the file sound.
    public func integrityCheck() throws(StoreError) -> [String] {
        try read("cannot check the store") { try connection.integrityCheck() }
    }

    /// Objects, their total size in bytes, versions and channels: for `tipcat versions` summaries and benchmarks.
    public func statistics() throws(StoreError) -> (objects: Int, bytes: Int, versions: Int, channels: Int) {
        try read("cannot read the store") {
            guard hasSchema else { return (0, 0, 0, 0) }
            let row = try connection.rows("""
                SELECT (SELECT count(*) FROM objects), (SELECT coalesce(sum(size), 0) FROM objects),
                       (SELECT count(*) FROM versions), (SELECT count(*) FROM channels)
                """)[0]
            return (row[0].intValue ?? 0, row[1].intValue ?? 0, row[2].intValue ?? 0, row[3].intValue ?? 0)
        }
    }
}
