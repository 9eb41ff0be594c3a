public import TipcatCore
import TipcatSQLite
import TipcatCodec

extension SQLiteCatalogStore {
    /// Publishes in one IMMEDIATE transaction: check the guard, store the missing objects, add the version,
    /// move the channel, record the move and the tips to reset.
    public func publish(_ request: PublishRequest) throws(StoreError) -> PublishOutcome {
        let channel = request.channel
        return try write("cannot publish to '\(channel)'") {
            let head = try lockedHead(channel)
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
            guard let head = try lockedHead(channel) else { throw StoreError.unknownChannel(channel.rawValue) }
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

    /// Moves `target` to `source`'s head. The update names the version `target` was read at, so a move
    /// that raced with another writer changes nothing and reports a mismatch.
    public func promote(
        from source: ChannelName, to target: ChannelName, expectedVersion: Int?, time: Timestamp
    ) throws(StoreError) -> PromoteOutcome {
        try write("cannot promote '\(source)' to '\(target)'") {
            guard let head = try lockedHead(source) else { throw StoreError.unknownChannel(source.rawValue) }
            let current = try connection.scalar("SELECT version FROM channels WHERE name = ?", [.text(target.rawValue)])?.intValue
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

    /// The channel's head, read inside the write transaction.
    private func lockedHead(_ channel: ChannelName) throws(StoreError) -> VersionRecord? {
        try head(of: channel)
    }

    /// Inserts every object of `tree` the store lacks. An object is only ever stored together with
    /// everything below it, so a stored object's whole subtree can be skipped.
    func storeMissingObjects(of tree: ContentTree) throws {
        let exists = try connection.prepare("SELECT 1 FROM objects WHERE hash = ?")
        let insert = try connection.prepare("INSERT OR IGNORE INTO objects (hash, kind, size, content) VALUES (?, ?, ?, ?)")
        var stack = [tree.root]
        var seen = Set<SHA256Digest>()
        while let digest = stack.popLast() {
            guard seen.insert(digest).inserted, let object = tree.objects[digest] else { continue }
            try exists.bind(bytes: digest.bytes, at: 1)
            let present = try exists.step()
            exists.reset()
            if present { continue }
            try insert.bind(bytes: digest.bytes, at: 1)
            try insert.bind(.text(object.kind.rawValue), at: 2)
            try insert.bind(.int(object.bytes.count), at: 3)
            try insert.bind(bytes: object.bytes, at: 4)
            while try insert.step() {}
            insert.reset()
            stack.append(contentsOf: object.children)
        }
    }

    private func addVersion(
        channel: ChannelName, parent: Int?, source: Int?, type: VersionType, author: String, time: Timestamp,
        message: String, contentHash: SHA256Digest, tipcatVersion: String, diff: CatalogDiff
    ) throws -> VersionRecord {
        let number = (try connection.scalar("SELECT coalesce(max(number), 0) + 1 FROM versions")?.intValue) ?? 1
        let record = VersionRecord(
            number: number, channel: channel.rawValue, parent: parent, source: source, type: type, author: author,
            createdAt: time.iso8601, message: message, contentHash: contentHash, tipcatVersion: tipcatVersion,
            tipsChanged: diff.changedTips.count)
        try connection.run("""
            INSERT INTO versions (\(Self.versionColumns))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [
                .int(record.number), .text(record.channel), .optional(record.parent), .optional(record.source),
                .text(record.type.rawValue), .text(record.author), .text(record.createdAt), .text(record.message),
                .blob(record.contentHash.bytes), .text(record.tipcatVersion), .int(record.tipsChanged),
            ])
        let resets = try connection.prepare("INSERT INTO republish_resets (version, tip) VALUES (?, ?)")
        for tip in diff.resets { try resets.execute([.int(number), .text(tip)]) }
        try moveChannel(channel, from: parent, to: number, action: type.rawValue, time: time)
        return record
    }

    private func moveChannel(_ channel: ChannelName, from previous: Int?, to version: Int, action: String, time: Timestamp) throws {
        if let previous {
            try connection.run(
                "UPDATE channels SET version = ?, updated_at = ? WHERE name = ? AND version = ?",
                [.int(version), .text(time.iso8601), .text(channel.rawValue), .int(previous)])
        } else {
            try connection.run(
                "INSERT OR IGNORE INTO channels (name, version, updated_at) VALUES (?, ?, ?)",
                [.text(channel.rawValue), .int(version), .text(time.iso8601)])
        }
        guard connection.changes == 1 else {
            let actual = try connection.scalar("SELECT version FROM channels WHERE name = ?", [.text(channel.rawValue)])?.intValue
            throw StoreError.versionMismatch(channel: channel.rawValue, actual: actual, expected: previous ?? 0)
        }
        try connection.run(
            "INSERT INTO channel_moves (channel, version, previous, action, moved_at) VALUES (?, ?, ?, ?, ?)",
            [.text(channel.rawValue), .int(version), .optional(previous), .text(action), .text(time.iso8601)])
    }
}
