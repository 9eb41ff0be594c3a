import Foundation
import Testing
import TipcatCatalog
import TipcatCore
import TipcatJSON
import TipcatSQLite
import TipcatCodec
@testable import TipcatStore
import TipcatTestSupport

@Suite struct StoreTests {
    /// New stores get 16 KB pages; a store made with other pages keeps them, and is published to as before.
    @Test func newStoresGetLargePagesAndOldOnesKeepTheirs() throws {
        let scratch = try TemporaryDirectory()
        let catalog = loadCatalog(sampleCatalogPath)
        let fresh = try SQLiteCatalogStore(path: scratch.file("new.sqlite"), mode: .readWrite)
        #expect(try fresh.connection.scalar("PRAGMA page_size")?.intValue == 16384)
        // A store this process creates keeps the rollback journal until its first publish is written.
        #expect(try fresh.connection.journalMode() == "delete")
        let freshRecord = try fresh.publish(publishRequest(catalog)).record
        #expect(try fresh.connection.journalMode() == "wal")

        // Made by an earlier tipcat (write-ahead log already on), or by hand without it.
        let setups = ["PRAGMA page_size = 4096; PRAGMA journal_mode = WAL",
                      "PRAGMA page_size = 4096; PRAGMA application_id = \(StoreSchema.applicationID)"]
        for (index, setup) in setups.enumerated() {
            let oldPath = scratch.file("old\(index).sqlite")
            do {
                let old = try Connection(path: oldPath)
                try old.execute(setup)
            }
            let reopened = try SQLiteCatalogStore(path: oldPath, mode: .readWrite)
            #expect(try reopened.connection.scalar("PRAGMA page_size")?.intValue == 4096)
            #expect(try reopened.connection.journalMode() == "wal")
            let oldRecord = try reopened.publish(publishRequest(catalog)).record
            #expect(oldRecord.contentHash == freshRecord.contentHash)
            #expect(try reopened.integrityCheck() == ["ok"])
        }
    }

    /// A new store's first publish writes its objects once, through the rollback journal (the write-ahead log would
    /// write them into the log and then copy them into the store); its first write transaction, whether it commits
    /// or not, switches it to the log, and an empty file counts as new.
    @Test func aNewStoreSwitchesToTheWriteAheadLogAfterItsFirstWrite() throws {
        let scratch = try TemporaryDirectory()
        let catalog = loadCatalog(sampleCatalogPath)
        // The first write fails (a version mismatch): nothing is published, and the store uses the log.
        let failing = try SQLiteCatalogStore(path: scratch.file("failing.sqlite"), mode: .readWrite)
        #expect(try failing.connection.journalMode() == "delete")
        #expect(throws: StoreError.self) { try failing.publish(publishRequest(catalog, expect: 3)) }
        #expect(try failing.connection.journalMode() == "wal")
        #expect(try SQLiteCatalogStore(path: scratch.file("failing.sqlite"), mode: .readOnly).versions().isEmpty)

        // An empty file is a new store too.
        #expect(FileManager.default.createFile(atPath: scratch.file("empty.sqlite"), contents: Data()))
        let empty = try SQLiteCatalogStore(path: scratch.file("empty.sqlite"), mode: .readWrite)
        #expect(try empty.connection.journalMode() == "delete")
        let record = try empty.publish(publishRequest(catalog)).record
        let reader = try SQLiteCatalogStore(path: scratch.file("empty.sqlite"), mode: .readOnly)
        #expect(try reader.versions() == [record])
        #expect(try reader.connection.journalMode() == "wal")
        #expect(try empty.integrityCheck() == ["ok"])

        // An existing store opened to write switches at once (as before), whatever it holds.
        let reopened = try SQLiteCatalogStore(path: scratch.file("empty.sqlite"), mode: .readWrite)
        #expect(try reopened.connection.journalMode() == "wal")
    }

