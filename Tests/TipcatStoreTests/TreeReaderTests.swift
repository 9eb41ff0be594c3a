import Synchronization
import Testing
import TipcatCatalog
import TipcatCore
@testable import TipcatCodec
import TipcatLocalization
import TipcatStore
import TipcatTestSupport

/// Reading a content tree back through `TreeReader` (the store's object reader).
@Suite struct TreeReaderTests {
    /// Translations of keys no tip names (orphans) are kept, with the tip they share a prefix with or alone.
    @Test func orphanTranslationsAreStoredAndRoundTrip() throws {
        var catalog = loadCatalog(sampleCatalogPath)
        let message = try Message.parse("Extra")
        let translation = Translation(content: .message(message), state: .translated)
        catalog.localizations.entries["NewTrailTip.extra"] = .init(translations: [LocaleID.english: translation])
        catalog.localizations.entries["Nobody.title"] = .init(comment: "orphan", translations: [LocaleID.english: translation])
        #expect(ContentTree.ownersByTipKeys(catalog) == nil)
        let tree = ContentTree(catalog: catalog)
        let pieces = try TreeReader(tree).pieces(tree.root)
        #expect(pieces.owners["Nobody"]?.tip == nil)
        #expect(pieces.owners["Nobody"]?.strings != nil)
        let decoded = try CatalogCodec.decode(pieces, origin: "x")
        #expect(decoded.localizations.entries["NewTrailTip.extra"]?.translations[.english]?.content == .message(message))
        #expect(decoded.localizations.entries["Nobody.title"]?.comment == "orphan")
        #expect(decoded.localizations.entries.count == catalog.localizations.entries.count)
        #expect(ContentTree(catalog: decoded).root == tree.root)
        // And the document form agrees.
        #expect(ContentTree(pieces: try CatalogPieces(document: CatalogCodec.encode(catalog))).root == tree.root)
    }

    /// A layered source asks each layer once for a batch of objects, for those the layers before it lacked, with the
    /// layer's own batch read (a PostgreSQL store's is a few queries; one a digest cost a round trip each).
    @Test func layersAreAskedOnceABatchForWhatTheLayersBeforeLacked() throws {
        let tree = ContentTree(catalog: loadCatalog(sampleCatalogPath))
        let all = Array(tree.objects.keys)
        let (front, back) = (all.prefix(all.count / 2), all.suffix(from: all.count / 2))
        let first = CountingSource(objects: tree.objects.filter { front.contains($0.key) }.mapValues(\.bytes))
        let second = CountingSource(objects: tree.objects.filter { back.contains($0.key) }.mapValues(\.bytes))
        let unknown = SHA256.hash(Array("no such object".utf8))
        let found = try LayeredObjectSource([first, second]).bytes(of: all + [unknown])
        #expect(found.count == all.count && found[unknown] == nil)
        #expect(all.allSatisfy { found[$0] == tree.objects[$0]?.bytes })
        #expect(first.batches.withLock { $0 } == [all.count + 1] && second.batches.withLock { $0 } == [back.count + 1])
        #expect(first.singles.withLock { $0 } == 0 && second.singles.withLock { $0 } == 0)
        #expect(try LayeredObjectSource([first, second]).bytes(of: back.first.map { [$0] } ?? [])[back.first ?? unknown] != nil)
    }
}

/// Objects in memory, counting how they are asked for.
private final class CountingSource: ObjectSource, Sendable {
    let objects: [SHA256Digest: [UInt8]]
    let batches = Mutex<[Int]>([])
    let singles = Mutex(0)

    init(objects: [SHA256Digest: [UInt8]]) {
        self.objects = objects
    }

    func bytes(of digest: SHA256Digest) throws(StoreError) -> [UInt8]? {
        singles.withLock { $0 += 1 }
        return objects[digest]
    }

    func bytes(of digests: [SHA256Digest]) throws(StoreError) -> [SHA256Digest: [UInt8]] {
        batches.withLock { $0.append(digests.count) }
        return objects.filter { digests.contains($0.key) }
    }
}

/// A first version's diff — every tip added — from the outlines of a tree made from the catalog (`ObjectOutline`),
/// reading none of its tips' objects, as a first publish does: equal to the diff of the same objects read and
/// parsed, for the String Catalogs Xcode writes (plurals, device variations, substitutions, comments) and for
/// translations of no tip (owners grouped by key).
@Suite struct OutlinedDiffTests {
    static func catalogs() throws -> [(String, Catalog)] {
        var catalogs: [(String, Catalog)] = [("sample", loadCatalog(sampleCatalogPath))]
        for name in ["xcode-features", "plurals", "device-variations", "substitutions"] {
            let directory = try TemporaryDirectory()
            let catalog = try directory.sampleCatalog()
            try directory.write(
                "Catalog/Localizable.xcstrings",
                try String(contentsOfFile: repositoryRoot + "/Tests/Fixtures/xcstrings/" + name + ".xcstrings", encoding: .utf8))
            // Some fixtures hold findings on purpose (a translation in a locale the sample does not support…).
            catalogs.append((name, CatalogLoader().load(directory: catalog).catalog))
        }
        var orphans = loadCatalog(sampleCatalogPath)
        let translation = Translation(content: .message(try Message.parse("Extra {count}")), state: .needsReview)
        orphans.localizations.entries["NewTrailTip.extra"] = .init(translations: [LocaleID.english: translation])
        orphans.localizations.entries["Nobody.title"] = .init(comment: "orphan", translations: [LocaleID.english: translation])
        orphans.localizations.entries["Nobody.empty"] = .init(comment: "no translations", translations: [:])
        #expect(ContentTree.ownersByTipKeys(orphans) == nil)
        catalogs.append(("orphan keys", orphans))
        return catalogs
    }

