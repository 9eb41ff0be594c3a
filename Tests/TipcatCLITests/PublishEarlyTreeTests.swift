import Foundation
import Testing
import TipcatCatalog
import TipcatCodec
import TipcatCore
import TipcatTestSupport
@testable import TipcatCLI

/// `publish` makes its content tree while the catalog is checked when the owners memo knows all but
/// max(256, 1/16) of the tips (a publish after a small edit), and otherwise in the write transaction, storing each
/// tip's objects as they are made, so that a first publish or one after a translation edit never holds every
/// object in memory.
@Suite struct PublishEarlyTreeTests {
    /// What `publish` would make beside the checks for `catalog`, with the cache `store` keeps beside it.
    static func earlyTree(catalog: String, store: String) -> PublishCommand.EarlyTree {
        let cache = StringsCacheDirectory(directory: store + "-cache", build: StoreAccess.buildIdentity, writesWhenAsked: true)
        let records = BackgroundValue { cache.ownerRecords(for: catalog) }
        let early = BackgroundResult<PublishCommand.EarlyTree>()
        var loader = CatalogLoader()
        loader.stringsCache = cache
        loader.whenDecoded = PublishCommand.makeTreeEarly(into: early, records: records, cache: cache)
        _ = loader.load(directory: catalog)
        return early.wait()
    }

    @Test func theTreeIsMadeBesideTheChecksOnlyWhenTheMemoKnowsNearlyEveryTip() throws {
        let scratch = try TemporaryDirectory()
        let catalog = scratch.file("Generated")
        try writeGeneratedCatalog(at: catalog, tips: 300)
        let store = scratch.file("kept.sqlite")
        func publish() {
            let result = tipcat(["publish", "--catalog", catalog, "--store", store, "--author", "Ada"], environment: ["TIPCAT_NOW": "2026-03-01T09:30:00Z"])
            #expect(result.status == .success, "\(result.stderr)")
        }
        // No memo yet: 300 tips unknown, past 256.
        let first = Self.earlyTree(catalog: catalog, store: store)
        #expect(first.memo != nil && first.tree == nil && first.encodedMemo == nil)
        publish()
        // One tip edited: the memo knows 299 of 300; the tree and the next memo's file are made.
        try scratch.edit("Generated/tips/Tip7.json", replacing: "\"title\": \"", with: "\"title\": \"Edited: ")
        let small = Self.earlyTree(catalog: catalog, store: store)
        #expect(small.tree != nil && small.encodedMemo != nil)
        #expect(small.tree?.memo?.records.count == 300)
        publish()
        // Every translation edited: every tip's memo key changes.
        try writeGeneratedCatalog(at: catalog, tips: 300, translationVariant: " (2)", onlyTranslations: true)
        let translations = Self.earlyTree(catalog: catalog, store: store)
        #expect(translations.memo != nil && translations.tree == nil)
        // The memo that publish (tree made in the transaction) writes serves the next small edit.
        publish()
        try scratch.edit("Generated/tips/Tip8.json", replacing: "\"title\": \"", with: "\"title\": \"Edited: ")
        #expect(Self.earlyTree(catalog: catalog, store: store).tree != nil)
    }
}
