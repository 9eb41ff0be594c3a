import TipcatCore
import TipcatPostgreSQL
public import TipcatCodec

/// The PostgreSQL backend of `CatalogStore`: the SQLite store's tables (`PostgreSQLSchema`) in a database
/// named by a `postgresql://` URL, for teams that publish from several machines.
///
/// Every write runs in one READ COMMITTED transaction that first takes a transaction-level advisory lock,
/// so writers go one at a time (as SQLite's `BEGIN IMMEDIATE`) and each reads the channel's head, checks
/// `--expect-version` and adds its version under the lock: of concurrent publishers with the same guard exactly
/// one wins and the others get `StoreError.versionMismatch`. Objects are inserted with
/// `ON CONFLICT DO NOTHING`, shared between versions. A connection that breaks before COMMIT leaves nothing
/// behind (the server rolls the transaction back).
public final class PostgreSQLCatalogStore: CatalogStore {
    /// The URL without its password.
    public let location: String
    let url: PostgreSQLURL
    let connection: PostgreSQLConnection
    /// Whether the tables exist (a read-only open of an empty database has none).
    private var hasSchema = false

    /// Connects to the database at `url`; read-write opens create and migrate the tables.
    ///
    /// - Throws: `StoreError.unavailable` (cannot connect), `.authenticationFailed`, `.notAStore` (tables
    ///   of another program), `.newerStore`, `.database`.
    public init(url: PostgreSQLURL, mode: StoreOpenMode) throws(StoreError) {
        location = url.redacted
        self.url = url
        do {
            connection = try PostgreSQLConnection(conninfo: url.conninfo)
        } catch {
            throw PostgreSQLCatalogStore.classify(error, url: url, context: "cannot connect")
        }
        try checkIdentity()
        if mode == .readWrite { try migrate() } else { try checkReadable() }
        hasSchema = try read("cannot read the store") { try appliedMigrations() != nil }
    }

    // MARK: Errors

    static func classify(_ error: PostgreSQLError, url: PostgreSQLURL, context: String) -> StoreError {
        let reason = url.scrub(error.description)
        switch error.kind {
        case .cannotConnect:
            return .unavailable(location: url.redacted, reason: reason)
        case .authentication:
            return .authenticationFailed(location: url.redacted, reason: reason)
        case .connectionLost:
            return .unavailable(location: url.redacted, reason: "\(context): the connection was lost (\(reason)); nothing was changed")
        case .commitOutcomeUnknown:
            return .commitOutcomeUnknown(location: url.redacted, reason: reason)
        case .statement:
            if error.isLockTimeout {
                return .database(context: context, message: "the store is locked by another tipcat; try again")
            }
            return .database(context: context, message: reason)
        }
    }

    func read<T>(_ context: String, _ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch let error as PostgreSQLError {
            throw PostgreSQLCatalogStore.classify(error, url: url, context: context)
        } catch {
            throw StoreError.database(context: context, message: url.scrub("\(error)"))
        }
    }

    /// Runs `body` in one transaction holding the store's write lock (waiting up to 60 s for other writers).
    func write<T>(_ context: String, _ body: () throws -> T) throws(StoreError) -> T {
        try read(context) {
            try connection.transaction(
                "BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL lock_timeout = '60s'; SELECT pg_advisory_xact_lock(\(PostgreSQLSchema.writeLock))",
                body)
        }
    }

    // MARK: Schema

    /// The applied migration ids, or nil when the migrations table does not exist.
    private func appliedMigrations() throws -> [String]? {
        let exists = try connection.scalar("SELECT to_regclass($1) IS NOT NULL", [.text(PostgreSQLSchema.migrationsTable)])?.bool(0) ?? false
        guard exists else { return nil }
        return try connection.query("SELECT id FROM \(PostgreSQLSchema.migrationsTable) ORDER BY applied_at, id").compactMap { $0.text(0) }
    }

