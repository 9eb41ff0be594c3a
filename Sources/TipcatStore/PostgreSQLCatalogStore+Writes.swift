public import TipcatCore
import TipcatPostgreSQL
import TipcatCodec

extension PostgreSQLCatalogStore: TransactionalCatalogStore {
    /// Publishes in one transaction under the write lock (see `TransactionalCatalogStore.publishing`).
    public func publish(_ request: PublishRequest) throws(StoreError) -> PublishOutcome { try publishing(request) }

    /// Rolls a channel back by publishing an older version's content as a new version.
    public func rollback(_ request: RollbackRequest) throws(StoreError) -> PublishOutcome { try rollingBack(request) }

    /// Moves `target` to `source`'s head, under the write lock.
    public func promote(
        from source: ChannelName, to target: ChannelName, expectedVersion: Int?, time: Timestamp
    ) throws(StoreError) -> PromoteOutcome {
        try promoting(from: source, to: target, expectedVersion: expectedVersion, time: time)
    }

    // MARK: Pieces of a write

    /// Inserts every object of `tree` the store lacks, a level of the tree at a time: one query asks which of
    /// a level's objects exist, the missing ones are inserted in batches, and only their children are looked
    /// at next (an object is only ever stored together with everything below it).
    func storeMissingObjects(of tree: ContentTree) throws {
        var level = [tree.root]
        var seen = Set<SHA256Digest>()
        while !level.isEmpty {
            // A tip's objects a tree made in this transaction stored as it made them are there: not looked up.
            let candidates = level.filter { !tree.wasStored($0) && seen.insert($0).inserted }
            let present = Set(try objectRows("hash", of: candidates, perQuery: 2_000).compactMap { $0.bytes(0).flatMap(SHA256Digest.init(bytes:)) })
            // Every object a tree names is in it (made again from the catalog when a memo knew it).
            let missing = try candidates.filter { !present.contains($0) }.map { digest in
                guard let object = tree.object(digest) else { throw StoreError.missingObject(digest.hex) }
                return object
            }
            try insertObjects(missing)
            level = missing.flatMap(\.children)
        }
    }

    /// Multi-row inserts of at most 128 objects or about 1 MB each (a statement's values are copied twice on the
    /// way to the server, and a first publish sends a catalog's worth: small statements keep that off its peak).
    func insertObjects(_ objects: [ContentObject]) throws {
        var rows: [String] = []
        var values: [PostgreSQLValue] = []
        var size = 0
        func flush() throws {
            guard !rows.isEmpty else { return }
            try connection.update(
                "INSERT INTO objects (hash, kind, size, content) VALUES \(rows.joined(separator: ", ")) ON CONFLICT (hash) DO NOTHING", values)
            rows.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
            size = 0
        }
        for object in objects {
            let digest = object.digest
            let base = values.count
            rows.append("($\(base + 1), $\(base + 2), $\(base + 3), $\(base + 4))")
            values += [.bytes(digest.bytes), .text(object.kind.rawValue), .int(object.bytes.count), .bytes(object.bytes)]
            size += object.bytes.count
            if rows.count >= 128 || size >= 1 << 20 { try flush() }
        }
        try flush()
    }

    func nextVersionNumber() throws -> Int {
        try connection.scalar("SELECT coalesce(max(number), 0) + 1 FROM versions")?.int(0) ?? 1
    }

    func insertVersion(_ record: VersionRecord, resets: [String]) throws {
        try connection.update("""
            INSERT INTO versions (\(Self.versionColumns))
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
            """, [
                .int(record.number), .text(record.channel), .optional(record.parent), .optional(record.source),
                .text(record.type.rawValue), .text(record.author), .text(record.createdAt), .text(record.message),
                .bytes(record.contentHash.bytes), .text(record.tipcatVersion), .int(record.tipsChanged),
            ])
        if !resets.isEmpty {
            try connection.update(
                "INSERT INTO republish_resets (version, tip) SELECT $1::integer, unnest(string_to_array($2, chr(10)))",
                [.int(record.number), .text(resets.joined(separator: "\n"))])
        }
    }

    func channelVersion(_ channel: ChannelName) throws -> Int? {
        try connection.scalar("SELECT version FROM channels WHERE name = $1", [.text(channel.rawValue)])?.int(0)
    }

    func updateChannel(_ channel: ChannelName, from previous: Int?, to version: Int, time: Timestamp) throws -> Int {
        if let previous {
            return try connection.update(
                "UPDATE channels SET version = $1, updated_at = $2 WHERE name = $3 AND version = $4",
                [.int(version), .text(time.iso8601), .text(channel.rawValue), .int(previous)])
        }
        return try connection.update(
            "INSERT INTO channels (name, version, updated_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING",
            [.text(channel.rawValue), .int(version), .text(time.iso8601)])
    }

    func recordMove(_ channel: ChannelName, from previous: Int?, to version: Int, action: String, time: Timestamp) throws {
        try connection.update(
            "INSERT INTO channel_moves (channel, version, previous, action, moved_at) VALUES ($1, $2, $3, $4, $5)",
            [.text(channel.rawValue), .int(version), .optional(previous), .text(action), .text(time.iso8601)])
    }
}
