import Foundation
import Testing
import TipcatCore
import TipcatStore
import TipcatTestSupport

/// `--store` / `TIPCAT_STORE`: paths are SQLite files, `postgresql://` and `postgres://` PostgreSQL, any other
/// URL scheme a usage error; passwords never appear in a message.
@Suite struct StoreLocationTests {
    @Test func pathsAreSQLiteAndPostgreSQLURLsArePostgreSQL() throws {
        #expect(try StoreLocation(".tipcat/store.sqlite") == .sqlite(path: ".tipcat/store.sqlite"))
        #expect(try StoreLocation("/srv/store.sqlite") == .sqlite(path: "/srv/store.sqlite"))
        #expect(try StoreLocation("dir/with:colon/store.sqlite") == .sqlite(path: "dir/with:colon/store.sqlite"))
        for url in ["postgresql://ada@db.example:5432/tipcat", "postgres://db.example/tipcat", "POSTGRESQL://db/tipcat"] {
            guard case .postgreSQL(let parsed) = try StoreLocation(url) else {
                Issue.record("\(url) is not PostgreSQL")
                continue
            }
            #expect(parsed.conninfo == url)
            #expect(parsed.redacted == url)
        }
    }

    @Test(arguments: [
        ("postgresql://ada:s3cret@db.example:5432/tipcat", "postgresql://ada:***@db.example:5432/tipcat"),
        ("postgres://ada:p%40ss@db/tipcat?sslmode=require", "postgres://ada:***@db/tipcat?sslmode=require"),
        ("postgresql://db/tipcat?user=ada&password=s3cret&sslmode=require", "postgresql://db/tipcat?user=ada&password=***&sslmode=require"),
        ("postgresql://ada@db/tipcat", "postgresql://ada@db/tipcat"),
    ])
    func passwordsAreRedacted(url: String, shown: String) throws {
        #expect(try StoreLocation(url).description == shown)
    }

    @Test(arguments: ["mysql://ada:s3cret@db/tipcat", "file:///tmp/store.sqlite", "https://example.com/store", "sqlite://store.sqlite"])
    func otherSchemesAreUsageErrors(url: String) throws {
        let scheme = String(url.prefix { $0 != ":" })
        #expect(throws: StoreError.unsupportedStoreURL(scheme: scheme)) { try StoreLocation(url) }
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        for (arguments, environment) in [
            (["versions", "--store", url], [String: String]()),
            (["publish", "--catalog", catalog], ["TIPCAT_STORE": url]),
        ] {
            let result = storeCLI(arguments, environment: environment)
            #expect(result.status == .usage)
            let command = arguments[0]
            #expect(result.stderr.hasPrefix("""
                Error: unsupported store URL scheme '\(scheme)://': use postgresql:// or postgres:// for PostgreSQL, or a file path for SQLite
                Usage: tipcat \(command)
                """), "\(result.stderr)")
            #expect(!result.stderr.contains("s3cret"))
            #expect(result.stdout == "")
        }
        // Nothing was created for the URL, in the catalog's folder or the working directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["Catalog"])
        #expect(!FileManager.default.fileExists(atPath: scheme + ":"))
    }

    /// A server that refuses the connection: exit 69, the URL shown without its password, no folder named
    /// `postgresql:` created (a URL used to be taken for a path).
    @Test func unreachableServerIsAClearErrorWithoutThePassword() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let url = "postgresql://ada:s3cret@127.0.0.1:1/tipcat"
        for arguments in [["versions", "--store", url], ["publish", "--catalog", catalog, "--store", url]] {
            let result = storeCLI(arguments)
            #expect(result.status == .unavailable)
            #expect(result.stderr == """
                error: cannot reach the store 'postgresql://ada:***@127.0.0.1:1/tipcat': connection to server at "127.0.0.1", port 1 failed: Connection refused Is the server running on that host and accepting TCP/IP connections?

                """)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["Catalog"])
        #expect(!FileManager.default.fileExists(atPath: "postgresql:"))
        // A bad URL: libpq's complaint, with the password scrubbed even where libpq quotes it.
        let bad = storeCLI(["versions", "--store", "postgresql://ada:pa%zz@127.0.0.1:1/tipcat"])
        #expect(bad.status == .unavailable)
        #expect(bad.stderr == "error: cannot reach the store 'postgresql://ada:***@127.0.0.1:1/tipcat': invalid percent-encoded token: \"***\"\n")
        let unknownParameter = storeCLI(["versions", "--store", "postgresql://127.0.0.1:1/tipcat?colour=blue"])
        #expect(unknownParameter.status == .unavailable)
        #expect(unknownParameter.stderr == "error: cannot reach the store 'postgresql://127.0.0.1:1/tipcat?colour=blue': invalid URI query parameter: \"colour\"\n")
    }
}
