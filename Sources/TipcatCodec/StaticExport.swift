public import TipcatCore
import TipcatJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A channel exported for delivery over HTTP (`tipcat export --channel C --static DIR`), and how an app reads it.
///
/// ```text
/// DIR/channels/<C>.json              {"channel", "contentHash", "file", "format": "tipcat-channel",
///                                     "formatVersion": 1, "publishedAt", "sha256", "version"}
/// DIR/versions/<sha256>.json         the bundle (`CatalogBundle.fileBytes`), named by the SHA-256 of its bytes
/// DIR/<file>.etag                    each file's ETag: the SHA-256 (hex) of its bytes
/// ```
/// A versions file never changes (any changed byte changes its name), so it can be cached forever; the channel
/// file is the small pointer an app polls. Readers check the pointer, the SHA-256 of the bundle's bytes, the
/// bundle's own seal and content hash, and that the bundle is the version and channel the pointer names.
public enum StaticExport {
    /// The value of a channel file's `format` key.
    public static let channelFormat = "tipcat-channel"
    /// The channel file format this tipcat writes and reads.
    public static let channelFormatVersion = 1

    /// What a channel file says.
    public struct ChannelPointer: Sendable, Hashable {
        /// The channel.
        public var channel: String
        /// The version it points at.
        public var version: Int
        /// The version's content hash.
        public var contentHash: SHA256Digest
        /// When the version was published, ISO 8601 UTC.
        public var publishedAt: String?
        /// The SHA-256 of the bundle file's bytes.
        public var sha256: SHA256Digest

        /// A pointer from its parts.
        public init(channel: String, version: Int, contentHash: SHA256Digest, publishedAt: String?, sha256: SHA256Digest) {
            self.channel = channel
            self.version = version
            self.contentHash = contentHash
            self.publishedAt = publishedAt
            self.sha256 = sha256
        }

        /// The bundle's path relative to the export directory: `versions/<sha256>.json`.
        public var file: String { StaticExport.versionPath(sha256) }

        /// The channel file's bytes: canonical JSON and a final newline.
        public var fileBytes: [UInt8] {
            var pairs: [(String, JSONValue)] = [
                ("channel", .string(channel)), ("contentHash", .string(contentHash.hex)), ("file", .string(file)),
                ("format", .string(StaticExport.channelFormat)), ("formatVersion", .int(StaticExport.channelFormatVersion)),
            ]
            if let publishedAt { pairs.append(("publishedAt", .string(publishedAt))) }
            pairs += [("sha256", .string(sha256.hex)), ("version", .int(version))]
            return JSONValue.object(pairs).canonicalBytes + [UInt8(ascii: "\n")]
        }

        /// Reads a channel file.
        public init(bytes: [UInt8], path: String = "<channel>") throws(StaticExportError) {
            let value: JSONValue
            do {
                value = try JSONDocument.parse(SourceFile(path: path, bytes: bytes), maxDepth: 16).root.value
            } catch {
                throw StaticExportError.badChannelFile(path: path, reason: "it is not JSON (\(error.message))")
            }
            guard case .object(let object) = value else { throw StaticExportError.badChannelFile(path: path, reason: "it is not a JSON object") }
            func text(_ key: String) throws(StaticExportError) -> String {
                guard let text = object[key]?.value.stringValue else {
                    throw StaticExportError.badChannelFile(path: path, reason: "'\(key)' is missing or not a string")
                }
                return text
            }
            func digest(_ key: String) throws(StaticExportError) -> SHA256Digest {
                guard let digest = SHA256Digest(hex: try text(key)) else {
                    throw StaticExportError.badChannelFile(path: path, reason: "'\(key)' is not a SHA-256 hash")
                }
                return digest
            }
            guard try text("format") == StaticExport.channelFormat else {
                throw StaticExportError.badChannelFile(path: path, reason: "it is not a tipcat channel file")
            }
            guard case .number(let formatNumber)? = object["formatVersion"]?.value, let format = formatNumber.intValue,
                  format <= StaticExport.channelFormatVersion
            else {
                throw StaticExportError.badChannelFile(path: path, reason: "its formatVersion is missing or newer than this tipcat reads")
            }
            guard case .number(let versionNumber)? = object["version"]?.value, let version = versionNumber.intValue, version > 0 else {
                throw StaticExportError.badChannelFile(path: path, reason: "'version' is missing or not a version number")
            }
            let publishedAt = object["publishedAt"]?.value.stringValue
            self.init(
                channel: try text("channel"), version: version, contentHash: try digest("contentHash"), publishedAt: publishedAt,
                sha256: try digest("sha256"))
            // The bundle's path is derived from its hash; a pointer naming another path is refused.
            guard try text("file") == file else {
                throw StaticExportError.badChannelFile(path: path, reason: "'file' is not \(file)")
            }
        }
    }

