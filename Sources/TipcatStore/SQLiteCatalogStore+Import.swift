import TipcatCore
import TipcatSQLite
import TipcatCodec

extension SQLiteCatalogStore {
    public func channelMoves() throws(StoreError) -> [ChannelMove] {
        try read("cannot read the channel moves") {
            guard try connection.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'channel_moves'")?.integerValue == 1 else { return [] }
            return try connection.rows("SELECT channel, version, previous, action, moved_at FROM channel_moves ORDER BY id").map { row in
                ChannelMove(
                    channel: row[0].textValue ?? "", version: row[1].intValue ?? 0, previous: row[2].intValue,
                    action: row[3].textValue ?? "", movedAt: row[4].textValue ?? "")
            }
        }
    }

    public func importHistory(_ history: StoreHistory) throws(StoreError) {
        try write("cannot copy into '\(location)'") {
            let insert = try connection.prepare("INSERT OR IGNORE INTO objects (hash, kind, size, content) VALUES (?, ?, ?, ?)")
            for object in history.objects {
                try insert.execute([.blob(object.digest.bytes), .text(object.kind.rawValue), .int(object.bytes.count), .blob(object.bytes)])
            }
            for record in history.versions {
                try connection.run("""
                    INSERT INTO versions (\(Self.versionColumns))
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [
                        .int(record.number), .text(record.channel), .optional(record.parent), .optional(record.source),
                        .text(record.type.rawValue), .text(record.author), .text(record.createdAt), .text(record.message),
                        .blob(record.contentHash.bytes), .text(record.tipcatVersion), .int(record.tipsChanged),
                    ])
                for tip in history.resets[record.number] ?? [] {
                    try connection.run("INSERT INTO republish_resets (version, tip) VALUES (?, ?)", [.int(record.number), .text(tip)])
                }
            }
            for move in history.moves {
                try connection.run(
                    "INSERT INTO channel_moves (channel, version, previous, action, moved_at) VALUES (?, ?, ?, ?, ?)",
                    [.text(move.channel), .int(move.version), .optional(move.previous), .text(move.action), .text(move.movedAt)])
            }
            for channel in history.channels {
                try connection.run("""
                    INSERT INTO channels (name, version, updated_at) VALUES (?, ?, ?)
                    ON CONFLICT (name) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at
                    """, [.text(channel.name), .int(channel.version), .text(channel.updatedAt)])
            }
            for record in history.versions { try verify(record) }
        }
    }
}
