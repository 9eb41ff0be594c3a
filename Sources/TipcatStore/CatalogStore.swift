public import TipcatCatalog
public import TipcatCore
public import TipcatCodec

/// How a version came to be.
public enum VersionType: String, Sendable, Hashable, CaseIterable {
    /// `tipcat publish`.
    case publish
    /// `tipcat rollback`: a new version with an older version's content.
    case rollback
    /// `tipcat publish --force`: published over a version mismatch or with unchanged content.
    case forced
}

/// One published version. Versions never change and their numbers are never reused.
public struct VersionRecord: Sendable, Hashable {
    /// 1, 2, 3… across the whole store.
    public var number: Int
    /// The channel it was published to.
    public var channel: String
    /// The channel's head when it was published (nil for a channel's first version).
    public var parent: Int?
    /// For rollbacks: the version whose content it restores.
    public var source: Int?
    /// publish, rollback or forced.
    public var type: VersionType
    /// Who published it.
    public var author: String
    /// When it was published, ISO 8601 UTC (`2026-03-01T09:30:00Z`).
    public var createdAt: String
    /// What the version is about (by default the one-line summary of its diff).
    public var message: String
    /// The SHA-256 of the version's root object (see `ContentTree`).
    public var contentHash: SHA256Digest
    /// The tipcat that published it.
    public var tipcatVersion: String
    /// Tips added, removed or changed relative to `parent`.
    public var tipsChanged: Int

    /// A record from its fields.
    public init(
        number: Int, channel: String, parent: Int?, source: Int?, type: VersionType, author: String, createdAt: String,
        message: String, contentHash: SHA256Digest, tipcatVersion: String, tipsChanged: Int
    ) {
        self.number = number
        self.channel = channel
        self.parent = parent
        self.source = source
        self.type = type
        self.author = author
        self.createdAt = createdAt
        self.message = message
        self.contentHash = contentHash
        self.tipcatVersion = tipcatVersion
        self.tipsChanged = tipsChanged
    }
}

/// A channel and the version it points at.
public struct ChannelHead: Sendable, Hashable {
    /// The channel's name.
    public var name: String
    /// The version it points at.
    public var version: Int
    /// When the pointer last moved, ISO 8601 UTC.
    public var updatedAt: String

    /// A channel head from its fields.
    public init(name: String, version: Int, updatedAt: String) {
        self.name = name
        self.version = version
        self.updatedAt = updatedAt
    }
}

/// Who publishes what, where, and under which guard.
public struct PublishRequest: Sendable {
    /// The catalog's content: encoded and hashed before the publish, or by it.
    public enum Content: Sendable {
        /// A tree made beforehand (`ContentTree(catalog:)`).
        case tree(ContentTree)
        /// A tree the publish makes once it holds the channel (in its write transaction), storing the objects
        /// given to it as they are made (`ContentTree(catalog:memo:storing:)`): a large catalog's objects never
        /// all wait in memory, and a publish refused (an unexpected version) encodes nothing.
        case made(@Sendable (_ store: ([ContentObject]) throws -> Void) throws -> ContentTree)
    }

    /// The channel to publish to.
    public var channel: ChannelName
    /// The catalog's content.
    public var content: Content
    /// The version message; nil uses the one-line summary of the diff against the channel's head.
    public var message: String?
    /// Who publishes.
    public var author: String
    /// When (UTC).
    public var time: Timestamp
    /// The publishing tipcat's version, recorded with the version.
    public var tipcatVersion: String
    /// Publish only if the channel's head is this version (0: only if the channel has no version yet).
    public var expectedVersion: Int?
    /// Publish even over a version mismatch or with unchanged content; the version's type is `forced`.
    public var force: Bool

    /// A request; `message` nil uses the diff summary.
    public init(
        channel: ChannelName, tree: ContentTree, message: String? = nil, author: String, time: Timestamp,
        tipcatVersion: String, expectedVersion: Int? = nil, force: Bool = false
    ) {
        self.init(
            channel: channel, content: .tree(tree), message: message, author: author, time: time, tipcatVersion: tipcatVersion,
            expectedVersion: expectedVersion, force: force)
    }

