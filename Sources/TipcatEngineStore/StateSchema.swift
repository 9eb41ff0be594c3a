import TipcatSQLite

/// The state database's schema, as migrations registered by id (applied once each, in order).
enum StateSchema {
    static let migrations: [Migration] = [
        Migration("001-create-state", sql: """
            CREATE TABLE donations (
                id INTEGER PRIMARY KEY,
                event TEXT NOT NULL,
                time REAL NOT NULL,
                fields BLOB NOT NULL
            );
            CREATE INDEX donations_by_event_time ON donations (event, time);
            CREATE TABLE tips (
                instance TEXT PRIMARY KEY NOT NULL,
                tip TEXT NOT NULL,
                parameters BLOB NOT NULL,
                invalidation TEXT,
                invalidated_at REAL,
                display_count INTEGER NOT NULL,
                display_duration REAL NOT NULL,
                first_displayed REAL,
                last_displayed REAL,
                on_screen_since REAL
            );
            CREATE TABLE parameters (
                name TEXT PRIMARY KEY NOT NULL,
                value BLOB NOT NULL
            );
            CREATE TABLE engine (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                last_new_tip_shown REAL,
                catalog_version TEXT,
                content_hashes BLOB NOT NULL
            );
            """),
    ]

    static let migrator = Migrator(migrations, tableName: "state_migrations")
}
