/// A failure reported by libpq or the PostgreSQL server, sorted by what a caller can do about it.
public struct PostgreSQLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Kind: Sendable, Hashable {
        /// The connection could not be made: bad connection string, unknown host, refused, no socket,
        /// database missing.
        case cannotConnect
        /// The server refused the credentials (wrong or missing password, no such role).
        case authentication
        /// The connection broke while a statement ran (the server stopped or the network went away);
        /// the open transaction, if any, was not committed.
        case connectionLost
        /// The connection broke while COMMIT ran: the transaction may or may not have been committed.
        case commitOutcomeUnknown
        /// The server ran the statement and reported an error (`sqlState` says which).
        case statement
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// The five-character SQLSTATE the server reported (`40001`, `23505`…), when it reported one.
    public var sqlState: String?
    /// libpq's or the server's explanation, on one line.
    public var message: String

    /// Creates an error from its parts; `message` is folded onto one line.
    public init(kind: Kind, sqlState: String? = nil, message: String) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = PostgreSQLError.oneLine(message)
    }

    /// Serialization failure or deadlock: retrying the transaction may succeed.
    public var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }
    /// `lock_timeout` ran out.
    public var isLockTimeout: Bool { sqlState == "55P03" }
    /// A unique constraint was violated.
    public var isUniqueViolation: Bool { sqlState == "23505" }

    public var description: String {
        sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message
    }

    /// libpq's multi-line messages (`…failed: Connection refused\n\tIs the server running…`) as one line.
    static func oneLine(_ text: String) -> String {
        var lines: [String] = []
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            var trimmed = Substring(line)
            while let first = trimmed.first, first == " " || first == "\t" { trimmed.removeFirst() }
            while let last = trimmed.last, last == " " || last == "\t" { trimmed.removeLast() }
            if !trimmed.isEmpty { lines.append(String(trimmed)) }
        }
        return lines.joined(separator: " ")
    }
}