    /// `channels/<channel>.json`.
    public static func channelPath(_ channel: String) -> String { "channels/\(channel).json" }

    /// `versions/<sha256>.json`.
    public static func versionPath(_ sha256: SHA256Digest) -> String { "versions/\(sha256.hex).json" }

    /// The ETag file beside `path`: `<path>.etag`, holding the SHA-256 (hex) of the file's bytes and a newline.
    public static func etagPath(_ path: String) -> String { path + ".etag" }

    /// An ETag file's bytes for a file with these bytes.
    public static func etagBytes(of bytes: [UInt8]) -> [UInt8] { Array((SHA256.hash(bytes).hex + "\n").utf8) }

    /// Reads a bundle an app downloaded: checks the SHA-256 of the bytes (when `expectedSHA256` is given, the
    /// hex of the name or the ETag it was fetched by), then the bundle's seal and content hash.
    public static func loadBundle(bytes: [UInt8], expectedSHA256: String?) throws(StaticExportError) -> CatalogBundle {
        if let expectedSHA256 {
            guard let expected = SHA256Digest(hex: expectedSHA256.lowercased()) else {
                throw StaticExportError.hashMismatch(path: "<bytes>", expected: expectedSHA256, actual: "not a SHA-256 hash")
            }
            let actual = SHA256.hash(bytes)
            guard actual == expected else {
                throw StaticExportError.hashMismatch(path: "<bytes>", expected: expected.hex, actual: actual.hex)
            }
        }
        do {
            return try CatalogBundle(bytes: bytes)
        } catch {
            throw StaticExportError.badBundle(path: "<bytes>", reason: error.description)
        }
    }

    /// Reads `channels/<channel>.json` in `directory`, then the bundle it names, checking the SHA-256 of the
    /// bundle's bytes, its seal and content hash, and that it is the channel's version.
    public static func loadBundle(directory: String, channel: String) throws(StaticExportError) -> CatalogBundle {
        guard !channel.isEmpty, channel.utf8.allSatisfy({ isNameByte($0) }), channel.first != "." else {
            throw StaticExportError.badChannelFile(path: channelPath(channel), reason: "'\(channel)' is not a channel name")
        }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        let channelFile = base + channelPath(channel)
        let pointer = try ChannelPointer(bytes: try readFile(channelFile), path: channelFile)
        guard pointer.channel == channel else {
            throw StaticExportError.badChannelFile(path: channelFile, reason: "it is the channel file of '\(pointer.channel)'")
        }
        let bundleFile = base + pointer.file
        let bytes = try readFile(bundleFile)
        let actual = SHA256.hash(bytes)
        guard actual == pointer.sha256 else {
            throw StaticExportError.hashMismatch(path: bundleFile, expected: pointer.sha256.hex, actual: actual.hex)
        }
        let bundle: CatalogBundle
        do {
            bundle = try CatalogBundle(bytes: bytes, path: bundleFile)
        } catch {
            throw StaticExportError.badBundle(path: bundleFile, reason: error.description)
        }
        guard bundle.contentHash == pointer.contentHash, bundle.version == pointer.version, bundle.channel == channel else {
            throw StaticExportError.badBundle(
                path: bundleFile,
                reason: "it is version \(bundle.version.map(String.init) ?? "?") of \(bundle.channel ?? "no channel") (content \(bundle.contentHash.shortHex())), not the channel file's version \(pointer.version) of \(channel) (content \(pointer.contentHash.shortHex()))")
        }
        return bundle
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F || byte == 0x2E
    }

    /// A whole file's bytes.
    static func readFile(_ path: String) throws(StaticExportError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw StaticExportError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StaticExportError.unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }
}

/// Why a statically exported channel or a downloaded bundle was refused.
public enum StaticExportError: TipcatError, Sendable, Hashable, CustomStringConvertible {
    /// A file cannot be read.
    case unreadable(path: String, reason: String)
    /// The channel file is not a tipcat channel file, or not this channel's.
    case badChannelFile(path: String, reason: String)
    /// The bytes do not hash to what the channel file (or the caller) expects.
    case hashMismatch(path: String, expected: String, actual: String)
    /// The bundle is altered, or is not the version the channel file names.
    case badBundle(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read '\(path)': \(reason)"
        case .badChannelFile(let path, let reason): "'\(path)' is refused: \(reason)"
        case .hashMismatch(let path, let expected, let actual):
            "'\(path)' is refused: its bytes hash to \(actual), not the expected \(expected)"
        case .badBundle(let path, let reason): "'\(path)' is refused: \(reason)"
        }
    }
}
