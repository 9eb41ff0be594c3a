import Testing
import TipcatSQLite

@Suite struct MigrationTests {
    static let v1 = Migration("001-people", sql: "CREATE TABLE people (name TEXT NOT NULL)")
    static let v2 = Migration("002-age", sql: "ALTER TABLE people ADD COLUMN age INTEGER")

    @Test func migrationsApplyOnceInOrderAndAreRecorded() throws {
        let scratch = try ScratchDirectory()
        let db = try Connection(path: scratch.file("m.sqlite"))
        #expect(try Migrator([Self.v1]).migrate(db) == ["001-people"])
        #expect(try Migrator([Self.v1, Self.v2]).migrate(db) == ["002-age"])
        #expect(try Migrator([Self.v1, Self.v2]).migrate(db) == [])
        #expect(try Migrator([Self.v1, Self.v2]).appliedIDs(db) == ["001-people", "002-age"])
        try db.run("INSERT INTO people (name, age) VALUES ('Ada', 36)")
        let recorded = try db.rows("SELECT id, applied_at FROM schema_migrations ORDER BY rowid")
        #expect(recorded.count == 2)
        #expect(recorded[0][1].textValue?.hasSuffix("Z") == true)
    }

    @Test func aDatabaseFromANewerProgramIsRefusedUntouched() throws {
        let scratch = try ScratchDirectory()
        let db = try Connection(path: scratch.file("newer.sqlite"))
        try Migrator([Self.v1, Self.v2]).migrate(db)
        do {
            try Migrator([Self.v1]).migrate(db)
            Issue.record("expected the newer database to be refused")
        } catch let error as MigrationError {
            #expect(error == .unknownMigrations(["002-age"]))
            #expect(error.description.contains("newer"))
        }
    }

    @Test func aFailingMigrationLeavesNothingBehind() throws {
        let scratch = try ScratchDirectory()
        let db = try Connection(path: scratch.file("fail.sqlite"))
        let broken = Migration("002-broken", sql: "CREATE TABLE pets (name TEXT); CREATE TABLE oops (")
        do {
            try Migrator([Self.v1, broken]).migrate(db)
            Issue.record("expected the broken migration to fail")
        } catch let error as MigrationError {
            guard case .failed(let id, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(id == "002-broken")
        }
        #expect(try Migrator([Self.v1, broken]).appliedIDs(db) == ["001-people"])
        #expect(try db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'pets'") == .integer(0))
    }

    @Test func readOnlyConnectionsReportPendingMigrations() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("ro.sqlite")
        try Migrator([Self.v1]).migrate(try Connection(path: path))
        let db = try Connection(path: path, mode: .readOnly)
        #expect(throws: MigrationError.pendingOnReadOnlyConnection(["002-age"])) {
            try Migrator([Self.v1, Self.v2]).migrate(db)
        }
        #expect(try Migrator([Self.v1]).migrate(db) == [])
    }
}