    /// A writer's page cache starts at 1 MiB and grows with the objects it inserts (the index on their hashes, which
    /// each batch walks in the order of the hashes), up to 8 MiB; every object reads back.
    @Test func theWritersPageCacheGrowsWithTheObjectsItInserts() throws {
        let scratch = try TemporaryDirectory()
        let store = try SQLiteCatalogStore(path: scratch.file("store.sqlite"), mode: .readWrite)
        #expect(try store.connection.scalar("PRAGMA cache_size")?.intValue == -1024)
        var sizes: [Int] = []
        var digests: [SHA256Digest] = []
        try store.write("test") {
            for batch in 0..<92 {
                let objects = (0..<1000).map { ContentObject(kind: .tip, bytes: Array("{\"batch\":\(batch),\"n\":\($0)}".utf8)) }
                digests += objects.map(\.digest)
                try store.insertObjects(objects)
                sizes.append(try store.connection.scalar("PRAGMA cache_size")?.intValue ?? 0)
            }
        }
        #expect(sizes.first == -1024 && sizes.last == -8192 && sizes.contains { $0 < -1024 && $0 > -8192 })
        #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 >= $1 })
        #expect(try store.bytes(of: digests).count == digests.count)
    }

    /// A process that dies in a new store's first publish leaves a hot rollback journal: a reader, which may not
    /// roll it back, says so (nothing was published; publish again), and the next publish rolls it back and succeeds.
    @Test func aFirstPublishThatDiedIsReportedToReadersAndRepairedByTheNextPublish() throws {
        let scratch = try TemporaryDirectory()
        let catalog = loadCatalog(sampleCatalogPath)
        let path = scratch.file("store.sqlite")
        let crashed = scratch.file("crashed.sqlite")
        let store = try SQLiteCatalogStore(path: path, mode: .readWrite)
        // The files as a process killed mid-publish leaves them: copied while its transaction is open (and has
        // written pages beyond its 4 MB cache to the store, the old ones into the journal).
        try store.write("test") {
            let big = (0..<160).map { ContentObject(kind: .tip, bytes: Array("{\"n\":\($0),\"x\":\"\(String(repeating: "x", count: 60_000))\"}".utf8)) }
            try store.insertObjects(big)
            try FileManager.default.copyItem(atPath: path, toPath: crashed)
            try FileManager.default.copyItem(atPath: path + "-journal", toPath: crashed + "-journal")
        }
        let failure = try #require(throws: StoreError.self) { try SQLiteCatalogStore(path: crashed, mode: .readOnly).versions() }
        #expect("\(failure)".contains("its first publish was interrupted before it committed"), "\(failure)")
        let repaired = try SQLiteCatalogStore(path: crashed, mode: .readWrite)
        #expect(try repaired.versions().isEmpty)
        let record = try repaired.publish(publishRequest(catalog)).record
        #expect(try SQLiteCatalogStore(path: crashed, mode: .readOnly).versions() == [record])
        #expect(try repaired.integrityCheck() == ["ok"])
        #expect(!FileManager.default.fileExists(atPath: crashed + "-journal"))
    }

    @Test(arguments: ["7", "-3", "1e3", "1.5", "inf", "nan", "working", "", "9lives", "has space", String(repeating: "x", count: 65)])
    func invalidChannelNamesAreRefused(name: String) {
        #expect(throws: StoreError.self) { try ChannelName(name) }
    }

