public import TipcatCore
import TipcatSQLite
import TipcatCodec

extension SQLiteCatalogStore: TransactionalCatalogStore {
    /// Publishes in one IMMEDIATE transaction (see `TransactionalCatalogStore.publishing`).
    public func publish(_ request: PublishRequest) throws(StoreError) -> PublishOutcome { try publishing(request) }

    /// Rolls a channel back by publishing an older version's content as a new version.
    public func rollback(_ request: RollbackRequest) throws(StoreError) -> PublishOutcome { try rollingBack(request) }

    /// Moves `target` to `source`'s head, with compare-and-swap on `target`'s version.
    public func promote(
        from source: ChannelName, to target: ChannelName, expectedVersion: Int?, time: Timestamp
    ) throws(StoreError) -> PromoteOutcome {
        try promoting(from: source, to: target, expectedVersion: expectedVersion, time: time)
    }

    // MARK: Pieces of a write

    /// Inserts every object of `tree` the store lacks. An object is only ever stored together with
    /// everything below it, so a stored object's whole subtree can be skipped.
    func storeMissingObjects(of tree: ContentTree) throws {
        let exists = try connection.prepare("SELECT 1 FROM objects WHERE hash = ?")
        let insert = try objectInsert()
        var stack = [tree.root]
        var seen = Set<SHA256Digest>()
        while let digest = stack.popLast() {
            // A tip's objects a tree made in this transaction stored as it made them are there: not looked up (nor
            // added to `seen`: they are most of a first version's objects).
            guard !tree.wasStored(digest), seen.insert(digest).inserted else { continue }
            try exists.bind(bytes: digest.bytes, at: 1)
            let present = try exists.step()
            exists.reset()
            if present { continue }
            // Every object a tree names and the store lacks is in the tree (made again from the catalog when a memo
            // knew it; a tree made in the transaction has stored its tips' objects already).
            guard let object = tree.object(digest) else { throw StoreError.missingObject(digest.hex) }
            try Self.insert(object, with: insert)
            stack.append(contentsOf: object.children)
        }
    }

    /// Inserted in the order of their hashes: the index on the hash is then walked once a batch, each of its pages
    /// read and written once, not once an object (a first publish's objects come in the order of their tips, their
    /// hashes at random). The page cache then grows to hold that index, about 50 bytes an object (96 counted, for
    /// the pages' free room and the table's last pages), from 1 MiB up to 8 MiB: at 20,000 tips (44,000 objects,
    /// 4 MiB) a first publish read 2,000 pages back and wrote 12,200 for a store of 10,500, against 13,300 and
    /// 23,700 unsorted in 1 MiB; at 5,000 the cache stays at 1 MiB.
    func insertObjects(_ objects: [ContentObject]) throws {
        let insert = try objectInsert()
        for index in objects.indices.sorted(by: { objects[$0].digest < objects[$1].digest }) {
            try Self.insert(objects[index], with: insert)
        }
        objectsInserted += objects.count
        // The pages these objects filled are in the system's page cache: their writing to the device starts now,
        // every 4 MiB, rather than all in the commit's fsync (`WriteBack`).
        bytesSinceWriteBack += objects.reduce(0) { $0 + $1.bytes.count }
        if bytesSinceWriteBack >= Self.writeBackInterval {
            bytesSinceWriteBack = 0
            WriteBack.start([location, location + "-wal"])
        }
        let wanted = min(8192, max(1024, objectsInserted * 96 / 1024))
        // Set again when grown by a quarter, or to its most.
        if wanted > cacheKibibytes, wanted == 8192 || wanted >= cacheKibibytes + cacheKibibytes / 4 {
            try connection.execute("PRAGMA cache_size = -\(wanted)")
            cacheKibibytes = wanted
        }
    }

    /// The statement `insert(_:with:)` runs: an object the store has already is left as it is.
    private func objectInsert() throws -> Statement {
        try connection.prepare("INSERT OR IGNORE INTO objects (hash, kind, size, content) VALUES (?, ?, ?, ?)")
    }

    /// Inserts `object` with `statement` (`objectInsert()`).
    private static func insert(_ object: ContentObject, with statement: Statement) throws {
        try statement.bind(bytes: object.digest.bytes, at: 1)
        try statement.bind(.text(object.kind.rawValue), at: 2)
        try statement.bind(.int(object.bytes.count), at: 3)
        try statement.bind(bytes: object.bytes, at: 4)
        while try statement.step() {}
        statement.reset()
    }

    func nextVersionNumber() throws -> Int {
        (try connection.scalar("SELECT coalesce(max(number), 0) + 1 FROM versions")?.intValue) ?? 1
    }

    func insertVersion(_ record: VersionRecord, resets: [String]) throws {
        try connection.run("""
            INSERT INTO versions (\(Self.versionColumns))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [
                .int(record.number), .text(record.channel), .optional(record.parent), .optional(record.source),
                .text(record.type.rawValue), .text(record.author), .text(record.createdAt), .text(record.message),
                .blob(record.contentHash.bytes), .text(record.tipcatVersion), .int(record.tipsChanged),
            ])
        let insert = try connection.prepare("INSERT INTO republish_resets (version, tip) VALUES (?, ?)")
        for tip in resets { try insert.execute([.int(record.number), .text(tip)]) }
    }

    func channelVersion(_ channel: ChannelName) throws -> Int? {
        try connection.scalar("SELECT version FROM channels WHERE name = ?", [.text(channel.rawValue)])?.intValue
    }

    func updateChannel(_ channel: ChannelName, from previous: Int?, to version: Int, time: Timestamp) throws -> Int {
        if let previous {
            try connection.run(
                "UPDATE channels SET version = ?, updated_at = ? WHERE name = ? AND version = ?",
                [.int(version), .text(time.iso8601), .text(channel.rawValue), .int(previous)])
        } else {
            try connection.run(
                "INSERT OR IGNORE INTO channels (name, version, updated_at) VALUES (?, ?, ?)",
                [.text(channel.rawValue), .int(version), .text(time.iso8601)])
        }
        return connection.changes
    }

    func recordMove(_ channel: ChannelName, from previous: Int?, to version: Int, action: String, time: Timestamp) throws {
        try connection.run(
            "INSERT INTO channel_moves (channel, version, previous, action, moved_at) VALUES (?, ?, ?, ?, ?)",
            [.text(channel.rawValue), .int(version), .optional(previous), .text(action), .text(time.iso8601)])
    }
}
