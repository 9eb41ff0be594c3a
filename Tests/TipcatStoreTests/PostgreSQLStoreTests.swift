import Foundation
import Testing
import TipcatCore
import TipcatPostgreSQL
import TipcatStore
import TipcatTestSupport
import Synchronization

/// What only a server can show: many publishers on different connections, credentials, a server that goes
/// away mid-publish, a database that is not a tipcat store.
@Suite(.serialized) struct PostgreSQLStoreTests {
    /// The test server and a fresh database; nil (reason printed) when PostgreSQL is not installed.
    func database() throws -> PostgreSQLTestDatabase? {
        guard let server = try PostgreSQLTestServer.shared() else {
            print("skipped: \(PostgreSQLTestServer.unavailableReason)")
            return nil
        }
        return try server.makeDatabase()
    }

    /// The acceptance test: 8 publisher processes with the same `--expect-version`, 50 rounds. Each round
    /// has exactly one winner; the others fail with the mismatch error; no version is lost or duplicated.
    @Test(.timeLimit(.minutes(2))) func eightPublishersFiftyRounds() throws {
        let executable = try #require(tipcatExecutable(), "build the tipcat executable first (swift build)")
        guard let database = try database() else { return }
        let scratch = try TemporaryDirectory()
        let writers = 8, rounds = 50
        // A one-tip catalog per writer: the rounds measure the store, not catalog loading.
        var catalogs: [String] = []
        for writer in 0..<writers {
            let directory = scratch.file("w\(writer)/Catalog")
            try FileManager.default.createDirectory(atPath: directory + "/tips", withIntermediateDirectories: true)
            try Data(#"{"name": "T", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en"]}"#.utf8)
                .write(to: URL(fileURLWithPath: directory + "/catalog.json"))
            catalogs.append(directory)
        }
        func write(_ writer: Int, round: Int) throws {
            try Data(#"{"id": "A", "title": "Round \#(round), writer \#(writer)"}"#.utf8)
                .write(to: URL(fileURLWithPath: catalogs[writer] + "/tips/A.json"))
        }
        let start = Date()
        var winners: [Int] = []
        for round in 0..<rounds {
            for writer in 0..<writers { try write(writer, round: round) }
            let children = try (0..<writers).map { writer in
                try Child(executable, [
                    "publish", "--catalog", catalogs[writer], "--store", database.url, "--author", "writer\(writer)",
                    "--expect-version", String(round), "--no-plugins", "-m", "round \(round) by writer \(writer)",
                ])
            }
            let results = children.map { $0.wait() }
            let won = results.indices.filter { results[$0].status == 0 }
            #expect(won.count == 1, "round \(round): \(results.map(\.stderr))")
            for (writer, result) in results.enumerated() where result.status != 0 {
                #expect(result.status == 1, "round \(round), writer \(writer): \(result.stderr)")
                #expect(result.stderr == "error: version mismatch: production is at \(round + 1), expected \(round)\n", "round \(round)")
            }
            winners.append(won.first ?? -1)
        }
        let seconds = Date().timeIntervalSince(start)
        let store = try StoreLocation(database.url).open(.readOnly)
        let versions = try store.versions()
        #expect(versions.map(\.number) == Array(1...rounds))
        #expect(versions.map(\.parent) == [nil] + (1..<rounds).map { $0 })
        #expect(versions.map(\.message) == winners.enumerated().map { "round \($0.offset) by writer \($0.element)" })
        #expect(try store.history(of: .production).map(\.number) == Array(1...rounds))
        #expect(try store.head(of: .production)?.number == rounds)
        print("PostgreSQL: \(writers) publishers x \(rounds) rounds with --expect-version: one winner each round, \(versions.count) versions, \(String(format: "%.1f", seconds)) s")
    }

    /// The server drops the connection while a publish waits for the write lock: exit 69, a clear message,
    /// and no version, object or channel written.
    @Test func serverGoingAwayMidPublishWritesNothing() throws {
        let executable = try #require(tipcatExecutable(), "build the tipcat executable first (swift build)")
        guard let database = try database() else { return }
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        #expect(storeCLI(["publish", "--catalog", catalog, "--store", database.url, "--author", "A"]).status == .success)
        try scratch.edit("Catalog/tips/NewTrailTip.json", replacing: "To see key trail info", with: "For key trail info")

        let holder = try PostgreSQLConnection(conninfo: database.url, applicationName: "lock-holder")
        try holder.execute("BEGIN; SELECT pg_advisory_xact_lock(\(0x5449_5043))")
        let child = try Child(executable, ["publish", "--catalog", catalog, "--store", database.url, "--author", "B"])
        // Wait until the publisher is inside its transaction, waiting for the lock; then cut it off.
        let deadline = Date().addingTimeInterval(30)
        var waiting = false
        let observer = try PostgreSQLConnection(conninfo: database.url, applicationName: "observer")
        while !waiting, Date() < deadline {
            waiting = try observer.query("""
                SELECT count(*) FROM pg_stat_activity
                WHERE datname = current_database() AND application_name = 'tipcat' AND wait_event_type = 'Lock'
                """).first?.int(0) == 1
            if !waiting { usleep(20_000) }
        }
        #expect(waiting, "the publisher never waited for the lock")
        try database.terminateSessions(where: "application_name = 'tipcat'")
        let result = child.wait()
        try holder.execute("ROLLBACK")
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: cannot reach the store '\(database.url)': cannot publish to 'production': the connection was lost ("), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("); nothing was changed\n"), "\(result.stderr)")
        let store = try StoreLocation(database.url).open(.readOnly)
        #expect(try store.versions().map(\.number) == [1])
        #expect(try holder.query("SELECT count(*) FROM channel_moves").first?.int(0) == 1)
    }

    /// Wrong and missing passwords are refused with exit 77 and never echoed; PGPASSWORD and a password
    /// file (libpq's rules) supply the right one.
    @Test func credentialsComeFromTheURLPGPASSWORDOrAPasswordFile() throws {
        let executable = try #require(tipcatExecutable(), "build the tipcat executable first (swift build)")
        guard let database = try database(), let server = try PostgreSQLTestServer.shared() else { return }
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let quiet = ["PGPASSFILE": scratch.file("none"), "HOME": scratch.path]

        let wrong = try Child(executable, ["versions", "--store", database.tcpURL(password: "wrong-secret")], environment: quiet).wait()
        #expect(wrong.status == 77)
        #expect(wrong.stderr == """
            error: the store 'postgresql://\(server.passwordUser):***@127.0.0.1:\(server.port)/\(database.name)' refused the credentials: \
            connection to server at "127.0.0.1", port \(server.port) failed: FATAL:  password authentication failed for user \
            "\(server.passwordUser)" (passwords come from the URL, PGPASSWORD or ~/.pgpass)

            """)
        #expect(!wrong.stderr.contains("wrong-secret"))

        let wrongEnvironment = try Child(
            executable, ["versions", "--store", database.tcpURL(password: nil)], environment: quiet.merging(["PGPASSWORD": "env-secret"]) { _, new in new }
        ).wait()
        #expect(wrongEnvironment.status == 77)
        #expect(!wrongEnvironment.stderr.contains("env-secret"))

        let missing = try Child(executable, ["versions", "--store", database.tcpURL(password: nil)], environment: quiet).wait()
        #expect(missing.status == 77)
        #expect(missing.stderr.contains("fe_sendauth: no password supplied"), "\(missing.stderr)")

        let fromURL = try Child(executable, [
            "publish", "--catalog", catalog, "--store", database.tcpURL(password: server.password.replacingOccurrences(of: " ", with: "%20")),
            "--author", "A",
        ], environment: quiet).wait()
        #expect(fromURL.status == 0, "\(fromURL.stderr)")
        #expect(fromURL.stdout.hasPrefix("Published version 1 to production"))

        let fromEnvironment = try Child(
            executable, ["versions", "--store", database.tcpURL(password: nil)], environment: quiet.merging(["PGPASSWORD": server.password]) { _, new in new }
        ).wait()
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stdout.contains("[production]"))

        let passwordFile = scratch.file("pgpass")
        try "127.0.0.1:\(server.port):\(database.name):\(server.passwordUser):\(server.password)\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        chmod(passwordFile, 0o600)
        let fromFile = try Child(
            executable, ["versions", "--store", database.tcpURL(password: nil)], environment: ["PGPASSFILE": passwordFile, "HOME": scratch.path]
        ).wait()
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(fromFile.stdout.contains("[production]"))
    }

    /// A database holding another program's tables named like the store's is refused, unchanged.
    @Test func foreignTablesAreNotAStore() throws {
        guard let database = try database() else { return }
        let connection = try PostgreSQLConnection(conninfo: database.url)
        try connection.execute("CREATE TABLE versions (id serial PRIMARY KEY, label text)")
        for arguments in [["versions", "--store", database.url], ["publish", "--catalog", sampleCatalogPath, "--store", database.url, "--no-plugins"]] {
            let result = storeCLI(arguments)
            #expect(result.status == .failure)
            #expect(result.stderr == """
                error: '\(database.url)' is not a tipcat store: the database has tables named versions but no tipcat_schema_migrations; \
                use a database of its own for tipcat; it was left untouched

                """)
        }
        #expect(try connection.query("SELECT to_regclass('objects') IS NULL").first?.bool(0) == true)
    }

    /// The libpq layer: bytes round-trip unescaped, integers of every width, NULL, SQLSTATE, rollback.
    @Test func libpqLayerRoundTripsAndReportsSQLSTATE() throws {
        guard let database = try database() else { return }
        let connection = try PostgreSQLConnection(conninfo: database.url)
        let bytes = (0..<1024).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let row = try #require(try connection.scalar(
            "SELECT $1::bytea, $2::smallint, $3::integer, $4::bigint, $5::text, NULL::text, true",
            [.bytes(bytes), .int(-2), .int(-70_000), .int(Int.min), .text("héllo ✓")]))
        #expect(row.bytes(0) == bytes)
        #expect(row.int(1) == -2 && row.int(2) == -70_000 && row.int(3) == Int.min)
        #expect(row.text(4) == "héllo ✓")
        #expect(row.isNull(5) && row.text(5) == nil)
        #expect(row.bool(6) == true)

        try connection.execute("CREATE TABLE t (id integer PRIMARY KEY)")
        do {
            try connection.transaction {
                try connection.update("INSERT INTO t VALUES ($1)", [.int(1)])
                try connection.update("INSERT INTO t VALUES ($1)", [.int(1)])
            }
            Issue.record("a duplicate key was accepted")
        } catch let error as PostgreSQLError {
            #expect(error.kind == .statement && error.sqlState == "23505" && error.isUniqueViolation)
            #expect(error.description == "duplicate key value violates unique constraint \"t_pkey\" (SQLSTATE 23505)")
        }
        #expect(try connection.scalar("SELECT count(*) FROM t")?.int(0) == 0)
        #expect(try connection.update("INSERT INTO t VALUES (1), (2), (3)") == 3)
    }

    /// Two tipcats preparing the same new database at once apply each migration exactly once.
    @Test func concurrentFirstOpensMigrateOnce() throws {
        guard let database = try database() else { return }
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do { _ = try StoreLocation(database.url).open(.readWrite) } catch { errors.withLock { $0.append("\(error)") } }
        }
        #expect(errors.withLock { $0 } == [])
        let connection = try PostgreSQLConnection(conninfo: database.url)
        #expect(try connection.query("SELECT id FROM tipcat_schema_migrations").compactMap { $0.text(0) } == ["001-create-store"])
    }
}