    @Test func validChannelNames() throws {
        for name in ["production", "beta", "release-2026.03", "qa_1", "v2"] { #expect(try ChannelName(name).rawValue == name) }
    }

    @Test func bundlesCarryAndCheckTheirHash() throws {
        let scratch = try TemporaryDirectory()
        let store = try SQLiteCatalogStore(path: scratch.file("store.sqlite"), mode: .readWrite)
        let record = try store.publish(publishRequest(loadCatalog(sampleCatalogPath))).record
        let bundle = try store.bundle(of: record, channel: "production")
        let bytes = bundle.fileBytes
        let read = try CatalogBundle(bytes: bytes)
        #expect(read.contentHash == record.contentHash)
        #expect(read.version == 1 && read.channel == "production" && read.publishedAt == "2026-03-01T09:30:00Z")
        let catalog = try read.catalog(origin: "bundle.json")
        #expect(catalog.tips.count == 17)
        #expect(ContentTree(catalog: catalog).root == record.contentHash)
        // Tampering with the content is detected.
        let text = String(decoding: bytes, as: UTF8.self)
        let tampered = text.replacingOccurrences(of: "Reorient the map", with: "Reorient the mop")
        #expect(tampered.count == text.count && tampered != text, "the tampering did not apply")
        #expect(throws: CatalogDecodingError.self) { try CatalogBundle(bytes: Array(tampered.utf8)) }
        #expect(throws: CatalogDecodingError.self) { try CatalogBundle(bytes: Array("{\"bundle\": 1}".utf8)) }
        #expect(throws: CatalogDecodingError.self) { try CatalogBundle(bytes: Array("not json".utf8)) }
    }

    /// Every field of a bundle is sealed by its hash: changing any of them, or any byte of the file, is refused.
    @Test func bundlesRefuseAnyChangedField() throws {
        let scratch = try TemporaryDirectory()
        let store = try SQLiteCatalogStore(path: scratch.file("store.sqlite"), mode: .readWrite)
        let record = try store.publish(publishRequest(loadCatalog(sampleCatalogPath))).record
        let text = String(decoding: try store.bundle(of: record, channel: "production").fileBytes, as: UTF8.self)
        #expect(try CatalogBundle(bytes: Array(text.utf8)).channel == "production")
        let hash = record.contentHash.hex
        let sealStart = try #require(text.range(of: "\"bundleHash\":\"")).upperBound
        let seal = String(text[sealStart...].prefix(64))
        let changes: [(String, String, String)] = [
            ("channel", "\"channel\":\"production\"", "\"channel\":\"productioo\""),
            ("publishedAt", "\"publishedAt\":\"2026-03-01T09:30:00Z\"", "\"publishedAt\":\"2026-03-01T09:31:00Z\""),
            ("version", "\"version\":1}", "\"version\":2}"),
            ("bundle", "\"bundle\":\"tipcat-bundle\"", "\"bundle\":\"tipcat-bundlf\""),
            ("bundleVersion", "\"bundleVersion\":2", "\"bundleVersion\":1"),
            ("contentHash", hash, String(hash.dropLast()) + (hash.hasSuffix("0") ? "1" : "0")),
            ("bundleHash", seal, String(seal.dropLast()) + (seal.hasSuffix("0") ? "1" : "0")),
            ("catalog", "Reorient the map", "Reorient the mop"),
            ("an added member", "\"version\":1}", "\"version\":1,\"zz\":0}"),
            ("the format", "{\"bundle\"", "{ \"bundle\""),
            ("the final newline", "}\n", "}\n\n"),
        ]
        for (field, target, replacement) in changes {
            var changed = text
            let range = try #require(changed.range(of: target), "\(field): \(target) not in the bundle")
            changed.replaceSubrange(range, with: replacement)
            #expect(changed != text, "\(field)")
            #expect(throws: CatalogDecodingError.self, "a changed \(field) was accepted") { try CatalogBundle(bytes: Array(changed.utf8)) }
        }
        // Turning a sealed bundle into a version 1 bundle keeps its bundleHash, which version 1 never has.
        do {
            _ = try CatalogBundle(bytes: Array(text.replacingOccurrences(of: "\"bundleVersion\":2", with: "\"bundleVersion\":1").utf8))
            Issue.record("a version 1 bundle with a bundleHash was accepted")
        } catch {
            #expect(error.description.contains("a version 1 bundle has no bundleHash"), "\(error.description)")
        }
    }

    /// A bundle written before bundles were sealed (version 1) is still read: its content is checked, its
    /// unprotected metadata ignored.
    @Test func versionOneBundlesAreReadWithoutTheirMetadata() throws {
        let scratch = try TemporaryDirectory()
        let store = try SQLiteCatalogStore(path: scratch.file("store.sqlite"), mode: .readWrite)
        let record = try store.publish(publishRequest(loadCatalog(sampleCatalogPath))).record
        let bundle = try store.bundle(of: record, channel: "production")
        let legacy: JSONValue = .object([
            ("bundle", .string("tipcat-bundle")), ("bundleVersion", .int(1)), ("catalog", bundle.pieces.document),
            ("contentHash", .string(record.contentHash.hex)), ("channel", .string("beta")), ("version", .int(9)),
        ])
        let read = try CatalogBundle(bytes: legacy.canonicalBytes + [10])
        #expect(read.contentHash == record.contentHash)
        #expect(read.channel == nil && read.version == nil && read.publishedAt == nil)
        #expect(try read.catalog(origin: "bundle.json").tips.count == 17)
    }

    /// A key written twice anywhere in a bundle (here a second `channel` at the top level, which a reader
    /// taking the first one would silently ignore) refuses the bundle, naming both positions.
    @Test func bundlesWithADuplicateKeyAreRefused() throws {
        let scratch = try TemporaryDirectory()
        let store = try SQLiteCatalogStore(path: scratch.file("store.sqlite"), mode: .readWrite)
        let record = try store.publish(publishRequest(loadCatalog(sampleCatalogPath))).record
        var text = String(decoding: try store.bundle(of: record, channel: "production").fileBytes, as: UTF8.self)
        let end = try #require(text.lastIndex(of: "}"))
        text.replaceSubrange(end...end, with: #","channel":"evil"}"#)
        do {
            _ = try CatalogBundle(bytes: Array(text.utf8))
            Issue.record("a bundle with two 'channel' keys was accepted")
        } catch {
            #expect(error.message.hasPrefix("duplicate key 'channel' at line 1, column "), "\(error.message)")
            #expect(error.message.contains("(first written at line 1, column "), "\(error.message)")
        }
    }

    @Test func readOnlyOpensNeverCreateAStore() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.file("absent/store.sqlite")
        #expect(throws: StoreError.missingStore(path: path)) { try SQLiteCatalogStore(path: path, mode: .readOnly) }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("absent")))
        // An empty file reads as an empty store.
        try scratch.write("empty.sqlite", "")
        let empty = try SQLiteCatalogStore(path: scratch.file("empty.sqlite"), mode: .readOnly)
        #expect(try empty.versions().isEmpty && empty.channels().isEmpty)
    }

    @Test func aStoreFromANewerTipcatIsRefused() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.file("store.sqlite")
        _ = try SQLiteCatalogStore(path: path, mode: .readWrite).publish(publishRequest(loadCatalog(sampleCatalogPath)))
        let raw = try Connection(path: path)
        try raw.run("INSERT INTO schema_migrations (id, applied_at) VALUES ('099-from-the-future', 'x')")
        for mode in [SQLiteCatalogStore.Mode.readOnly, .readWrite] {
            do {
                _ = try SQLiteCatalogStore(path: path, mode: mode)
                Issue.record("a newer store must be refused")
            } catch {
                #expect(error == .newerStore(path: path, migrations: ["099-from-the-future"]))
                #expect(error.description.contains("newer tipcat"))
            }
        }
    }

