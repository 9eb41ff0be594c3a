import TipcatSQLite

/// The SQLite store's schema, as migrations registered by id.
///
/// Never edit a migration once released: add a new one. A store whose `schema_migrations` table names a
/// migration missing here was written by a newer tipcat and is refused.
enum StoreSchema {
    /// `PRAGMA application_id` of tipcat stores: "TIPC".
    static let applicationID: Int64 = 0x5449_5043

    static let migrations: [Migration] = [
        Migration("001-create-store", sql: """
            PRAGMA application_id = \(applicationID);

            -- Content-addressed objects: canonical JSON, keyed by the SHA-256 of its bytes.
            CREATE TABLE objects (
                hash BLOB PRIMARY KEY NOT NULL CHECK (length(hash) = 32),
                kind TEXT NOT NULL,
                size INTEGER NOT NULL,
                content BLOB NOT NULL
            );

            -- Published versions: numbered 1, 2, 3… across the store, never changed, never reused.
            CREATE TABLE versions (
                number INTEGER PRIMARY KEY NOT NULL CHECK (number > 0),
                channel TEXT NOT NULL,
                parent INTEGER REFERENCES versions (number),
                source INTEGER REFERENCES versions (number),
                type TEXT NOT NULL CHECK (type IN ('publish', 'rollback', 'forced')),
                author TEXT NOT NULL,
                created_at TEXT NOT NULL,
                message TEXT NOT NULL,
                content_hash BLOB NOT NULL REFERENCES objects (hash),
                tipcat_version TEXT NOT NULL,
                tips_changed INTEGER NOT NULL
            );

            -- Channel pointers, moved only inside the transaction that justifies the move.
            CREATE TABLE channels (
                name TEXT PRIMARY KEY NOT NULL,
                version INTEGER NOT NULL REFERENCES versions (number),
                updated_at TEXT NOT NULL
            );

            -- Every move of every channel pointer, oldest first.
            CREATE TABLE channel_moves (
                id INTEGER PRIMARY KEY,
                channel TEXT NOT NULL,
                version INTEGER NOT NULL REFERENCES versions (number),
                previous INTEGER REFERENCES versions (number),
                action TEXT NOT NULL CHECK (action IN ('publish', 'rollback', 'forced', 'promote')),
                moved_at TEXT NOT NULL
            );
            CREATE INDEX channel_moves_by_channel ON channel_moves (channel, id);

            -- Tips whose definition changed in a version (relative to its parent) with republish policy 'reset'.
            CREATE TABLE republish_resets (
                version INTEGER NOT NULL REFERENCES versions (number),
                tip TEXT NOT NULL,
                PRIMARY KEY (version, tip)
            ) WITHOUT ROWID;
            """),
    ]

    static let migrator = Migrator(migrations, tableName: "schema_migrations")
}
