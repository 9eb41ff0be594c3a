import CPostgreSQL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One libpq connection. Not thread-safe: use it from one thread at a time.
///
/// The connection string goes to `PQconnectdb` unchanged, so libpq's own rules apply: a
/// `postgresql://user:password@host:port/db?param=value` URL or `key=value` pairs, `PGHOST`, `PGPASSWORD`,
/// `~/.pgpass`, `PGSSLMODE` and the rest of its environment.
public final class PostgreSQLConnection {
    private let handle: OpaquePointer

    /// Connects; the server's notices (`relation already exists, skipping`) are dropped. The session's
    /// `application_name` is `applicationName` unless the connection string sets one.
    ///
    /// - Throws: `.authentication` when the server refused the credentials, `.cannotConnect` otherwise.
    public init(conninfo: String, applicationName: String = "tipcat") throws(PostgreSQLError) {
        if let failure = cpostgresql_load() {
            throw PostgreSQLError(kind: .cannotConnect, message: String(cString: failure))
        }
        let keywords: [UnsafeMutablePointer<CChar>?] = ["dbname", "fallback_application_name"].map { (text: String) in strdup(text) }
        let values: [UnsafeMutablePointer<CChar>?] = [conninfo, applicationName].map { (text: String) in strdup(text) }
        defer { for pointer in keywords + values { free(pointer) } }
        var keywordPointers = keywords.map { UnsafePointer<CChar>($0) } + [nil]
        var valuePointers = values.map { UnsafePointer<CChar>($0) } + [nil]
        // expand_dbname = 1: `dbname` holding a URL or key=value pairs is read as a whole connection string.
        let opened = keywordPointers.withUnsafeMutableBufferPointer { keywords in
            valuePointers.withUnsafeMutableBufferPointer { values in
                cpq_connectdbParams(keywords.baseAddress, values.baseAddress, 1)
            }
        }
        guard let connection = opened else {
            throw PostgreSQLError(kind: .cannotConnect, message: "libpq could not allocate a connection")
        }
        guard cpq_status(connection) == CONNECTION_OK else {
            let message = cpq_errorMessage(connection).map { String(cString: $0) } ?? "unknown error"
            cpq_finish(connection)
            throw PostgreSQLError(kind: PostgreSQLConnection.isAuthenticationFailure(message) ? .authentication : .cannotConnect, message: message)
        }
        handle = connection
        cpostgresql_silence_notices(connection)
    }

    deinit { cpq_finish(handle) }

    /// Whether libpq's message is about credentials rather than reaching the server.
    static func isAuthenticationFailure(_ message: String) -> Bool {
        let lowered = message.lowercased()
        return ["password authentication failed", "no password supplied", "authentication failed",
                "role \"", "pg_hba.conf rejects", "scram"].contains { lowered.contains($0) }
    }

    /// Whether the connection is still usable.
    public var isConnected: Bool { cpq_status(handle) == CONNECTION_OK }

    /// The server's version number (150004 for 15.4).
    public var serverVersion: Int { Int(cpq_serverVersion(handle)) }

    // MARK: Running statements

    /// Runs one or more statements without parameters (a migration script); results are discarded.
    public func execute(_ sql: String) throws(PostgreSQLError) {
        let result = cpq_exec(handle, sql)
        defer { cpq_clear(result) }
        try check(result)
    }