    @Test func aFirstVersionsDiffFromTheOutlinesEqualsOneFromTheObjects() throws {
        for (name, catalog) in try Self.catalogs() {
            let tree = ContentTree(catalog: catalog)
            let kinds = tree.objects.mapValues(\.kind)
            let parsed = try CatalogDiff(from: nil, to: tree.root, reader: TreeReader(RecordingSource(tree.objects.mapValues(\.bytes))))
            #expect(parsed.changes.count > catalog.tips.count, "\(name)")

            // Outlines first, then the objects' bytes: no tip's object is read, nor a node or leaf of the tips tree.
            let bytes = RecordingSource(tree.objects.mapValues(\.bytes))
            let outlined = try CatalogDiff(from: nil, to: tree.root, reader: TreeReader(LayeredObjectSource([OutlinesOnly(tree), bytes])))
            #expect(outlined == parsed, "\(name)")
            #expect(outlined.summary == parsed.summary, "\(name)")
            let read = bytes.asked.withLock { $0 }
            #expect(!read.isEmpty && read.allSatisfy { ![.tip, .strings, .leaf, .node].contains(kinds[$0]) }, "\(name)")

            // The tree a publish makes in its transaction keeps no objects, only their outlines.
            var stored: [SHA256Digest: [UInt8]] = [:]
            let streamed = try ContentTree(catalog: catalog, memo: nil, batch: 3) { objects in
                for object in objects { stored[object.digest] = object.bytes }
            }
            #expect(streamed.root == tree.root)
            let fromStreamed = try CatalogDiff(from: nil, to: tree.root, reader: TreeReader(LayeredObjectSource([streamed, RecordingSource(stored)])))
            #expect(fromStreamed == parsed, "\(name)")
        }
    }

    /// A first publish's diff (outlined) equals the diff read back from the store afterwards.
    @Test func aFirstPublishsDiffEqualsTheStoresAfterwards() throws {
        for (name, catalog) in try Self.catalogs() {
            let scratch = try TemporaryDirectory()
            let store = try SQLiteCatalogStore(path: scratch.file("store.sqlite"), mode: .readWrite)
            let request = PublishRequest(
                channel: .production, content: .made { store in try ContentTree(catalog: catalog, storing: store) },
                author: "tester", time: fixedTime, tipcatVersion: "test")
            let outcome = try store.publish(request)
            let published = try #require(outcome.diff)
            #expect(published == (try store.diff(from: nil, to: outcome.record)), "\(name)")
            #expect(outcome.record.message == published.summary && published.summary.hasPrefix("initial version: "), "\(name)")
        }
    }
}

/// A source that has no object's bytes, only the outlines of a tree's.
private struct OutlinesOnly: ObjectSource {
    let tree: ContentTree
    init(_ tree: ContentTree) { self.tree = tree }
    func bytes(of digest: SHA256Digest) throws(StoreError) -> [UInt8]? { nil }
    func outline(of digest: SHA256Digest) -> ObjectOutline? { tree.outline(digest) }
}

/// Objects in memory, recording which were asked for.
private final class RecordingSource: ObjectSource, Sendable {
    let objects: [SHA256Digest: [UInt8]]
    let asked = Mutex<[SHA256Digest]>([])

    init(_ objects: [SHA256Digest: [UInt8]]) {
        self.objects = objects
    }

    func bytes(of digest: SHA256Digest) throws(StoreError) -> [UInt8]? {
        asked.withLock { $0.append(digest) }
        return objects[digest]
    }
}

/// Keys are owned one way whichever way the tree finds them: two tips that name one key (a dotted tip id such as
/// `NewTrailTip.action` and `NewTrailTip`'s action `title`) with another key that no tip names beside them.
@Suite struct SharedKeyTreeTests {
    @Test func aKeyTwoTipsNameAndAnOrphanKeyAreBothPublished() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.sampleCatalog()
        try directory.edit("Catalog/tips/NewTrailTip.json", replacing: "\"id\": \"go-there\"", with: "\"id\": \"title\"")
        try directory.write("Catalog/tips/NewTrailTip.action.json", """
            {"id": "NewTrailTip.action", "title": "Shadow"}
            """)
        var catalog = CatalogLoader().load(directory: path).catalog
        #expect(catalog.tips.contains { $0.id.rawValue == "NewTrailTip.action" })
        let translation = Translation(content: .message(try Message.parse("Hier")), state: .translated)
        catalog.localizations.entries["NewTrailTip.action.title"] = .init(translations: [LocaleID.english: translation])
        // `NewTrailTip.action.go-there` is now named by no tip.
        #expect(catalog.localizations.entries["NewTrailTip.action.go-there"] != nil)
        let tree = ContentTree(catalog: catalog)
        let decoded = try CatalogCodec.decode(try TreeReader(tree).pieces(tree.root), origin: "x")
        #expect(Set(decoded.localizations.entries.keys) == Set(catalog.localizations.entries.keys))
        var stored: [SHA256Digest: [UInt8]] = [:]
        let streamed = try ContentTree(catalog: catalog, memo: nil, batch: 4) { objects in
            for object in objects { stored[object.digest] = object.bytes }
        }
        #expect(streamed.root == tree.root)
    }
}
