import Foundation
public import TipcatCatalog
package import TipcatCodec
import TipcatCore
public import TipcatEngine
import TipcatJSON

/// A published catalog, loaded and checked, ready for the engine: what an app ships (a bundle written by
/// `tipcat export`, or a static export directory) turned into a `Catalog` and its `CatalogRevision`.
///
/// ```swift
/// let bundle = try EngineBundle(contentsOf: "tips.bundle.json")
/// var engine = try TipEngineSession(catalog: bundle.catalog, revision: bundle.revision,
///                                   store: SQLiteTipStateStore(path: "state.sqlite"))
/// ```
///
/// Loading refuses a bundle whose seal (`bundleHash`) or content hash does not match what it holds, or whose
/// bytes are not exactly the canonical form `tipcat export` writes, so a damaged or edited bundle never runs.
public struct EngineBundle: Sendable {
    /// The catalog the engine runs.
    public let catalog: Catalog
    /// The published version's identity (its content hash) and per-tip hashes, for republish policies.
    public let revision: CatalogRevision
    /// The version's content hash, hex.
    public let contentHash: String
    /// The version number and channel it was exported from, and when it was published (absent in
    /// version 1 bundles).
    public let version: Int?
    public let channel: String?
    public let publishedAt: String?

    /// Reads a bundle from its bytes; `path` names it in errors and in the catalog's origin.
    public init(bytes: [UInt8], path: String = "<bundle>") throws(EngineBundleError) {
        let bundle: CatalogBundle
        let catalog: Catalog
        do {
            bundle = try CatalogBundle(bytes: bytes, path: path)
            catalog = try bundle.catalog(origin: path)
        } catch {
            throw EngineBundleError("\(path): \(error.description)")
        }
        self.catalog = catalog
        self.revision = EngineBundle.revision(bundle.contentHash, bundle.pieces)
        self.contentHash = bundle.contentHash.hex
        self.version = bundle.version
        self.channel = bundle.channel
        self.publishedAt = bundle.publishedAt
    }

    /// Reads a bundle file (`tipcat export -o FILE`).
    public init(contentsOf path: String) throws(EngineBundleError) {
        try self.init(bytes: try EngineBundle.read(path, what: "the bundle"), path: path)
    }

    /// Reads the head of `channel` from a static export directory: `channels/<channel>.json` names the
    /// version's file (`versions/<sha256>.json`, relative to the directory), its SHA-256 and its content hash;
    /// the file must hash to that SHA-256 and hold a bundle of that content hash (and version, when named).
    public init(exportDirectory directory: String, channel: String = "production") throws(EngineBundleError) {
        guard !channel.isEmpty, !channel.contains("/"), !channel.hasPrefix(".") else {
            throw EngineBundleError("'\(channel)' is not a channel name")
        }
        let pointerPath = directory + "/channels/" + channel + ".json"
        let pointer = try EngineBundle.read(pointerPath, what: "the channel file")
        let document: JSONDocument
        do {
            document = try JSONDocument.parse(SourceFile(path: pointerPath, bytes: pointer))
        } catch {
            let at = SourceFile(path: pointerPath, bytes: pointer).location(ofByte: error.offset)
            throw EngineBundleError("\(at): not JSON: \(error.message)")
        }
        guard case .object(let object) = document.root.value else {
            throw EngineBundleError("\(pointerPath): the channel file is not a JSON object")
        }
        func string(_ key: String) throws(EngineBundleError) -> String {
            guard let node = object[key] else { throw EngineBundleError("\(pointerPath): the channel file has no '\(key)'") }
            guard case .string(let text) = node.value else {
                throw EngineBundleError("\(document.location(of: node)): '\(key)' must be a string")
            }
            return text
        }
        let file = try string("file")
        let expectedFileHash = try string("sha256").lowercased()
        let expectedContent = try string("contentHash").lowercased()
        var expectedVersion: Int?
        if let node = object["version"] {
            guard case .number(let number) = node.value, let version = number.intValue else {
                throw EngineBundleError("\(document.location(of: node)): 'version' must be an integer")
            }
            expectedVersion = version
        }
        let parts = file.split(separator: "/", omittingEmptySubsequences: false)
        guard !file.isEmpty, !file.hasPrefix("/"), !parts.contains(where: { $0 == ".." || $0.isEmpty }) else {
            throw EngineBundleError("\(pointerPath): 'file' must be a path inside the export directory, not '\(file)'")
        }
        let path = directory + "/" + file
        let bytes = try EngineBundle.read(path, what: "the version file")
        let actual = SHA256.hash(bytes).hex
        guard actual == expectedFileHash else {
            throw EngineBundleError("\(path): the file hashes to \(actual), not the \(expectedFileHash) \(pointerPath) records; it was altered or replaced")
        }
        try self.init(bytes: bytes, path: path)
        guard contentHash == expectedContent else {
            throw EngineBundleError("\(path): holds content \(contentHash), not the \(expectedContent) \(pointerPath) records")
        }
        if let expectedVersion, version != expectedVersion {
            throw EngineBundleError("\(path): holds version \(version.map(String.init) ?? "none"), not the \(expectedVersion) \(pointerPath) records")
        }
    }

    /// A new engine session over this catalog and `store`, configured with `configuration`.
    public func session(store: any TipStateStore, configuration: TipEngineConfiguration = TipEngineConfiguration()) throws(TipEngineError) -> TipEngineSession {
        try TipEngineSession(catalog: catalog, revision: revision, store: store, configuration: configuration)
    }

    /// The revision of a published version: its content hash, and per tip a hash of its definition and
    /// translations (what `republish: reset` compares).
    package static func revision(_ contentHash: SHA256Digest, _ pieces: CatalogPieces) -> CatalogRevision {
        var hashes: [TipID: String] = [:]
        for (owner, piece) in pieces.owners where piece.tip != nil {
            var bytes = piece.tip?.canonicalBytes ?? []
            bytes.append(0)
            bytes += piece.strings?.canonicalBytes ?? []
            hashes[TipID(owner)] = SHA256.hash(bytes).hex
        }
        return CatalogRevision(version: contentHash.hex, contentHashes: hashes)
    }

    private static func read(_ path: String, what: String) throws(EngineBundleError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw EngineBundleError("\(path): no such file (\(what))")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw EngineBundleError("\(path): cannot read \(what)") }
        return [UInt8](data)
    }
}

/// Why a bundle could not be loaded, with the file it concerns.
public struct EngineBundleError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
