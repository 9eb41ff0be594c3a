import TipcatCore
import TipcatCodec

/// What a backend provides so that publishing, rolling back and promoting are written once for every backend:
/// a write transaction that excludes other writers, and the pieces of a write in the backend's SQL. A backend's
/// public `publish`, `rollback` and `promote` call `publishing`, `rollingBack` and `promoting`.
protocol TransactionalCatalogStore: CatalogStore {
    /// Runs `body` in one transaction that no other writer overlaps; errors become `StoreError`s naming `context`.
    func write<T>(_ context: String, _ body: () throws -> T) throws(StoreError) -> T
    /// Inserts every object of `tree` the store lacks (an object is only ever stored with everything below it).
    func storeMissingObjects(of tree: ContentTree) throws
    /// Inserts `objects`, those the store has already left as they are (a tree made in the transaction stores
    /// its objects as it makes them; `storeMissingObjects` then finds them there).
    func insertObjects(_ objects: [ContentObject]) throws
    /// The number the next version gets, read in the write transaction.
    func nextVersionNumber() throws -> Int
    /// Inserts a version's record and the tips devices reset when moving to it.
    func insertVersion(_ record: VersionRecord, resets: [String]) throws
    /// The version a channel points at, read in the write transaction; nil when the channel does not exist.
    func channelVersion(_ channel: ChannelName) throws -> Int?
    /// Points `channel` at `version` if it still points at `previous` (creates it when `previous` is nil and it
    /// does not exist); returns the number of channels changed (0 when another writer moved it first).
    func updateChannel(_ channel: ChannelName, from previous: Int?, to version: Int, time: Timestamp) throws -> Int
    /// Records a channel move in the history.
    func recordMove(_ channel: ChannelName, from previous: Int?, to version: Int, action: String, time: Timestamp) throws
}

extension TransactionalCatalogStore {
    /// Publishes in one write transaction: check the guard, store the missing objects, add the version, move the
    /// channel, record the move and the tips to reset.
    func publishing(_ request: PublishRequest) throws(StoreError) -> PublishOutcome {
        let channel = request.channel
        return try write("cannot publish to '\(channel)'") {
            let head = try head(of: channel)
            if let expected = request.expectedVersion, !request.force, (head?.number ?? 0) != expected {
                throw StoreError.versionMismatch(channel: channel.rawValue, actual: head?.number, expected: expected)
            }
            PhaseTrace.mark("store: head read in the write transaction")
            let tree: ContentTree
            switch request.content {
            case .tree(let made): tree = made
            case .made(let make):
                tree = try make { objects in try insertObjects(objects) }
                PhaseTrace.mark("store: tree made and stored")
            }
            if let head, head.contentHash == tree.root, !request.force {
                return PublishOutcome.unchanged(head)
            }
            let diff = try CatalogDiff(from: head?.contentHash, to: tree.root, reader: TreeReader(LayeredObjectSource([tree, self])))
            PhaseTrace.mark("store: diffed")
            try storeMissingObjects(of: tree)
            PhaseTrace.mark("store: objects inserted")
            let record = try addVersion(
                channel: channel, parent: head?.number, source: nil, type: request.force ? .forced : .publish,
                author: request.author, time: request.time, message: request.message ?? diff.summary,
                contentHash: tree.root, tipcatVersion: request.tipcatVersion, diff: diff)
            return .published(record, diff)
        }
    }

    /// Rolls a channel back by publishing an older version's content as a new version.
    func rollingBack(_ request: RollbackRequest) throws(StoreError) -> PublishOutcome {
        let channel = request.channel
        return try write("cannot roll back '\(channel)'") {
            guard let head = try head(of: channel) else { throw StoreError.unknownChannel(channel.rawValue) }
            if let expected = request.expectedVersion, head.number != expected {
                throw StoreError.versionMismatch(channel: channel.rawValue, actual: head.number, expected: expected)
            }
            guard let target = try version(request.target) else { throw StoreError.unknownVersion(request.target) }
            if head.contentHash == target.contentHash { return PublishOutcome.unchanged(head) }
            let diff = try CatalogDiff(from: head.contentHash, to: target.contentHash, reader: reader)
            let record = try addVersion(
                channel: channel, parent: head.number, source: target.number, type: .rollback, author: request.author,
                time: request.time, message: request.message ?? "rollback to version \(target.number): \(diff.summary)",
                contentHash: target.contentHash, tipcatVersion: request.tipcatVersion, diff: diff)
            return .published(record, diff)
        }
    }

    /// Moves `target` to `source`'s head. The update names the version `target` was read at, so a move that
    /// raced with another writer changes nothing and reports a mismatch.
    func promoting(from source: ChannelName, to target: ChannelName, expectedVersion: Int?, time: Timestamp) throws(StoreError) -> PromoteOutcome {
        try write("cannot promote '\(source)' to '\(target)'") {
            guard let head = try head(of: source) else { throw StoreError.unknownChannel(source.rawValue) }
            let current = try channelVersion(target)
            if let expectedVersion, (current ?? 0) != expectedVersion {
                throw StoreError.versionMismatch(channel: target.rawValue, actual: current, expected: expectedVersion)
            }
            if current == head.number {
                return PromoteOutcome(channel: target.rawValue, previous: current, current: head.number, moved: false)
            }
            try moveChannel(target, from: current, to: head.number, action: "promote", time: time)
            return PromoteOutcome(channel: target.rawValue, previous: current, current: head.number, moved: true)
        }
    }

    /// Adds the next version with its resets and moves its channel to it.
    private func addVersion(
        channel: ChannelName, parent: Int?, source: Int?, type: VersionType, author: String, time: Timestamp,
        message: String, contentHash: SHA256Digest, tipcatVersion: String, diff: CatalogDiff
    ) throws -> VersionRecord {
        let record = VersionRecord(
            number: try nextVersionNumber(), channel: channel.rawValue, parent: parent, source: source, type: type, author: author,
            createdAt: time.iso8601, message: message, contentHash: contentHash, tipcatVersion: tipcatVersion,
            tipsChanged: diff.changedTips.count)
        try insertVersion(record, resets: diff.resets)
        try moveChannel(channel, from: parent, to: record.number, action: type.rawValue, time: time)
        return record
    }

    /// Moves a channel with compare-and-swap on the version it was read at, and records the move.
    private func moveChannel(_ channel: ChannelName, from previous: Int?, to version: Int, action: String, time: Timestamp) throws {
        guard try updateChannel(channel, from: previous, to: version, time: time) == 1 else {
            throw StoreError.versionMismatch(channel: channel.rawValue, actual: try channelVersion(channel), expected: previous ?? 0)
        }
        try recordMove(channel, from: previous, to: version, action: action, time: time)
    }
}