    /// A request whose content the publish makes or is given (`Content`); `message` nil uses the diff summary.
    public init(
        channel: ChannelName, content: Content, message: String? = nil, author: String, time: Timestamp,
        tipcatVersion: String, expectedVersion: Int? = nil, force: Bool = false
    ) {
        self.channel = channel
        self.content = content
        self.message = message
        self.author = author
        self.time = time
        self.tipcatVersion = tipcatVersion
        self.expectedVersion = expectedVersion
        self.force = force
    }
}

/// A request to restore an older version's content as a new version.
public struct RollbackRequest: Sendable {
    /// The channel to roll back.
    public var channel: ChannelName
    /// The version whose content is restored.
    public var target: Int
    /// The version's message; nil: `rollback to version N: <summary>`.
    public var message: String?
    /// Who rolls back.
    public var author: String
    /// When (UTC).
    public var time: Timestamp
    /// The tipcat's version, recorded with the version.
    public var tipcatVersion: String
    /// Roll back only if the channel is at this version.
    public var expectedVersion: Int?

    /// A request; `message` nil describes the rollback.
    public init(
        channel: ChannelName, target: Int, message: String? = nil, author: String, time: Timestamp, tipcatVersion: String,
        expectedVersion: Int? = nil
    ) {
        self.channel = channel
        self.target = target
        self.message = message
        self.author = author
        self.time = time
        self.tipcatVersion = tipcatVersion
        self.expectedVersion = expectedVersion
    }
}

/// What a publish or rollback did.
public enum PublishOutcome: Sendable {
    /// A new version, and how it differs from its parent.
    case published(VersionRecord, CatalogDiff)
    /// The channel's head already has this content; nothing was written.
    case unchanged(VersionRecord)
}

/// What a promotion did.
public struct PromoteOutcome: Sendable, Hashable {
    /// The channel that moved (or would have).
    public var channel: String
    /// The version the channel pointed at before (nil: the channel is new).
    public var previous: Int?
    /// The version it points at now.
    public var current: Int
    /// False when the channel already pointed there (nothing was written).
    public var moved: Bool
}

/// A store of published catalog versions and channels: `SQLiteCatalogStore` and `PostgreSQLCatalogStore`; another backend
/// implements these primitives and gets diff, verification, bundles and catalogs from
/// the extension below.
///
/// Every write is atomic: a version, its objects and its channel move appear together or not at all.
public protocol CatalogStore: AnyObject, ObjectSource {
    /// Where the store lives, for messages.
    var location: String { get }
    /// Every channel, by name.
    func channels() throws(StoreError) -> [ChannelHead]
    /// The version a channel points at; nil when the channel does not exist.
    func head(of channel: ChannelName) throws(StoreError) -> VersionRecord?
    /// One version; nil when there is none with that number.
    func version(_ number: Int) throws(StoreError) -> VersionRecord?
    /// Every version, oldest first.
    func versions() throws(StoreError) -> [VersionRecord]
    /// The versions a channel has pointed at, in the order it first did.
    func history(of channel: ChannelName) throws(StoreError) -> [VersionRecord]
    /// Stores the content and moves the channel to a new version, in one transaction.
    func publish(_ request: PublishRequest) throws(StoreError) -> PublishOutcome
    /// Creates a new version with an older version's content on a channel.
    func rollback(_ request: RollbackRequest) throws(StoreError) -> PublishOutcome
    /// Points `target` at `source`'s head, with compare-and-swap on `target`'s current version.
    func promote(from source: ChannelName, to target: ChannelName, expectedVersion: Int?, time: Timestamp) throws(StoreError) -> PromoteOutcome
    /// The tips devices reset when moving to `version` from its parent (content changed, policy `reset`).
    func resets(of version: Int) throws(StoreError) -> [String]
    /// Every move of every channel pointer, oldest first.
    func channelMoves() throws(StoreError) -> [ChannelMove]
    /// Adds history copied from another store (`StoreMigration`) in one transaction: the objects, the
    /// versions with their resets, the channel moves, and the channels set to `history.channels`. Every added
    /// version is verified against its content hash before the transaction commits.
    func importHistory(_ history: StoreHistory) throws(StoreError)
}

/// One move of a channel pointer.
public struct ChannelMove: Sendable, Hashable {
    /// The channel that moved.
    public var channel: String
    /// The version it moved to.
    public var version: Int
    /// The version it was at (nil: the channel was new).
    public var previous: Int?
    /// `publish`, `rollback`, `forced` or `promote`.
    public var action: String
    /// When, ISO 8601 UTC.
    public var movedAt: String