    /// Runs one statement with parameters (`$1`, `$2`…) and returns its rows (binary format).
    @discardableResult
    public func query(_ sql: String, _ values: [PostgreSQLValue] = []) throws(PostgreSQLError) -> [PostgreSQLRow] {
        let result = try run(sql, values)
        defer { cpq_clear(result) }
        let rowCount = cpq_ntuples(result)
        let columnCount = cpq_nfields(result)
        var rows: [PostgreSQLRow] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var columns: [[UInt8]?] = []
            columns.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if cpq_getisnull(result, row, column) != 0 {
                    columns.append(nil)
                    continue
                }
                let length = Int(cpq_getlength(result, row, column))
                guard let value = cpq_getvalue(result, row, column) else {
                    columns.append([])
                    continue
                }
                columns.append(value.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) })
            }
            rows.append(PostgreSQLRow(columns: columns))
        }
        return rows
    }

    /// Runs one statement with parameters and returns how many rows it inserted, updated or deleted.
    @discardableResult
    public func update(_ sql: String, _ values: [PostgreSQLValue] = []) throws(PostgreSQLError) -> Int {
        let result = try run(sql, values)
        defer { cpq_clear(result) }
        guard let tuples = cpq_cmdTuples(result) else { return 0 }
        return Int(String(cString: tuples)) ?? 0
    }

    /// The first column of the first row, or nil.
    public func scalar(_ sql: String, _ values: [PostgreSQLValue] = []) throws(PostgreSQLError) -> PostgreSQLRow? {
        try query(sql, values).first
    }

    private func run(_ sql: String, _ values: [PostgreSQLValue]) throws(PostgreSQLError) -> OpaquePointer? {
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        defer { for buffer in buffers { free(buffer) } }
        for value in values {
            switch value {
            case .null:
                buffers.append(nil)
                lengths.append(0)
                formats.append(0)
            case .text(let text):
                buffers.append(strdup(text))
                lengths.append(0)
                formats.append(0)
            case .int(let number):
                buffers.append(strdup(String(number)))
                lengths.append(0)
                formats.append(0)
            case .bytes(let bytes):
                guard let raw = malloc(max(1, bytes.count)) else {
                    throw PostgreSQLError(kind: .statement, message: "out of memory for a \(bytes.count)-byte parameter")
                }
                bytes.withUnsafeBytes { source in
                    if let base = source.baseAddress { raw.copyMemory(from: base, byteCount: source.count) }
                }
                let buffer = raw.assumingMemoryBound(to: CChar.self)
                buffers.append(buffer)
                lengths.append(Int32(bytes.count))
                formats.append(1)
            }
        }
        let pointers = buffers.map { UnsafePointer<CChar>($0) }
        let result = pointers.withUnsafeBufferPointer { values in
            lengths.withUnsafeBufferPointer { lengths in
                formats.withUnsafeBufferPointer { formats in
                    cpq_execParams(handle, sql, Int32(values.count), nil, values.baseAddress, lengths.baseAddress, formats.baseAddress, 1)
                }
            }
        }
        do {
            try check(result)
        } catch {
            cpq_clear(result)
            throw error
        }
        return result
    }

    /// Throws the result's error, if it is one.
    private func check(_ result: OpaquePointer?) throws(PostgreSQLError) {
        guard let result else {
            throw PostgreSQLError(kind: isConnected ? .statement : .connectionLost, message: lastMessage)
        }
        let status = cpq_resultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY { return }
        let sqlState = cpq_resultErrorField(result, cpostgresql_diag_sqlstate).map { String(cString: $0) }
        let primary = cpq_resultErrorField(result, cpostgresql_diag_message_primary).map { String(cString: $0) }
        let message = primary ?? (cpq_resultErrorMessage(result).map { String(cString: $0) } ?? lastMessage)
        // 57P01–57P03: the server is shutting down or cannot accept the statement; 08xxx: connection exceptions.
        let lost = !isConnected || (sqlState.map { $0.hasPrefix("08") || $0.hasPrefix("57P") } ?? false)
        throw PostgreSQLError(kind: lost ? .connectionLost : .statement, sqlState: sqlState, message: message.isEmpty ? lastMessage : message)
    }

    private var lastMessage: String {
        cpq_errorMessage(handle).map { String(cString: $0) } ?? "unknown error"
    }

    // MARK: Transactions

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. A COMMIT that
    /// loses the connection throws `.commitOutcomeUnknown`.
    ///
    /// `begin` may hold more statements after BEGIN (`SET LOCAL …`, taking a lock); when one of them fails, the
    /// transaction is rolled back before the error is thrown.
    public func transaction<T>(_ begin: String = "BEGIN", _ body: () throws -> T) throws -> T {
        do {
            try execute(begin)
        } catch {
            if isConnected { try? execute("ROLLBACK") }
            throw error
        }
        let value: T
        do {
            value = try body()
        } catch {
            if isConnected { try? execute("ROLLBACK") }
            throw error
        }
        do {
            try execute("COMMIT")
        } catch {
            if error.kind == .connectionLost {
                throw PostgreSQLError(kind: .commitOutcomeUnknown, sqlState: error.sqlState, message: error.message)
            }
            if isConnected { try? execute("ROLLBACK") }
            throw error
        }
        return value
    }
}
