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