    /// A move from its fields.
    public init(channel: String, version: Int, previous: Int?, action: String, movedAt: String) {
        self.channel = channel
        self.version = version
        self.previous = previous
        self.action = action
        self.movedAt = movedAt
    }
}

/// History to add to a store: what `importHistory` writes.
public struct StoreHistory: Sendable {
    /// The objects the new versions need (more may be given than the store lacks).
    public var objects: [ContentObject]
    /// The new versions, oldest first, with their numbers.
    public var versions: [VersionRecord]
    /// The tips to reset, per new version.
    public var resets: [Int: [String]]
    /// The channel moves to append, oldest first.
    public var moves: [ChannelMove]
    /// Every channel as it must be afterwards.
    public var channels: [ChannelHead]

    /// History from its parts.
    public init(objects: [ContentObject], versions: [VersionRecord], resets: [Int: [String]], moves: [ChannelMove], channels: [ChannelHead]) {
        self.objects = objects
        self.versions = versions
        self.resets = resets
        self.moves = moves
        self.channels = channels
    }
}

extension CatalogStore {
    /// A reader over the store's objects.
    public var reader: TreeReader { TreeReader(self) }

    /// The version a channel points at, or `unknownChannel`.
    public func requireHead(of channel: ChannelName) throws(StoreError) -> VersionRecord {
        guard let head = try head(of: channel) else { throw StoreError.unknownChannel(channel.rawValue) }
        return head
    }

    /// One version, or `unknownVersion`.
    public func requireVersion(_ number: Int) throws(StoreError) -> VersionRecord {
        guard let record = try version(number) else { throw StoreError.unknownVersion(number) }
        return record
    }

    /// A version's content as pieces (every object read and checked against its hash).
    public func pieces(of record: VersionRecord) throws(StoreError) -> CatalogPieces {
        try reader.pieces(record.contentHash)
    }

    /// A version's content as pieces without the owners' translations, and every owner's objects as stored
    /// (`TreeReader.pieces(_:parsingStrings:)`).
    public func storedPieces(of record: VersionRecord) throws(StoreError) -> (pieces: CatalogPieces, stored: [String: TreeReader.StoredOwner]) {
        try reader.pieces(record.contentHash, parsingStrings: false)
    }

    /// A version's content as the catalog model, messages parsed.
    public func catalog(of record: VersionRecord) throws(StoreError) -> Catalog {
        do {
            return try CatalogCodec.decode(pieces(of: record), origin: "\(location)@\(record.number)")
        } catch let error as CatalogDecodingError {
            throw StoreError.damagedObject(digest: record.contentHash.hex, reason: error.description)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.damagedObject(digest: record.contentHash.hex, reason: "\(error)")
        }
    }

    /// The head of a channel and its catalog: what the engine reads.
    public func catalog(channel: ChannelName) throws(StoreError) -> (VersionRecord, Catalog) {
        let head = try requireHead(of: channel)
        return (head, try catalog(of: head))
    }

    /// Reads every object of a version and checks that the content hashes to the recorded hash.
    /// Returns the number of objects.
    @discardableResult
    public func verify(_ record: VersionRecord) throws(StoreError) -> Int {
        try reader.verify(record.contentHash)
    }

    /// The differences between two versions (nil `from`: the empty catalog).
    public func diff(from old: VersionRecord?, to new: VersionRecord) throws(StoreError) -> CatalogDiff {
        try CatalogDiff(from: old?.contentHash, to: new.contentHash, reader: reader)
    }

    /// Tips a device must reset when it moves from one version to another, however far apart (content of
    /// the tip's definition changed and its policy in `to` is `reset`).
    public func resets(from old: VersionRecord?, to new: VersionRecord) throws(StoreError) -> [String] {
        try TreeDiff(from: old?.contentHash, to: new.contentHash, reader: reader).resets
    }

    /// The bundle of a version: its canonical catalog and content hash, for shipping inside an app.
    public func bundle(of record: VersionRecord, channel: String?) throws(StoreError) -> CatalogBundle {
        CatalogBundle(
            contentHash: record.contentHash, pieces: try pieces(of: record), version: record.number, channel: channel,
            publishedAt: record.createdAt)
    }
}
