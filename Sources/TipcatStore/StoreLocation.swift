/// Where a store lives: an SQLite file, or a PostgreSQL database named by a URL.
///
/// `--store` and `TIPCAT_STORE` take either. A value that starts with `scheme://` is a URL: `postgresql://` and
/// `postgres://` select PostgreSQL; any other scheme is refused (`StoreError.unsupportedStoreURL`, exit 64)
/// rather than read as a file path. Everything else is the path of an SQLite file.
public enum StoreLocation: Sendable, Hashable, CustomStringConvertible {
    /// An SQLite store file.
    case sqlite(path: String)
    /// A PostgreSQL database.
    case postgreSQL(PostgreSQLURL)

    /// The URL schemes that select PostgreSQL.
    public static let postgreSQLSchemes = ["postgresql", "postgres"]

    /// Reads a `--store` value.
    public init(_ text: String) throws(StoreError) {
        guard let scheme = StoreLocation.scheme(of: text) else {
            self = .sqlite(path: text)
            return
        }
        guard StoreLocation.postgreSQLSchemes.contains(scheme.lowercased()) else {
            throw StoreError.unsupportedStoreURL(scheme: scheme)
        }
        self = .postgreSQL(PostgreSQLURL(text))
    }

    /// `scheme` of `scheme://…` (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`); nil for a path.
    static func scheme(of text: String) -> String? {
        guard let range = text.firstRange(of: "://") else { return nil }
        let scheme = text[..<range.lowerBound]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
              scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        return String(scheme)
    }

    /// For messages: the path, or the URL with its password replaced by `***`.
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgreSQL(let url): url.redacted
        }
    }

    /// Opens the store. A PostgreSQL store opened read-write creates and migrates its tables; read-only
    /// opens of either kind never create anything.
    public func open(_ mode: StoreOpenMode) throws(StoreError) -> any CatalogStore {
        switch self {
        case .sqlite(let path): try SQLiteCatalogStore(path: path, mode: mode)
        case .postgreSQL(let url): try PostgreSQLCatalogStore(url: url, mode: mode)
        }
    }
}

/// How a store is opened.
public enum StoreOpenMode: Sendable, Hashable {
    /// Read only; nothing is created.
    case readOnly
    /// Read and write; the store (SQLite: its file and directory; PostgreSQL: its tables) is created when missing.
    case readWrite
}

/// A `postgresql://` URL: passed to libpq as it is (libpq then also reads `PGPASSWORD` and `~/.pgpass`),
/// shown in messages without its password.
public struct PostgreSQLURL: Sendable, Hashable {
    /// The URL as given: libpq's connection string.
    public let conninfo: String
    /// The URL with the password of its user info and any `password=` parameter replaced by `***`.
    public let redacted: String
    /// The password as written and percent-decoded, scrubbed from any message libpq or the server returns.
    let secrets: [String]

    /// Parses just enough of `text` to hide its password.
    public init(_ text: String) {
        conninfo = text
        var secrets: [String] = []
        var redacted = text
        if let schemeEnd = text.firstRange(of: "://") {
            let rest = text[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                let password = String(authority[authority.index(after: colon)..<at])
                if !password.isEmpty {
                    secrets.append(password)
                    redacted = String(text[..<authority.index(after: colon)]) + "***" + String(text[at...])
                }
            }
        }
        // `?password=…` (libpq accepts every connection parameter in the query).
        if let question = redacted.firstIndex(of: "?") {
            let head = redacted[...question]
            let parameters = redacted[redacted.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                guard let equals = pair.firstIndex(of: "="), pair[..<equals].lowercased() == "password" else { return String(pair) }
                let value = String(pair[pair.index(after: equals)...])
                if !value.isEmpty { secrets.append(value) }
                return "password=***"
            }
            redacted = String(head) + parameters.joined(separator: "&")
        }
        self.secrets = secrets.flatMap { secret in
            let decoded = PostgreSQLURL.percentDecoded(secret)
            return decoded == secret ? [secret] : [secret, decoded]
        }.sorted { $0.count > $1.count }
        self.redacted = redacted
    }

    /// `text` with every secret replaced by `***`.
    func scrub(_ text: String) -> String {
        var result = text
        for secret in secrets where !secret.isEmpty { result = result.replacingAll(secret, with: "***") }
        return result
    }

    static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let high = hexValue(utf8[utf8.startIndex]), let low = hexValue(utf8[utf8.startIndex + 1]) {
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}

extension String {
    /// Every occurrence of `target` replaced, without Foundation.
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
