import TipcatCore
import TipcatPostgreSQL
import TipcatCodec

extension PostgreSQLCatalogStore {
    public func channelMoves() throws(StoreError) -> [ChannelMove] {
        try read("cannot read the channel moves") {
            guard try connection.scalar("SELECT to_regclass('channel_moves') IS NOT NULL")?.bool(0) == true else { return [] }
            return try connection.query("SELECT channel, version, previous, action, moved_at FROM channel_moves ORDER BY id").map { row in
                ChannelMove(
                    channel: row.text(0) ?? "", version: row.int(1) ?? 0, previous: row.int(2), action: row.text(3) ?? "",
                    movedAt: row.text(4) ?? "")
            }
        }
    }

    public func importHistory(_ history: StoreHistory) throws(StoreError) {
        try write("cannot copy into '\(location)'") {
            var objects: [SHA256Digest: ContentObject] = [:]
            for object in history.objects { objects[object.digest] = object }
            try insertObjects(Array(objects.values))
            for record in history.versions {
                try connection.update("""
                    INSERT INTO versions (\(Self.versionColumns))
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                    """, [
                        .int(record.number), .text(record.channel), .optional(record.parent), .optional(record.source),
                        .text(record.type.rawValue), .text(record.author), .text(record.createdAt), .text(record.message),
                        .bytes(record.contentHash.bytes), .text(record.tipcatVersion), .int(record.tipsChanged),
                    ])
                for tip in history.resets[record.number] ?? [] {
                    try connection.update("INSERT INTO republish_resets (version, tip) VALUES ($1, $2)", [.int(record.number), .text(tip)])
                }
            }
            for move in history.moves {
                try connection.update(
                    "INSERT INTO channel_moves (channel, version, previous, action, moved_at) VALUES ($1, $2, $3, $4, $5)",
                    [.text(move.channel), .int(move.version), .optional(move.previous), .text(move.action), .text(move.movedAt)])
            }
            for channel in history.channels {
                try connection.update("""
                    INSERT INTO channels (name, version, updated_at) VALUES ($1, $2, $3)
                    ON CONFLICT (name) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at
                    """, [.text(channel.name), .int(channel.version), .text(channel.updatedAt)])
            }
            for record in history.versions { try verify(record) }
        }
    }
}
