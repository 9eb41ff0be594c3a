import CSQLite

/// A failure reported by SQLite: its result code, its message and the statement it concerns.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`…), the low byte of `extendedCode`.
    public var code: Int32
    /// The extended result code (`SQLITE_BUSY_SNAPSHOT`…); equal to `code` when SQLite gave none.
    public var extendedCode: Int32
    /// SQLite's explanation (`database is locked`, `file is not a database`).
    public var message: String
    /// The SQL text that failed, when the failure concerns one statement.
    public var sql: String?

    /// Creates an error from its parts; `extendedCode` defaults to `code`.
    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.code = code & 0xFF
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
    }

    /// The error SQLite last reported on `handle`.
    init(handle: OpaquePointer?, code: Int32, sql: String? = nil) {
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
        let text = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        self.init(code: code, extendedCode: extended, message: text, sql: sql)
    }

    /// The database is locked by another connection and the busy timeout ran out.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    /// The file is damaged (`SQLITE_CORRUPT`) or is not an SQLite database at all (`SQLITE_NOTADB`).
    public var isCorruptOrNotADatabase: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
    /// A constraint (unique, check, foreign key, not null) was violated.
    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }
    /// The file could not be opened or created (missing directory, permissions).
    public var isCannotOpen: Bool { code == SQLITE_CANTOPEN }
    /// The connection or file is read-only.
    public var isReadOnly: Bool { code == SQLITE_READONLY }
    /// A read-only connection found a hot rollback journal: a writer that used one died mid-transaction, and only a
    /// connection that may write can roll it back (`SQLITE_READONLY_ROLLBACK`).
    public var isHotJournalOnReadOnly: Bool { extendedCode == SQLITE_READONLY | (3 << 8) }

    public var description: String {
        var text = "\(message) (SQLite error \(extendedCode))"
        if let sql { text += " in: \(sql)" }
        return text
    }
}
