public import TipcatCore

/// Why a store operation failed, in words a release manager can act on.
public enum StoreError: TipcatError, Sendable, Hashable, CustomStringConvertible {
    /// The file is not a tipcat store: not SQLite, damaged, or another program's database. It was not changed.
    case notAStore(path: String, reason: String)
    /// The store was written by a newer tipcat (its schema has migrations this one does not know).
    case newerStore(path: String, migrations: [String])
    /// No store exists at the path (read-only commands never create one).
    case missingStore(path: String)
    /// SQLite failed (locking, I/O, constraint); `context` says what tipcat was doing.
    case database(context: String, message: String)
    /// `--expect-version` did not match the channel's head: someone published meanwhile.
    case versionMismatch(channel: String, actual: Int?, expected: Int)
    /// No version has this number.
    case unknownVersion(Int)
    /// No channel has this name.
    case unknownChannel(String)
    /// The channel name is not allowed.
    case invalidChannelName(String, reason: String)
    /// A stored object is missing or does not match its hash, or its content does not decode.
    case damagedObject(digest: String, reason: String)
    /// The catalog being published does not make an object its own tree names (a stale publish cache).
    case missingObject(String)
    /// `--store` or `TIPCAT_STORE` is a URL whose scheme names no backend (`mysql://…`).
    case unsupportedStoreURL(scheme: String)
    /// The store's server cannot be reached (refused, no such host or socket, no such database) or went away
    /// in the middle of an operation, which was then not applied. `location` has no password.
    case unavailable(location: String, reason: String)
    /// The connection broke while a write was being committed: it may or may not have been applied.
    case commitOutcomeUnknown(location: String, reason: String)
    /// The store's server refused the credentials. `location` has no password.
    case authenticationFailed(location: String, reason: String)

    /// A bad channel name or store URL is a command-line mistake (64); an unreachable server 69
    /// (`EX_UNAVAILABLE`, worth retrying); refused credentials 77 (`EX_NOPERM`); everything else a failure (1).
    public var exitStatus: ExitStatus {
        switch self {
        case .invalidChannelName, .unsupportedStoreURL: .usage
        case .unavailable, .commitOutcomeUnknown: .unavailable
        case .authenticationFailed: .noPermission
        default: .failure
        }
    }

    public var description: String {
        switch self {
        case .notAStore(let path, let reason):
            "'\(path)' is not a tipcat store: \(reason); it was left untouched"
        case .newerStore(let path, let migrations):
            "the store '\(path)' was written by a newer tipcat (unknown schema migrations: \(migrations.joined(separator: ", "))); upgrade tipcat to use it"
        case .missingStore(let path):
            "no store at '\(path)'; publish first, or name one with --store or TIPCAT_STORE"
        case .database(let context, let message):
            "\(context): \(message)"
        case .versionMismatch(let channel, let actual, let expected):
            "version mismatch: \(channel) is at \(actual.map(String.init) ?? "no version"), expected \(expected)"
        case .unknownVersion(let number):
            "there is no version \(number)"
        case .unknownChannel(let name):
            "there is no channel '\(name)'"
        case .invalidChannelName(let name, let reason):
            "invalid channel name '\(name)': \(reason)"
        case .damagedObject(let digest, let reason):
            "stored object \(digest) is damaged: \(reason)"
        case .missingObject(let digest):
            "the catalog does not make object \(digest) that its own tree names (a stale publish cache?); run again with --no-cache"
        case .unsupportedStoreURL(let scheme):
            "unsupported store URL scheme '\(scheme)://': use postgresql:// or postgres:// for PostgreSQL, or a file path for SQLite"
        case .unavailable(let location, let reason):
            "cannot reach the store '\(location)': \(reason)"
        case .commitOutcomeUnknown(let location, let reason):
            "the connection to '\(location)' broke while committing (\(reason)); the change may or may not have been applied: check with 'tipcat versions'"
        case .authenticationFailed(let location, let reason):
            "the store '\(location)' refused the credentials: \(reason) (passwords come from the URL, PGPASSWORD or ~/.pgpass)"
        }
    }
}
