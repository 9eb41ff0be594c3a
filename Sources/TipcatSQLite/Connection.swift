import CSQLite

/// One open SQLite database. The connection owns its handle and closes it when released.
///
/// A connection is meant to be used from one thread at a time (it is not `Sendable`); open one per thread
/// or process. Every failure is thrown as an `SQLiteError` carrying SQLite's code, message and the SQL.
public final class Connection {
    /// How the file is opened.
    public enum Mode: Sendable, Hashable {
        /// Reading only; the file must exist.
        case readOnly
        /// Reading and writing; the file must exist.
        case readWrite
        /// Reading and writing; the file is created when it does not exist.
        case readWriteCreate
    }

    let handle: OpaquePointer
    /// The path the connection was opened with.
    public let path: String
    /// The mode the connection was opened with.
    public let mode: Mode

    /// Opens (or creates) the database at `path`.
    ///
    /// - Parameter busyTimeoutMilliseconds: how long a statement waits for another connection's lock before
    ///   failing with `SQLITE_BUSY`.
    public init(path: String, mode: Mode = .readWriteCreate, busyTimeoutMilliseconds: Int32 = 5000) throws(SQLiteError) {
        var flags: Int32
        switch mode {
        case .readOnly: flags = SQLITE_OPEN_READONLY
        case .readWrite: flags = SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        // A connection is used by one thread at a time (see above), so SQLite's own per-call mutex is not
        // needed ("multi-thread" mode); it cost a lock and an unlock in every step and column read.
        flags |= SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX
        var opened: OpaquePointer?
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        guard status == SQLITE_OK, let opened else {
            let error = SQLiteError(handle: opened, code: status)
            if let opened { sqlite3_close_v2(opened) }
            throw error
        }
        sqlite3_extended_result_codes(opened, 1)
        sqlite3_busy_timeout(opened, busyTimeoutMilliseconds)
        self.handle = opened
        self.path = path
        self.mode = mode
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Changes how long statements wait for locks held by other connections.
    public func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Runs one or more SQL statements that take no parameters and return no rows of interest.
    public func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if status != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) }
            sqlite3_free(errorMessage)
            var error = SQLiteError(handle: handle, code: status, sql: sql)
            if let message { error.message = message }
            throw error
        }
    }

    /// Compiles one SQL statement.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else {
            throw SQLiteError(handle: handle, code: status == SQLITE_OK ? SQLITE_MISUSE : status, sql: sql)
        }
        return Statement(handle: statement, connection: self, sql: sql)
    }

    /// Runs one statement with `values` bound to its parameters, ignoring any rows.
    public func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) {
        let statement = try prepare(sql)
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Runs one query and returns every row.
    public func rows(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var rows: [[SQLiteValue]] = []
        while try statement.step() { rows.append(statement.row) }
        return rows
    }

    /// The first column of the first row of a query, or nil when it returns no row.
    public func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue? {
        let statement = try prepare(sql)
        try statement.bind(values)
        return try statement.step() ? statement.column(0) : nil
    }

    /// The number of rows the last INSERT, UPDATE or DELETE changed.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// The rowid of the last row inserted on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether no transaction is open.
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Switches the database to write-ahead logging (readers never block the writer and see only committed
    /// transactions). A no-op when it already uses WAL.
    public func enableWriteAheadLog() throws(SQLiteError) {
        let mode = try scalar("PRAGMA journal_mode = WAL")?.textValue?.lowercased()
        guard mode == "wal" else {
            throw SQLiteError(code: SQLITE_ERROR, message: "cannot switch to WAL mode (journal mode is \(mode ?? "unknown"))",
                              sql: "PRAGMA journal_mode = WAL")
        }
    }

    /// The current journal mode (`wal`, `delete`…).
    public func journalMode() throws(SQLiteError) -> String {
        try scalar("PRAGMA journal_mode")?.textValue?.lowercased() ?? ""
    }

    /// `PRAGMA integrity_check`: `["ok"]` for a sound database, else SQLite's findings.
    public func integrityCheck() throws(SQLiteError) -> [String] {
        try rows("PRAGMA integrity_check").compactMap { $0.first?.textValue }
    }

    /// The version of the SQLite library in use (`3.40.1`).
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}
