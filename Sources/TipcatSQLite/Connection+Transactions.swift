import CSQLite

/// How a transaction takes its locks.
public enum TransactionKind: String, Sendable, Hashable {
    /// Locks are taken on first use; a reader that later writes may fail with `SQLITE_BUSY`.
    case deferred = "DEFERRED"
    /// The write lock is taken at once (waiting up to the busy timeout), so the transaction cannot fail
    /// later for lack of it. Use it for every read-modify-write.
    case immediate = "IMMEDIATE"
    /// Like `immediate`; in WAL mode the two are the same.
    case exclusive = "EXCLUSIVE"
}

extension Connection {
    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// Inside an open transaction this nests as a savepoint, so helpers can use it freely.
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        if !isAutocommit { return try savepoint(body) }
        try execute("BEGIN \(kind.rawValue) TRANSACTION")
        let value: T
        do {
            value = try body()
        } catch {
            try? execute("ROLLBACK TRANSACTION")
            throw error
        }
        do {
            try execute("COMMIT TRANSACTION")
        } catch {
            try? execute("ROLLBACK TRANSACTION")
            throw error
        }
        return value
    }

    /// Runs `body` inside a savepoint: released when it returns, rolled back to when it throws.
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        try execute("SAVEPOINT tipcat_savepoint")
        do {
            let value = try body()
            try execute("RELEASE SAVEPOINT tipcat_savepoint")
            return value
        } catch {
            try? execute("ROLLBACK TRANSACTION TO SAVEPOINT tipcat_savepoint")
            try? execute("RELEASE SAVEPOINT tipcat_savepoint")
            throw error
        }
    }
}
