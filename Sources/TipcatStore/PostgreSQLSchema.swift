/// The PostgreSQL store's schema, as migrations registered by id and recorded in `tipcat_schema_migrations`
/// (the same tables as the SQLite store, `StoreSchema`).
///
/// Never edit a migration once released: add a new one. A database whose migrations table names a migration
/// missing here was written by a newer tipcat and is refused.
enum PostgreSQLSchema {
    /// The table that records applied migrations.
    static let migrationsTable = "tipcat_schema_migrations"

    /// The key of the transaction-level advisory lock every write (and migration) takes: "TIPC".
    static let writeLock = 0x5449_5043

    static let migrations: [(id: String, sql: String)] = [
        ("001-create-store", """
            -- Content-addressed objects: canonical JSON, keyed by the SHA-256 of its bytes.
            CREATE TABLE objects (
                hash bytea PRIMARY KEY CHECK (length(hash) = 32),
                kind text NOT NULL,
                size integer NOT NULL,
                content bytea NOT NULL
            );

            -- Published versions: numbered 1, 2, 3… across the store, never changed, never reused.
            CREATE TABLE versions (
                number integer PRIMARY KEY CHECK (number > 0),
                channel text NOT NULL,
                parent integer REFERENCES versions (number),
                source integer REFERENCES versions (number),
                type text NOT NULL CHECK (type IN ('publish', 'rollback', 'forced')),
                author text NOT NULL,
                created_at text NOT NULL,
                message text NOT NULL,
                content_hash bytea NOT NULL REFERENCES objects (hash),
                tipcat_version text NOT NULL,
                tips_changed integer NOT NULL
            );

            -- Channel pointers, moved only inside the transaction that justifies the move.
            CREATE TABLE channels (
                name text PRIMARY KEY,
                version integer NOT NULL REFERENCES versions (number),
                updated_at text NOT NULL
            );

            -- Every move of every channel pointer, oldest first.
            CREATE TABLE channel_moves (
                id bigserial PRIMARY KEY,
                channel text NOT NULL,
                version integer NOT NULL REFERENCES versions (number),
                previous integer REFERENCES versions (number),
                action text NOT NULL CHECK (action IN ('publish', 'rollback', 'forced', 'promote')),
                moved_at text NOT NULL
            );
            CREATE INDEX channel_moves_by_channel ON channel_moves (channel, id);

            -- Tips whose definition changed in a version (relative to its parent) with republish policy 'reset'.
            CREATE TABLE republish_resets (
                version integer NOT NULL REFERENCES versions (number),
                tip text NOT NULL,
                PRIMARY KEY (version, tip)
            );
            """),
    ]
}