    /// Tables named like the store's without a migrations table belong to another program; migrations this
    /// tipcat does not know mean a newer tipcat wrote the store.
    private func checkIdentity() throws(StoreError) {
        try read("cannot read the store '\(location)'") {
            var applied = try appliedMigrations()
            if applied == nil {
                let foreign = try connection.query(
                    "SELECT t FROM unnest(ARRAY['objects', 'versions', 'channels', 'channel_moves', 'republish_resets']) AS t WHERE to_regclass(t) IS NOT NULL ORDER BY t"
                ).compactMap { $0.text(0) }
                // Another tipcat may have committed its first migration between the two lookups (each sees the
                // latest catalog): the store's tables and its migrations table appear together, so look again.
                if !foreign.isEmpty { applied = try appliedMigrations() }
                if !foreign.isEmpty, applied == nil {
                    throw StoreError.notAStore(
                        path: location,
                        reason: "the database has tables named \(foreign.joined(separator: ", ")) but no \(PostgreSQLSchema.migrationsTable); use a database of its own for tipcat")
                }
            }
            guard let applied else { return }
            let known = Set(PostgreSQLSchema.migrations.map(\.id))
            let unknown = applied.filter { !known.contains($0) }
            if !unknown.isEmpty { throw StoreError.newerStore(path: location, migrations: unknown) }
        }
    }

