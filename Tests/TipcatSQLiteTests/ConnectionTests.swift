import Foundation
import Testing
import TipcatSQLite

/// A fresh directory for database files, removed afterwards.
final class ScratchDirectory {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tipcat-sqlite-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func file(_ name: String) -> String { path + "/" + name }
}

@Suite struct ConnectionTests {
    @Test func valuesOfEveryStorageClassRoundTrip() throws {
        let scratch = try ScratchDirectory()
        let db = try Connection(path: scratch.file("values.sqlite"))
        try db.execute("CREATE TABLE t (a, b, c, d, e)")
        let bytes: [UInt8] = [0, 1, 2, 255]
        try db.run("INSERT INTO t VALUES (?, ?, ?, ?, ?)", [.null, .integer(-42), .real(2.5), .text("héllo 日本"), .blob(bytes)])
        try db.run("INSERT INTO t VALUES (?, ?, ?, ?, ?)", [.text(""), .integer(Int64.max), .real(-0.125), .blob([]), .null])
        let rows = try db.rows("SELECT a, b, c, d, e FROM t ORDER BY rowid")
        #expect(rows[0] == [.null, .integer(-42), .real(2.5), .text("héllo 日本"), .blob(bytes)])
        #expect(rows[1] == [.text(""), .integer(Int64.max), .real(-0.125), .blob([]), .null])
        #expect(db.changes == 1)
        #expect(db.lastInsertRowID == 2)
    }

    @Test func statementsAreReusableWithNewBindings() throws {
        let scratch = try ScratchDirectory()
        let db = try Connection(path: scratch.file("reuse.sqlite"))
        try db.execute("CREATE TABLE t (n INTEGER)")
        let insert = try db.prepare("INSERT INTO t VALUES (?)")
        for n in 0..<100 { try insert.execute([.int(n)]) }
        #expect(try db.scalar("SELECT sum(n) FROM t") == .integer(4950))
        let select = try db.prepare("SELECT n FROM t WHERE n >= ? ORDER BY n")
        try select.bind([.int(97)])
        var seen: [Int] = []
        while try select.step() { seen.append(Int(select.int64(0))) }
        #expect(seen == [97, 98, 99])
    }

    @Test func syntaxErrorsCarryCodeMessageAndSQL() throws {
        let scratch = try ScratchDirectory()
        let db = try Connection(path: scratch.file("errors.sqlite"))
        do {
            _ = try db.prepare("SELEKT 1")
            Issue.record("expected a syntax error")
        } catch {
            #expect(error.code == 1)  // SQLITE_ERROR
            #expect(error.message.contains("syntax error"))
            #expect(error.sql == "SELEKT 1")
            #expect(error.description.contains("SELEKT 1"))
        }
    }

    @Test func constraintViolationsAreRecognisable() throws {
        let scratch = try ScratchDirectory()
        let db = try Connection(path: scratch.file("constraint.sqlite"))
        try db.execute("CREATE TABLE t (id TEXT PRIMARY KEY)")
        try db.run("INSERT INTO t VALUES ('a')")
        do {
            try db.run("INSERT INTO t VALUES ('a')")
            Issue.record("expected a constraint violation")
        } catch {
            #expect(error.isConstraintViolation)
            #expect(error.extendedCode != error.code)  // SQLITE_CONSTRAINT_PRIMARYKEY
        }
    }

    @Test func transactionsCommitOrRollBack() throws {
        struct Boom: Error {}
        let scratch = try ScratchDirectory()
        let db = try Connection(path: scratch.file("tx.sqlite"))
        try db.execute("CREATE TABLE t (n INTEGER)")
        try db.transaction { try db.run("INSERT INTO t VALUES (1)") }
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t VALUES (2)")
                throw Boom()
            }
        }
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(1))
        // Nested: the inner failure rolls back only the savepoint.
        try db.transaction {
            try db.run("INSERT INTO t VALUES (3)")
            _ = try? db.transaction {
                try db.run("INSERT INTO t VALUES (4)")
                throw Boom()
            }
        }
        #expect(try db.rows("SELECT n FROM t ORDER BY n") == [[.integer(1)], [.integer(3)]])
        #expect(db.isAutocommit)
    }

    @Test func writeAheadLogIsEnabled() throws {
        let scratch = try ScratchDirectory()
        let db = try Connection(path: scratch.file("wal.sqlite"))
        #expect(try db.journalMode() == "delete")
        try db.enableWriteAheadLog()
        #expect(try db.journalMode() == "wal")
        try db.execute("CREATE TABLE t (n)")
        #expect(FileManager.default.fileExists(atPath: scratch.file("wal.sqlite-wal")))
        #expect(try db.integrityCheck() == ["ok"])
    }

    @Test func readersSeeOnlyCommittedDataAndWritersWaitOrTimeOut() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("busy.sqlite")
        let writer = try Connection(path: path)
        try writer.enableWriteAheadLog()
        try writer.execute("CREATE TABLE t (n)")
        let reader = try Connection(path: path, mode: .readOnly)
        let other = try Connection(path: path, busyTimeoutMilliseconds: 50)
        try writer.execute("BEGIN IMMEDIATE")
        try writer.run("INSERT INTO t VALUES (1)")
        #expect(try reader.scalar("SELECT count(*) FROM t") == .integer(0))
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            try other.execute("BEGIN IMMEDIATE")
            Issue.record("expected SQLITE_BUSY while another connection holds the write lock")
        } catch {
            #expect(error.isBusy)
            #expect(DispatchTime.now().uptimeNanoseconds - start >= 40_000_000)  // it waited for the timeout
        }
        try writer.execute("COMMIT")
        #expect(try reader.scalar("SELECT count(*) FROM t") == .integer(1))
    }

    @Test func readOnlyConnectionsRefuseWrites() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("ro.sqlite")
        try Connection(path: path).execute("CREATE TABLE t (n)")
        let db = try Connection(path: path, mode: .readOnly)
        do {
            try db.run("INSERT INTO t VALUES (1)")
            Issue.record("expected a read-only error")
        } catch {
            #expect(error.isReadOnly)
        }
    }

    @Test func missingFilesAreNotCreatedUnlessAsked() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("missing.sqlite")
        #expect(throws: SQLiteError.self) { try Connection(path: path, mode: .readWrite) }
        #expect(!FileManager.default.fileExists(atPath: path))
        do {
            _ = try Connection(path: scratch.file("no/such/dir.sqlite"))
            Issue.record("expected SQLITE_CANTOPEN")
        } catch {
            #expect(error.isCannotOpen)
        }
    }

    @Test func nonDatabaseFilesFailWithNotADatabase() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("text.sqlite")
        let text = String(repeating: "this is not a database\n", count: 200)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let db = try Connection(path: path, mode: .readOnly)  // SQLite opens lazily
        do {
            _ = try db.scalar("SELECT count(*) FROM sqlite_schema")
            Issue.record("expected SQLITE_NOTADB")
        } catch {
            #expect(error.isCorruptOrNotADatabase)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }
}
