/// One schema change, registered under a stable identifier and applied at most once per database.
public struct Migration: Sendable {
    /// A stable identifier, recorded in the database once applied (`"001-create-store"`).
    public var id: String
    /// Applies the change. It runs inside a transaction together with the record of the migration.
    public var apply: @Sendable (Connection) throws -> Void

    /// A migration that runs `apply`.
    public init(_ id: String, apply: @escaping @Sendable (Connection) throws -> Void) {
        self.id = id
        self.apply = apply
    }

    /// A migration that runs an SQL script.
    public init(_ id: String, sql: String) {
        self.init(id) { connection in try connection.execute(sql) }
    }
}

/// Why migrating failed.
public enum MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database records migrations this program does not know: it was written by a newer version.
    case unknownMigrations([String])
    /// A migration failed; nothing of it was applied.
    case failed(id: String, message: String)
    /// Migrations are pending but the connection may not write (read-only).
    case pendingOnReadOnlyConnection([String])

    public var description: String {
        switch self {
        case .unknownMigrations(let ids):
            "the database has schema migrations this program does not know (\(ids.joined(separator: ", "))); it was written by a newer version"
        case .failed(let id, let message):
            "schema migration '\(id)' failed: \(message)"
        case .pendingOnReadOnlyConnection(let ids):
            "the database needs schema migrations (\(ids.joined(separator: ", "))) but is open read-only"
        }
    }
}

/// Applies registered migrations in order and records each one in a table, GRDB style.
///
/// Each migration runs in its own `IMMEDIATE` transaction with its record, so two processes migrating the
/// same database at once apply it exactly once, and a crash leaves either all of a migration or none of it.
public struct Migrator: Sendable {
    /// The migrations in the order they apply.
    public var migrations: [Migration]
    /// The table that records applied migrations.
    public var tableName: String

    /// A migrator for `migrations`, recording them in `tableName`.
    public init(_ migrations: [Migration], tableName: String = "schema_migrations") {
        self.migrations = migrations
        self.tableName = tableName
    }

    /// The identifiers recorded as applied, in the order they were applied (empty for a new database).
    public func appliedIDs(_ connection: Connection) throws(SQLiteError) -> [String] {
        let exists = try connection.scalar(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(tableName)])
        guard exists?.integerValue == 1 else { return [] }
        return try connection.rows("SELECT id FROM \"\(tableName)\" ORDER BY rowid").compactMap { $0.first?.textValue }
    }

    /// Recorded identifiers this migrator does not know (a newer program's migrations).
    public func unknownIDs(_ connection: Connection) throws(SQLiteError) -> [String] {
        let known = Set(migrations.map(\.id))
        return try appliedIDs(connection).filter { !known.contains($0) }
    }

    /// The registered migrations not yet applied.
    public func pendingIDs(_ connection: Connection) throws(SQLiteError) -> [String] {
        let applied = Set(try appliedIDs(connection))
        return migrations.map(\.id).filter { !applied.contains($0) }
    }

    /// Applies every pending migration; returns the identifiers it applied.
    ///
    /// - Throws: `MigrationError.unknownMigrations` when the database is newer than this program (nothing is
    ///   changed); `MigrationError.failed` when a migration fails (it is rolled back); `SQLiteError` for
    ///   locking and I/O failures.
    @discardableResult
    public func migrate(_ connection: Connection) throws -> [String] {
        let unknown = try unknownIDs(connection)
        if !unknown.isEmpty { throw MigrationError.unknownMigrations(unknown) }
        let pending = try pendingIDs(connection)
        if pending.isEmpty { return [] }
        if connection.mode == .readOnly { throw MigrationError.pendingOnReadOnlyConnection(pending) }
        var applied: [String] = []
        for migration in migrations where pending.contains(migration.id) {
            try connection.transaction(.immediate) {
                try connection.execute("""
                    CREATE TABLE IF NOT EXISTS "\(tableName)" (
                        id TEXT PRIMARY KEY NOT NULL,
                        applied_at TEXT NOT NULL
                    )
                    """)
                // Another process may have applied it while this one waited for the lock.
                let done = try connection.scalar("SELECT count(*) FROM \"\(tableName)\" WHERE id = ?", [.text(migration.id)])
                guard done?.integerValue == 0 else { return }
                do {
                    try migration.apply(connection)
                } catch let error as SQLiteError {
                    throw MigrationError.failed(id: migration.id, message: error.description)
                } catch {
                    throw MigrationError.failed(id: migration.id, message: "\(error)")
                }
                try connection.run(
                    "INSERT INTO \"\(tableName)\" (id, applied_at) VALUES (?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                    [.text(migration.id)])
                applied.append(migration.id)
            }
        }
        return applied
    }
}