    /// Creates the tables and applies pending migrations, in one transaction under the write lock (so two
    /// tipcats preparing the same new database apply each migration once).
    private func migrate() throws(StoreError) {
        let current = try read("cannot read the store '\(location)'") { try appliedMigrations() ?? [] }
        if PostgreSQLSchema.migrations.allSatisfy({ current.contains($0.id) }) { return }
        try write("cannot prepare the store '\(location)'") {
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS \(PostgreSQLSchema.migrationsTable) (
                    id text PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT clock_timestamp()
                )
                """)
            let applied = Set(try appliedMigrations() ?? [])
            for migration in PostgreSQLSchema.migrations where !applied.contains(migration.id) {
                try connection.execute(migration.sql)
                try connection.update("INSERT INTO \(PostgreSQLSchema.migrationsTable) (id) VALUES ($1)", [.text(migration.id)])
            }
        }
    }

    /// A read-only open of a store written by an older tipcat asks for one publish to upgrade it.
    private func checkReadable() throws(StoreError) {
        try read("cannot read the store '\(location)'") {
            guard let applied = try appliedMigrations() else { return }
            let pending = PostgreSQLSchema.migrations.map(\.id).filter { !applied.contains($0) }
            if !pending.isEmpty {
                throw StoreError.database(
                    context: "the store '\(location)' was written by an older tipcat",
                    message: "publish once with this tipcat to upgrade it (pending: \(pending.joined(separator: ", ")))")
            }
        }
    }

    // MARK: Reading

    static let versionColumns = SQLiteCatalogStore.versionColumns

    func versionRows(_ sql: String, _ values: [PostgreSQLValue] = []) throws -> [VersionRecord] {
        guard hasSchema else { return [] }
        return try connection.query(sql, values).map { row in
            guard let number = row.int(0), let hash = row.bytes(8).flatMap(SHA256Digest.init(bytes:)),
                  let type = row.text(4).flatMap(VersionType.init(rawValue:))
            else {
                throw StoreError.damagedObject(digest: "version \(row.int(0).map(String.init) ?? "?")", reason: "its record is malformed")
            }
            return VersionRecord(
                number: number, channel: row.text(1) ?? "", parent: row.int(2), source: row.int(3), type: type,
                author: row.text(5) ?? "", createdAt: row.text(6) ?? "", message: row.text(7) ?? "", contentHash: hash,
                tipcatVersion: row.text(9) ?? "", tipsChanged: row.int(10) ?? 0)
        }
    }

    public func channels() throws(StoreError) -> [ChannelHead] {
        try read("cannot list channels") {
            guard hasSchema else { return [] }
            return try connection.query("SELECT name, version, updated_at FROM channels ORDER BY name COLLATE \"C\"").map { row in
                ChannelHead(name: row.text(0) ?? "", version: row.int(1) ?? 0, updatedAt: row.text(2) ?? "")
            }
        }
    }

    public func head(of channel: ChannelName) throws(StoreError) -> VersionRecord? {
        try read("cannot read channel '\(channel)'") {
            try versionRows(
                "SELECT \(Self.versionColumns) FROM versions WHERE number = (SELECT version FROM channels WHERE name = $1)",
                [.text(channel.rawValue)]).first
        }
    }

    public func version(_ number: Int) throws(StoreError) -> VersionRecord? {
        try read("cannot read version \(number)") {
            try versionRows("SELECT \(Self.versionColumns) FROM versions WHERE number = $1", [.int(number)]).first
        }
    }

    public func versions() throws(StoreError) -> [VersionRecord] {
        try read("cannot list versions") {
            try versionRows("SELECT \(Self.versionColumns) FROM versions ORDER BY number")
        }
    }

    public func history(of channel: ChannelName) throws(StoreError) -> [VersionRecord] {
        try read("cannot read the history of '\(channel)'") {
            let columns = Self.versionColumns.split(separator: ",").map { "v." + String($0).trimmingWhitespace() }.joined(separator: ", ")
            let records = try versionRows(
                "SELECT \(columns) FROM channel_moves m JOIN versions v ON v.number = m.version WHERE m.channel = $1 ORDER BY m.id",
                [.text(channel.rawValue)])
            var seen = Set<Int>()
            return records.filter { seen.insert($0.number).inserted }
        }
    }

    public func resets(of version: Int) throws(StoreError) -> [String] {
        try read("cannot read version \(version)") {
            guard hasSchema else { return [] }
            return try connection.query("SELECT tip FROM republish_resets WHERE version = $1 ORDER BY tip COLLATE \"C\"", [.int(version)])
                .compactMap { $0.text(0) }
        }
    }

    public func bytes(of digest: SHA256Digest) throws(StoreError) -> [UInt8]? {
        try read("cannot read object \(digest.shortHex())") {
            guard hasSchema else { return nil }
            return try connection.scalar("SELECT content FROM objects WHERE hash = $1", [.bytes(digest.bytes)])?.bytes(0)
        }
    }

    /// Many objects in a few queries (a thousand hashes each) instead of one round trip per object.
    public func bytes(of digests: [SHA256Digest]) throws(StoreError) -> [SHA256Digest: [UInt8]] {
        try read("cannot read \(digests.count) objects") {
            guard hasSchema else { return [:] }
            var found: [SHA256Digest: [UInt8]] = [:]
            found.reserveCapacity(digests.count)
            for row in try objectRows("hash, content", of: digests, perQuery: 1_000) {
                guard let digest = row.bytes(0).flatMap(SHA256Digest.init(bytes:)), let content = row.bytes(1) else { continue }
                found[digest] = content
            }
            return found
        }
    }

    /// `SELECT columns FROM objects` for these hashes, `perQuery` hashes a query (sent as one hex list).
    func objectRows(_ columns: String, of digests: [SHA256Digest], perQuery: Int) throws -> [PostgreSQLRow] {
        var rows: [PostgreSQLRow] = []
        for start in stride(from: 0, to: digests.count, by: perQuery) {
            let chunk = digests[start..<min(start + perQuery, digests.count)]
            rows += try connection.query(
                "SELECT \(columns) FROM objects WHERE hash IN (SELECT decode(h, 'hex') FROM unnest(string_to_array($1, ',')) AS h)",
                [.text(chunk.map(\.hex).joined(separator: ","))])
        }
        return rows
    }

    /// Objects, their total size in bytes, versions and channels.
    public func statistics() throws(StoreError) -> (objects: Int, bytes: Int, versions: Int, channels: Int) {
        try read("cannot read the store") {
            guard hasSchema, let row = try connection.scalar("""
                SELECT (SELECT count(*) FROM objects), (SELECT coalesce(sum(size), 0)::bigint FROM objects),
                       (SELECT count(*) FROM versions), (SELECT count(*) FROM channels)
                """) else { return (0, 0, 0, 0) }
            return (row.int(0) ?? 0, row.int(1) ?? 0, row.int(2) ?? 0, row.int(3) ?? 0)
        }
    }
}
