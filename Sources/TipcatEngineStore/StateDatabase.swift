import Synchronization
import TipcatSQLite

/// The open state database: one connection and its prepared statements, behind a lock.
///
/// A class so that copies of `SQLiteTipStateStore` share it (the engine keeps a copy); `@unchecked Sendable`
/// because every use of the connection goes through `lock`.
final class StateDatabase: @unchecked Sendable {
    private let lock = Mutex(())
    let connection: Connection
    private var statements: [String: Statement] = [:]
    /// The device id from the `sync` table, once read.
    var device: String?

    init(connection: Connection) {
        self.connection = connection
    }

    /// Runs `body` with the connection, serialized with every other use.
    func with<T>(_ body: (StateDatabase) throws -> T) rethrows -> T {
        try lock.withLock { _ in try body(self) }
    }

    /// A cached prepared statement for `sql` (call inside `with`).
    func statement(_ sql: String) throws(SQLiteError) -> Statement {
        if let cached = statements[sql] { return cached }
        let statement = try connection.prepare(sql)
        statements[sql] = statement
        return statement
    }
}
