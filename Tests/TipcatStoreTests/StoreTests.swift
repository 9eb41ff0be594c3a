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
    @Test func publishEditRollbackAndHistory() throws {
        let scratch = try TemporaryDirectory()
        let catalogPath = try scratch.sampleCatalog()
        let store = try SQLiteCatalogStore(path: scratch.file(".tipcat/store.sqlite"), mode: .readWrite)

        let first = try store.publish(publishRequest(loadCatalog(catalogPath)))
        #expect(first.record.number == 1)
        #expect(first.record.parent == nil)
        #expect(first.record.type == .publish)
        #expect(first.record.message.hasPrefix("initial version: 17 tips"))
        #expect(first.record.tipsChanged == 17)

        // Same content: nothing written.
        let again = try store.publish(publishRequest(loadCatalog(catalogPath)))
        #expect(again.isUnchanged && again.record.number == 1)

        try scratch.edit("Catalog/tips/NewTrailTip.json", replacing: "To see key trail info", with: "For key trail info")
        let second = try store.publish(publishRequest(loadCatalog(catalogPath)))
        #expect(second.record.number == 2)
        #expect(second.record.parent == 1)
        #expect(second.record.tipsChanged == 1)
        #expect(second.record.message == "NewTrailTip: message")
        let changes = try #require(second.diff).changes
        #expect(changes == [CatalogChange(
            .changed, .tip, subject: "NewTrailTip", field: "message",
            old: #""To see key trail info, tap {trail.region} on the map.""#,
            new: #""For key trail info, tap {trail.region} on the map.""#)])
        // NewTrailTip has republish "reset": devices forget their state for it.
        #expect(try store.resets(of: 2) == ["NewTrailTip"])
        #expect(try store.resets(of: 1) == [])

        let rollback = try store.rollback(RollbackRequest(
            channel: .production, target: 1, author: "tester", time: fixedTime, tipcatVersion: "test"))
        #expect(rollback.record.number == 3)
        #expect(rollback.record.type == .rollback)
        #expect(rollback.record.source == 1)
        #expect(rollback.record.parent == 2)
        #expect(rollback.record.contentHash == first.record.contentHash)
        #expect(rollback.record.message.hasPrefix("rollback to version 1: NewTrailTip: message"))
        // Rolling back to what the channel already has writes nothing.
        #expect(try store.rollback(RollbackRequest(
            channel: .production, target: 1, author: "tester", time: fixedTime, tipcatVersion: "test")).isUnchanged)

        #expect(try store.versions().map(\.number) == [1, 2, 3])
        #expect(try store.head(of: .production)?.number == 3)
        #expect(try store.history(of: .production).map(\.number) == [1, 2, 3])
        for record in try store.versions() { #expect(try store.verify(record) > 20) }
        #expect(try store.integrityCheck() == ["ok"])

        // The store's catalog is the model the engine reads.
        let (head, catalog) = try store.catalog(channel: .production)
        #expect(head.number == 3)
        #expect(catalog.tip("NewTrailTip")?.message?.source == "To see key trail info, tap {trail.region} on the map.")
        #expect(catalog.tip("NewTrailTip")?.message?.message != nil)
    }

    @Test func expectVersionGuardsAndForceOverrides() throws {
        let scratch = try TemporaryDirectory()
        let catalogPath = try scratch.sampleCatalog()
        let store = try SQLiteCatalogStore(path: scratch.file("store.sqlite"), mode: .readWrite)
        #expect(throws: StoreError.versionMismatch(channel: "production", actual: nil, expected: 3)) {
            try store.publish(publishRequest(loadCatalog(catalogPath), expect: 3))
        }
        _ = try store.publish(publishRequest(loadCatalog(catalogPath), expect: 0))
        try scratch.edit("Catalog/tips/RotateMapTip.json", replacing: "\"title\": \"", with: "\"title\": \"Now: ")
        let edited = loadCatalog(catalogPath)
        do {
            _ = try store.publish(publishRequest(edited, expect: 6))
            Issue.record("expected a version mismatch")
        } catch let error as StoreError {
            #expect(error.description == "version mismatch: production is at 1, expected 6")
        }
        #expect(try store.versions().count == 1)
        let forced = try store.publish(publishRequest(edited, expect: 6, force: true))
        #expect(forced.record.type == .forced && forced.record.number == 2)
        // --force also publishes unchanged content, as a new version.
        let repeated = try store.publish(publishRequest(edited, force: true))
        #expect(repeated.record.number == 3 && repeated.record.contentHash == forced.record.contentHash)
        #expect(repeated.record.tipsChanged == 0)
    }

    @Test func channelsPromoteWithCompareAndSwap() throws {
        let scratch = try TemporaryDirectory()
        let catalogPath = try scratch.sampleCatalog()
        let store = try SQLiteCatalogStore(path: scratch.file("store.sqlite"), mode: .readWrite)
        _ = try store.publish(publishRequest(loadCatalog(catalogPath)))
        try scratch.edit("Catalog/tips/RotateMapTip.json", replacing: "\"title\": \"", with: "\"title\": \"Beta: ")
        let beta = try store.publish(publishRequest(loadCatalog(catalogPath), channel: "beta"))
        #expect(beta.record.number == 2 && beta.record.parent == nil && beta.record.channel == "beta")

        #expect(throws: StoreError.versionMismatch(channel: "production", actual: 1, expected: 5)) {
            try store.promote(from: ChannelName("beta"), to: .production, expectedVersion: 5, time: fixedTime)
        }
        let promoted = try store.promote(from: ChannelName("beta"), to: .production, expectedVersion: 1, time: fixedTime)
        #expect(promoted == PromoteOutcome(channel: "production", previous: 1, current: 2, moved: true))
        #expect(try store.head(of: .production)?.number == 2)
        #expect(try store.promote(from: ChannelName("beta"), to: .production, expectedVersion: nil, time: fixedTime).moved == false)
        #expect(try store.history(of: .production).map(\.number) == [1, 2])
        #expect(try store.channels().map(\.name) == ["beta", "production"])
        #expect(throws: StoreError.unknownChannel("staging")) {
            try store.promote(from: ChannelName("staging"), to: .production, expectedVersion: nil, time: fixedTime)
        }
        // Promotion creates no version; the engine computes resets between any two versions.
        #expect(try store.versions().count == 2)
        let resets = try store.resets(from: store.requireVersion(1), to: store.requireVersion(2))
        #expect(resets == [])  // RotateMapTip keeps its state (policy keep)
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

    @Test func diffReadsOnlyWhatChangedAndReportsTranslationsPerLocale() throws {
        let scratch = try TemporaryDirectory()
        let catalogPath = try scratch.sampleCatalog()
        let store = try SQLiteCatalogStore(path: scratch.file("store.sqlite"), mode: .readWrite)
        let v1 = try store.publish(publishRequest(loadCatalog(catalogPath))).record
        try scratch.edit("Catalog/Localizable.xcstrings", replacing: "Die Expositionsbewertung zeigt", with: "Die Bewertung zeigt")
        try scratch.edit("Catalog/catalog.json", replacing: "\"immediate\"", with: "\"daily\"")
        try scratch.edit("Catalog/tips/RotateMapTip.json", replacing: "hand.tap", with: "map")
        let outcome = try store.publish(publishRequest(loadCatalog(catalogPath)))
        let diff = try store.diff(from: v1, to: outcome.record)
        #expect(diff.changes.contains(CatalogChange(
            .changed, .settings, subject: "", field: "displayFrequency", old: #""immediate""#, new: #""daily""#)))
        let translation = try #require(diff.changes.first { $0.area == .translation })
        #expect(translation.subject == "ExposureRatingTip.message" && translation.locale == "de")
        #expect(translation.old?.hasPrefix("\"Die Expositionsbewertung zeigt") == true)
        #expect(translation.new?.hasPrefix("\"Die Bewertung zeigt") == true)
        #expect(diff.changes.contains { $0.area == .tip && $0.subject == "RotateMapTip" && $0.kind == .changed })
        #expect(diff.changedTips == ["ExposureRatingTip", "RotateMapTip"] || diff.changedTips.count == 2)
        #expect(outcome.record.message.contains("settings: displayFrequency"))
        #expect(outcome.record.message.contains("1 translation change (de)"))
        // Backwards: the mirror image.
        let back = try store.diff(from: outcome.record, to: v1)
        #expect(back.changes.count == diff.changes.count)
    }
}

