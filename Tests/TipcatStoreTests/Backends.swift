import Testing
import TipcatStore
import TipcatTestSupport

/// The store backends every conformance test runs against. A new backend adds a case here.
enum StoreBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgreSQL

    var testDescription: String { rawValue }

    /// A new, empty store's `--store` value: a file in `scratch`, or a fresh database on the test server.
    /// Nil, with the reason printed, when PostgreSQL is not installed here.
    func newStoreURL(in scratch: TemporaryDirectory) throws -> String? {
        switch self {
        case .sqlite:
            return scratch.file(".tipcat/store.sqlite")
        case .postgreSQL:
            guard let server = try PostgreSQLTestServer.shared() else {
                print("skipped on PostgreSQL: \(PostgreSQLTestServer.unavailableReason)")
                return nil
            }
            return try server.makeDatabase().url
        }
    }

    /// A new, empty store opened for writing; nil when the backend cannot run here.
    func newStore(in scratch: TemporaryDirectory) throws -> (any CatalogStore)? {
        guard let url = try newStoreURL(in: scratch) else { return nil }
        return try StoreLocation(url).open(.readWrite)
    }
}

/// What the backend itself can check about its storage (SQLite: `PRAGMA integrity_check`).
func checkIntegrity(_ store: any CatalogStore, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    if let sqlite = store as? SQLiteCatalogStore {
        #expect(try sqlite.integrityCheck() == ["ok"], sourceLocation: sourceLocation)
    }
}
