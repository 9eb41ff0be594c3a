import Testing
import TipcatCatalog
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
}
