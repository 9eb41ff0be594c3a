public import TipcatCore
import TipcatPostgreSQL
import TipcatCodec

extension PostgreSQLCatalogStore {
    /// Publishes in one transaction under the write lock: check the guard, store the missing objects, add the
    /// version, move the channel, record the move and the tips to reset.
    public func publish(_ request: PublishRequest) throws(StoreError) -> PublishOutcome {
        let channel = request.channel
        return try write("cannot publish to '\(channel)'") {
            let head = try head(of: channel)
            if let expected = request.expectedVersion, !request.force, (head?.number ?? 0) != expected {
                throw StoreError.versionMismatch(channel: channel.rawValue, actual: head?.number, expected: expected)
            }
            if let head, head.contentHash == request.tree.root, !request.force {
                return PublishOutcome.unchanged(head)
            }
            let diff = try CatalogDiff(
                from: head?.contentHash, to: request.tree.root, reader: TreeReader(LayeredObjectSource([request.tree, self])))
            try storeMissingObjects(of: request.tree)
            let record = try addVersion(
                channel: channel, parent: head?.number, source: nil, type: request.force ? .forced : .publish,
                author: request.author, time: request.time, message: request.message ?? diff.summary,
                contentHash: request.tree.root, tipcatVersion: request.tipcatVersion, diff: diff)
            return .published(record, diff)
        }
    }

    /// Rolls a channel back by publishing an older version's content as a new version.
    public func rollback(_ request: RollbackRequest) throws(StoreError) -> PublishOutcome {
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

    /// Moves `target` to `source`'s head, under the write lock.
    public func promote(
        from source: ChannelName, to target: ChannelName, expectedVersion: Int?, time: Timestamp
    ) throws(StoreError) -> PromoteOutcome {
        try write("cannot promote '\(source)' to '\(target)'") {
            guard let head = try head(of: source) else { throw StoreError.unknownChannel(source.rawValue) }
            let current = try connection.scalar("SELECT version FROM channels WHERE name = $1", [.text(target.rawValue)])?.int(0)
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

    // MARK: Pieces of a write

    /// Inserts every object of `tree` the store lacks, a level of the tree at a time: one query asks which of
    /// a level's objects exist, the missing ones are inserted in batches, and only their children are looked
    /// at next (an object is only ever stored together with everything below it).
    func storeMissingObjects(of tree: ContentTree) throws {
        var level = [tree.root]
        var seen = Set<SHA256Digest>()
        while !level.isEmpty {
            let candidates = level.filter { seen.insert($0).inserted && tree.objects[$0] != nil }
            var present = Set<SHA256Digest>()
            for chunk in stride(from: 0, to: candidates.count, by: 2_000).map({ candidates[$0..<min($0 + 2_000, candidates.count)] }) {
                let rows = try connection.query(
                    "SELECT hash FROM objects WHERE hash IN (SELECT decode(h, 'hex') FROM unnest(string_to_array($1, ',')) AS h)",
                    [.text(chunk.map(\.hex).joined(separator: ","))])
                for row in rows { if let digest = row.bytes(0).flatMap(SHA256Digest.init(bytes:)) { present.insert(digest) } }
            }
            let missing = candidates.filter { !present.contains($0) }
            try insertObjects(missing, from: tree.objects)
            level = missing.flatMap { tree.objects[$0]?.children ?? [] }
        }
    }

    /// Multi-row inserts of at most 500 objects or about 4 MB each.
    func insertObjects(_ digests: [SHA256Digest], from objects: [SHA256Digest: ContentObject]) throws {
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
        for digest in digests {
            guard let object = objects[digest] else { continue }
            let base = values.count
            rows.append("($\(base + 1), $\(base + 2), $\(base + 3), $\(base + 4))")
            values += [.bytes(digest.bytes), .text(object.kind.rawValue), .int(object.bytes.count), .bytes(object.bytes)]
            size += object.bytes.count
            if rows.count >= 500 || size >= 4_000_000 { try flush() }
        }
        try flush()
    }

    private func addVersion(
        channel: ChannelName, parent: Int?, source: Int?, type: VersionType, author: String, time: Timestamp,
        message: String, contentHash: SHA256Digest, tipcatVersion: String, diff: CatalogDiff
    ) throws -> VersionRecord {
        let number = try connection.scalar("SELECT coalesce(max(number), 0) + 1 FROM versions")?.int(0) ?? 1
        let record = VersionRecord(
            number: number, channel: channel.rawValue, parent: parent, source: source, type: type, author: author,
            createdAt: time.iso8601, message: message, contentHash: contentHash, tipcatVersion: tipcatVersion,
            tipsChanged: diff.changedTips.count)
        try connection.update("""
            INSERT INTO versions (\(Self.versionColumns))
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
            """, [
                .int(record.number), .text(record.channel), .optional(record.parent), .optional(record.source),
                .text(record.type.rawValue), .text(record.author), .text(record.createdAt), .text(record.message),
                .bytes(record.contentHash.bytes), .text(record.tipcatVersion), .int(record.tipsChanged),
            ])
        if !diff.resets.isEmpty {
            try connection.update(
                "INSERT INTO republish_resets (version, tip) SELECT $1::integer, unnest(string_to_array($2, chr(10)))",
                [.int(number), .text(diff.resets.joined(separator: "\n"))])
        }
        try moveChannel(channel, from: parent, to: number, action: type.rawValue, time: time)
        return record
    }

    private func moveChannel(_ channel: ChannelName, from previous: Int?, to version: Int, action: String, time: Timestamp) throws {
        let changed: Int
        if let previous {
            changed = try connection.update(
                "UPDATE channels SET version = $1, updated_at = $2 WHERE name = $3 AND version = $4",
                [.int(version), .text(time.iso8601), .text(channel.rawValue), .int(previous)])
        } else {
            changed = try connection.update(
                "INSERT INTO channels (name, version, updated_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING",
                [.text(channel.rawValue), .int(version), .text(time.iso8601)])
        }
        guard changed == 1 else {
            let actual = try connection.scalar("SELECT version FROM channels WHERE name = $1", [.text(channel.rawValue)])?.int(0)
            throw StoreError.versionMismatch(channel: channel.rawValue, actual: actual, expected: previous ?? 0)
        }
        try connection.update(
            "INSERT INTO channel_moves (channel, version, previous, action, moved_at) VALUES ($1, $2, $3, $4, $5)",
            [.text(channel.rawValue), .int(version), .optional(previous), .text(action), .text(time.iso8601)])
    }
}
