public import TipcatCatalog
import TipcatCore
public import TipcatJSON

/// A published catalog in one canonical JSON file, for apps that ship it inside their binary.
///
/// ```json
/// {"bundle": "tipcat-bundle", "bundleHash": "9c1e…", "bundleVersion": 2, "catalog": {…canonical catalog…},
///  "channel": "production", "contentHash": "3f2a…", "publishedAt": "2026-03-01T09:30:00Z", "version": 3}
/// ```
/// `contentHash` is the version's content hash; `bundleHash` is the SHA-256 of the canonical bytes of every
/// other member (format, catalog, content hash, channel, publishing time, version). The file is canonical JSON
/// (DEL, C1 and bidi controls written as `\uXXXX`) and a final newline. Reading a bundle refuses one that is not byte for byte what it would write: a changed
/// byte of content or metadata, a reformatted file, an extra member.
///
/// Version 1 bundles (no `bundleHash`) are still read: their catalog is checked against `contentHash`, and
/// their unprotected metadata (`channel`, `publishedAt`, `version`) is ignored.
public struct CatalogBundle: Sendable {
    /// The value of the bundle's `bundle` key.
    public static let formatName = "tipcat-bundle"
    /// The bundle format this tipcat writes and the newest it reads.
    public static let formatVersion = 2

    /// The version's content hash (the root of its `ContentTree`).
    public var contentHash: SHA256Digest
    /// The catalog, as canonical pieces.
    public var pieces: CatalogPieces
    /// The version number it was exported from.
    public var version: Int?
    /// The channel it was exported from.
    public var channel: String?
    /// When that version was published, ISO 8601 UTC.
    public var publishedAt: String?

    /// A bundle from its parts.
    public init(contentHash: SHA256Digest, pieces: CatalogPieces, version: Int?, channel: String?, publishedAt: String?) {
        self.contentHash = contentHash
        self.pieces = pieces
        self.version = version
        self.channel = channel
        self.publishedAt = publishedAt
    }

    /// The bundle document (serialize it with `canonicalBytes`), its `bundleHash` included.
    public var document: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("bundle", .string(CatalogBundle.formatName)),
            ("bundleVersion", .int(CatalogBundle.formatVersion)),
            ("catalog", pieces.document),
            ("contentHash", .string(contentHash.hex)),
        ]
        if let channel { pairs.append(("channel", .string(channel))) }
        if let publishedAt { pairs.append(("publishedAt", .string(publishedAt))) }
        if let version { pairs.append(("version", .int(version))) }
        let hash = CatalogBundle.bundleHash(of: pairs)
        pairs.insert(("bundleHash", .string(hash.hex)), at: 1)
        return .object(pairs)
    }

    /// The hash that seals a bundle: SHA-256 of the canonical bytes of its members other than `bundleHash`.
    static func bundleHash(of members: [(String, JSONValue)]) -> SHA256Digest {
        SHA256.hash(JSONValue.object(members.filter { $0.0 != "bundleHash" }).canonicalBytes)
    }

    /// The bundle file's bytes: canonical JSON with terminal controls escaped (`JSONText.escapingTerminalControls`,
    /// so the file is safe to print), and a final newline.
    public var fileBytes: [UInt8] {
        Array(JSONText.escapingTerminalControls(String(decoding: document.canonicalBytes, as: UTF8.self)).utf8) + [UInt8(ascii: "\n")]
    }

    /// Reads a bundle file and checks its content hash.
    public init(bytes: [UInt8], path: String = "<bundle>") throws(CatalogDecodingError) {
        let document: JSONDocument
        do {
            document = try JSONDocument.parse(SourceFile(path: path, bytes: bytes), maxDepth: 1024)
        } catch {
            let location = SourceFile(path: path, bytes: bytes).location(ofByte: error.offset)
            throw CatalogDecodingError("not JSON: \(error.message) at line \(location.line), column \(location.column)", at: "")
        }
        if let (first, duplicate) = document.duplicateKeys().first {
            let at = document.location(ofByte: duplicate.keyOffset), firstAt = document.location(ofByte: first.keyOffset)
            throw CatalogDecodingError(
                "duplicate key '\(duplicate.key)' at line \(at.line), column \(at.column) (first written at line \(firstAt.line), column \(firstAt.column))",
                at: "")
        }
        let root = JSONReader(document.root.value, path: "")
        let format = try root.member("bundle").string()
        guard format == CatalogBundle.formatName else { throw CatalogDecodingError("not a tipcat bundle ('\(format)')", at: "bundle") }
        let version = try root.member("bundleVersion").int()
        guard version <= CatalogBundle.formatVersion else {
            throw CatalogDecodingError("bundle version \(version) is newer than this tipcat reads; upgrade tipcat", at: "bundleVersion")
        }
        let sealed = version >= 2
        let members: [(String, JSONValue)]
        if case .object(let object) = document.root.value {
            members = object.members.map { ($0.key, $0.value.value) }
        } else {
            members = []
        }
        if sealed {
            let hashText = try root.member("bundleHash").string()
            guard let recordedSeal = SHA256Digest(hex: hashText) else { throw CatalogDecodingError("not a SHA-256 hash", at: "bundleHash") }
            let seal = CatalogBundle.bundleHash(of: members)
            guard seal == recordedSeal else {
                throw CatalogDecodingError(
                    "the bundle hashes to \(seal.hex), not the recorded \(recordedSeal.hex); its content or metadata was altered",
                    at: "bundleHash")
            }
        } else if members.contains(where: { $0.0 == "bundleHash" }) {
            throw CatalogDecodingError("a version 1 bundle has no bundleHash; the bundle was altered", at: "bundleHash")
        }
        let hashText = try root.member("contentHash").string()
        guard let recorded = SHA256Digest(hex: hashText) else { throw CatalogDecodingError("not a SHA-256 hash", at: "contentHash") }
        let pieces = try CatalogPieces(document: root.member("catalog").value)
        let actual = ContentTree(pieces: pieces).root
        guard actual == recorded else {
            throw CatalogDecodingError("the catalog's content hashes to \(actual.hex), not the recorded \(recorded.hex); the bundle was altered", at: "contentHash")
        }
        guard sealed else {
            self.init(contentHash: recorded, pieces: pieces, version: nil, channel: nil, publishedAt: nil)
            return
        }
        self.init(
            contentHash: recorded, pieces: pieces, version: try root.optionalMember("version")?.int(),
            channel: try root.optionalMember("channel")?.string(), publishedAt: try root.optionalMember("publishedAt")?.string())
        // Every byte counts: what was read must be exactly what this bundle writes.
        guard fileBytes == bytes else {
            throw CatalogDecodingError(
                "the bundle is not byte for byte the canonical JSON its members make (reformatted, or a member was added or changed); the bundle was altered",
                at: "")
        }
    }

    /// The bundle's catalog as the model.
    public func catalog(origin: String) throws(CatalogDecodingError) -> Catalog {
        try CatalogCodec.decode(pieces, origin: origin)
    }
}
