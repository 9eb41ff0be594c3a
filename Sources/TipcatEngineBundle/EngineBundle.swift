import Foundation
public import TipcatCatalog
package import TipcatCodec
import TipcatCore
public import TipcatEngine

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
        do {
            bundle = try CatalogBundle(bytes: bytes, path: path)
        } catch {
            throw EngineBundleError("\(path): \(error.description)")
        }
        try self.init(bundle, origin: path)
    }

    /// Reads a bundle file (`tipcat export -o FILE`).
    public init(contentsOf path: String) throws(EngineBundleError) {
        try self.init(bytes: try EngineBundle.read(path, what: "the bundle"), path: path)
    }

    /// Reads a bundle the app downloaded from a static export (`versions/<sha256>.json`): when `expectedSHA256`
    /// is given (the hash in the file's name, or the ETag it was fetched by), the bytes must hash to it; then
    /// the bundle's seal and content hash are checked.
    public init(downloaded bytes: [UInt8], expectedSHA256: String?) throws(EngineBundleError) {
        let bundle: CatalogBundle
        do {
            bundle = try StaticExport.loadBundle(bytes: bytes, expectedSHA256: expectedSHA256)
        } catch {
            throw EngineBundleError(error.description)
        }
        try self.init(bundle, origin: "<downloaded bundle>")
    }

    /// Reads the head of `channel` from a static export directory (`tipcat export --static DIR`):
    /// `channels/<channel>.json` names the version, its content hash and the SHA-256 of its file
    /// `versions/<sha256>.json`; the file must hash to that SHA-256 and hold a sealed bundle of that version and
    /// content hash.
    public init(exportDirectory directory: String, channel: String = "production") throws(EngineBundleError) {
        let bundle: CatalogBundle
        do {
            bundle = try StaticExport.loadBundle(directory: directory, channel: channel)
        } catch {
            throw EngineBundleError(error.description)
        }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        try self.init(bundle, origin: base + StaticExport.channelPath(channel))
    }

    /// A checked bundle, decoded for the engine.
    private init(_ bundle: CatalogBundle, origin: String) throws(EngineBundleError) {
        let catalog: Catalog
        do {
            catalog = try bundle.catalog(origin: origin)
        } catch {
            throw EngineBundleError("\(origin): \(error.description)")
        }
        self.catalog = catalog
        self.revision = EngineBundle.revision(bundle.contentHash, bundle.pieces)
        self.contentHash = bundle.contentHash.hex
        self.version = bundle.version
        self.channel = bundle.channel
        self.publishedAt = bundle.publishedAt
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
            hashes[TipID(owner)] = SHA256.hash(piece.revisionBytes).hex
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