@Suite struct TreeShapeTests {
    /// Growing past a leaf's capacity splits it; diff still finds exactly what changed, both ways.
    @Test func diffAcrossALeafSplit() throws {
        let scratch = try TemporaryDirectory()
        let catalog = scratch.file("Catalog")
        let store = try SQLiteCatalogStore(path: scratch.file("store.sqlite"), mode: .readWrite)
        try writeGeneratedCatalog(at: catalog, tips: 30)
        let small = try store.publish(publishRequest(loadCatalog(catalog))).record
        try writeGeneratedCatalog(at: catalog, tips: 45)
        let large = try store.publish(publishRequest(loadCatalog(catalog))).record
        let forward = try store.diff(from: small, to: large)
        let added = forward.changes.filter { $0.area == .tip && $0.kind == .added }.map(\.subject)
        #expect(added.sorted() == (30..<45).map { "Tip\($0)" }.sorted())
        #expect(forward.changes.filter { $0.area == .translation }.count == 15)
        #expect(forward.changes.count == 30)
        #expect(large.tipsChanged == 15)
        let backward = try store.diff(from: large, to: small)
        #expect(backward.changes.filter { $0.area == .tip && $0.kind == .removed }.count == 15)
        #expect(backward.changes.count == 30)
        #expect(try store.verify(large) > 45)
    }

    /// A device that skips versions still learns every tip to reset (content changed, policy reset).
    @Test func resetsAcrossSkippedVersions() throws {
        let scratch = try TemporaryDirectory()
        let catalog = scratch.file("Catalog")
        let store = try SQLiteCatalogStore(path: scratch.file("store.sqlite"), mode: .readWrite)
        try writeGeneratedCatalog(at: catalog, tips: 6)  // odd tips have policy reset
        let v1 = try store.publish(publishRequest(loadCatalog(catalog))).record
        try scratch.edit("Catalog/tips/Tip1.json", replacing: "Title 1", with: "Title one")
        try scratch.edit("Catalog/tips/Tip2.json", replacing: "Title 2", with: "Title two")
        let v2 = try store.publish(publishRequest(loadCatalog(catalog))).record
        try scratch.edit("Catalog/tips/Tip3.json", replacing: "Title 3", with: "Title three")
        let v3 = try store.publish(publishRequest(loadCatalog(catalog))).record
        #expect(try store.resets(of: v2.number) == ["Tip1"])
        #expect(try store.resets(of: v3.number) == ["Tip3"])
        #expect(try store.resets(from: v1, to: v3) == ["Tip1", "Tip3"])
        // Translation edits are not content changes for republishing.
        try scratch.edit("Catalog/Localizable.xcstrings", replacing: "Titre 5", with: "Titre cinq")
        let v4 = try store.publish(publishRequest(loadCatalog(catalog))).record
        #expect(try store.resets(of: v4.number) == [])
        #expect(v4.tipsChanged == 1)
    }
}
