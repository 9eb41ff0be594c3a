import CSQLite

/// A compiled SQL statement of a `Connection`; it keeps its connection alive.
///
/// Bind values, `step()` through the rows, read columns, then `reset()` to run it again.
public final class Statement {
    let handle: OpaquePointer
    /// The connection this statement belongs to.
    public let connection: Connection
    /// The SQL text, for error messages.
    public let sql: String

    init(handle: OpaquePointer, connection: Connection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `values` to parameters 1…n (after clearing previous bindings).
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value to the 1-based parameter `index`.
    public func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let status: Int32
        switch value {
        case .null:
            status = sqlite3_bind_null(handle, index)
        case .integer(let number):
            status = sqlite3_bind_int64(handle, index, number)
        case .real(let number):
            status = sqlite3_bind_double(handle, index, number)
        case .text(let text):
            status = bindText(text, at: index)
        case .blob(let bytes):
            status = bindBlob(bytes, at: index)
        }
        guard status == SQLITE_OK else { throw SQLiteError(handle: connection.handle, code: status, sql: sql) }
    }

    /// Binds bytes without wrapping them in a `SQLiteValue` first.
    public func bind(bytes: [UInt8], at index: Int32) throws(SQLiteError) {
        let status = bindBlob(bytes, at: index)
        guard status == SQLITE_OK else { throw SQLiteError(handle: connection.handle, code: status, sql: sql) }
    }

    private func bindText(_ text: String, at index: Int32) -> Int32 {
        var copy = text
        return copy.withUTF8 { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                return csqlite_bind_text_transient(handle, index, "", 0)
            }
            return UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
                csqlite_bind_text_transient(handle, index, pointer, Int32(buffer.count))
            }
        }
    }

    private func bindBlob(_ bytes: [UInt8], at index: Int32) -> Int32 {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return csqlite_bind_blob_transient(handle, index, base, Int32(raw.count))
        }
    }

    /// Advances to the next row: true when a row is available, false when the statement is done.
    public func step() throws(SQLiteError) -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(handle: connection.handle, code: status, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Rewinds the statement so it can run again; bindings are kept.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Binds `values`, runs the statement to completion and rewinds it (for repeated inserts).
    public func execute(_ values: [SQLiteValue]) throws(SQLiteError) {
        defer { reset() }
        try bind(values)
        while try step() {}
    }

    /// The number of columns in each row.
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The column's name as the query names it.
    public func columnName(_ index: Int32) -> String {
        sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
    }

    /// The value of the 0-based column `index` in the current row.
    public func column(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: return .text(text(index) ?? "")
        case SQLITE_BLOB: return .blob(blob(index) ?? [])
        default: return .null
        }
    }

    /// Every column of the current row.
    public var row: [SQLiteValue] { (0..<columnCount).map(column) }

    /// The column as an integer (0 for NULL, as SQLite converts).
    public func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// The column as an `Int`, or nil when it is NULL.
    public func optionalInt(_ index: Int32) -> Int? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(handle, index))
    }

    /// The column as text, or nil when it is NULL.
    public func text(_ index: Int32) -> String? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else { return nil }
        guard let pointer = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The bytes of a text or blob column in place, without copying them (empty for NULL). They belong to
    /// SQLite: valid only until the next `step`, `reset` or read of the same column as another type.
    public func unsafeBytes(_ index: Int32) -> UnsafeRawBufferPointer {
        // sqlite3_column_blob first, then sqlite3_column_bytes: SQLite's documented safe order.
        let pointer = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return UnsafeRawBufferPointer(start: count > 0 ? pointer : nil, count: count > 0 ? count : 0)
    }

    /// The column as a `Double` (0 for NULL, as SQLite converts).
    public func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// Whether the column is NULL in the current row.
    public func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// The column as bytes, or nil when it is NULL.
    public func blob(_ index: Int32) -> [UInt8]? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let pointer = sqlite3_column_blob(handle, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
