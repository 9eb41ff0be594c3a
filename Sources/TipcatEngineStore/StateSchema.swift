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
        // State sync: a device id and hybrid logical clock; donation ids (device, sequence); per-device display
        // counters; stamps for parameters, registrations and resets; deletion marks.
        // A donation with no device and no seq is this device's, numbered by its row id (rows this device
        // stores, and those of databases made before this migration); existing invalidations, displays and
        // parameters are this device's.
        Migration("002-sync", sql: """
            CREATE TABLE sync (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                device TEXT NOT NULL,
                clock_ms INTEGER NOT NULL,
                clock_counter INTEGER NOT NULL,
                high_seq INTEGER NOT NULL
            );
            INSERT INTO sync (id, device, clock_ms, clock_counter, high_seq)
                VALUES (1, lower(hex(randomblob(8))), 0, 0, (SELECT coalesce(max(id), 0) FROM donations));
            ALTER TABLE donations ADD COLUMN device TEXT;
            ALTER TABLE donations ADD COLUMN seq INTEGER;
            CREATE TABLE deleted_donations (
                event TEXT PRIMARY KEY NOT NULL,
                time REAL NOT NULL,
                device TEXT NOT NULL,
                seq INTEGER NOT NULL
            );
            ALTER TABLE tips ADD COLUMN parameters_ms INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE tips ADD COLUMN parameters_counter INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE tips ADD COLUMN parameters_device TEXT NOT NULL DEFAULT '';
            ALTER TABLE tips ADD COLUMN reset_ms INTEGER;
            ALTER TABLE tips ADD COLUMN reset_counter INTEGER;
            ALTER TABLE tips ADD COLUMN reset_device TEXT;
            ALTER TABLE tips ADD COLUMN invalidated_by TEXT;
            UPDATE tips SET parameters_device = (SELECT device FROM sync),
                invalidated_by = CASE WHEN invalidation IS NULL THEN NULL ELSE (SELECT device FROM sync) END;
            CREATE TABLE tip_displays (
                instance TEXT NOT NULL,
                device TEXT NOT NULL,
                count INTEGER NOT NULL,
                seconds REAL NOT NULL,
                first_displayed REAL,
                last_displayed REAL,
                PRIMARY KEY (instance, device)
            ) WITHOUT ROWID;
            INSERT INTO tip_displays (instance, device, count, seconds, first_displayed, last_displayed)
                SELECT instance, (SELECT device FROM sync), display_count, display_duration, first_displayed, last_displayed
                FROM tips WHERE display_count > 0 OR display_duration > 0;
            ALTER TABLE parameters ADD COLUMN stamp_ms INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE parameters ADD COLUMN stamp_counter INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE parameters ADD COLUMN stamp_device TEXT NOT NULL DEFAULT '';
            UPDATE parameters SET stamp_device = (SELECT device FROM sync);
            """),
    ]

    static let migrator = Migrator(migrations, tableName: "state_migrations")
}
