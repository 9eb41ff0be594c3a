import Glibc

extension Connection {
    /// Runs `body`, which sets the database up (journal mode, pragmas, migrations), retrying it while SQLite
    /// refuses with `SQLITE_BUSY` until `milliseconds` have passed; any other error is thrown at once.
    ///
    /// While another process sets up the same new database, SQLite can refuse at once, without waiting the busy
    /// timeout: switching the journal mode, or a read whose snapshot the other process's first write has made
    /// stale. Such a refusal only means "not yet", so it is retried, with pauses growing from 0.5 to 50 ms.
    /// `body` must be safe to run again (every step idempotent, as pragmas and recorded migrations are).
    public func retryingWhileBusy<T>(for milliseconds: Int32, _ body: () throws -> T) throws -> T {
        let deadline = ContinuousClock.now + .milliseconds(Int(max(0, milliseconds)))
        var pauseMicroseconds: UInt32 = 500
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.isBusy && ContinuousClock.now < deadline {
                usleep(pauseMicroseconds)
                pauseMicroseconds = min(pauseMicroseconds * 2, 50_000)
            }
        }
    }
}