    @Test func foreignAndDamagedFilesAreRefusedUntouched() throws {
        let scratch = try TemporaryDirectory()
        // A real store, to damage.
        let good = scratch.file("good.sqlite")
        _ = try SQLiteCatalogStore(path: good, mode: .readWrite).publish(publishRequest(loadCatalog(sampleCatalogPath)))
        let storeBytes = try Data(contentsOf: URL(fileURLWithPath: good))
        var random = SeededGenerator(seed: 1)
        let foreign = scratch.file("foreign.sqlite")
        try Connection(path: foreign).execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')")
        let cases: [(String, Data?)] = [
            ("text.sqlite", Data(String(repeating: "hello, not a database\n", count: 300).utf8)),
            ("random.sqlite", Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &random) })),
            ("header-then-garbage.sqlite", Data(Array("SQLite format 3\0".utf8) + [0x10, 0x00] + [UInt8](repeating: 0xAB, count: 8192 - 18))),
            ("truncated.sqlite", storeBytes.prefix(5000)),
            ("one-page.sqlite", storeBytes.prefix(4096)),
            ("foreign.sqlite", nil),
        ]
        for (name, data) in cases {
            let path = scratch.file(name)
            if let data { try data.write(to: URL(fileURLWithPath: path)) }
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            for mode in [SQLiteCatalogStore.Mode.readWrite, .readOnly] {
                do {
                    let store = try SQLiteCatalogStore(path: path, mode: mode)
                    _ = try store.publish(publishRequest(loadCatalog(sampleCatalogPath)))
                    Issue.record("\(name) (\(mode)) was accepted as a store")
                } catch let error as StoreError {
                    guard case .notAStore = error else {
                        Issue.record("\(name): unexpected \(error)")
                        continue
                    }
                    #expect(error.description.contains("left untouched"))
                }
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(name) changed")
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == modified, "\(name) touched")
        }
        let directory = scratch.file("dir.sqlite")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect(throws: StoreError.notAStore(path: directory, reason: "it is a directory")) {
            try SQLiteCatalogStore(path: directory, mode: .readWrite)
        }
    }
}
