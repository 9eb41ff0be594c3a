import Testing
import TipcatSQLite

/// `retryingWhileBusy`: busy refusals are retried until the timeout, anything else is thrown at once.
@Suite struct RetryTests {
    static let busy = SQLiteError(code: 5, message: "database is locked")      // SQLITE_BUSY
    static let locked = SQLiteError(code: 6, message: "database table is locked")  // SQLITE_LOCKED
    static let corrupt = SQLiteError(code: 11, message: "database disk image is malformed")

    @Test func busyRefusalsAreRetriedUntilTheBodySucceeds() throws {
        let connection = try Connection(path: ":memory:")
        var attempts = 0
        let result = try connection.retryingWhileBusy(for: 5_000) { () throws -> String in
            attempts += 1
            if attempts == 1 { throw Self.busy }
            if attempts == 2 { throw Self.locked }
            return "set up"
        }
        #expect(result == "set up")
        #expect(attempts == 3)
    }

    @Test func otherErrorsAreThrownAtOnce() throws {
        let connection = try Connection(path: ":memory:")
        var attempts = 0
        #expect(throws: Self.corrupt) {
            try connection.retryingWhileBusy(for: 5_000) { () throws -> Void in
                attempts += 1
                throw Self.corrupt
            }
        }
        #expect(attempts == 1)
    }

    @Test func busyPastTheTimeoutIsThrown() throws {
        let connection = try Connection(path: ":memory:")
        var attempts = 0
        #expect(throws: Self.busy) {
            try connection.retryingWhileBusy(for: 20) { () throws -> Void in
                attempts += 1
                throw Self.busy
            }
        }
        #expect(attempts > 1)
    }
}
