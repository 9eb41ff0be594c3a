import Foundation
import Synchronization
import Testing
import TipcatCatalog
import TipcatCore
import TipcatCodec
@testable import TipcatStore
import TipcatTestSupport

/// What every `CatalogStore` backend must do, run against each of them (`StoreBackend.allCases`): a new backend
/// passes by adding a case to `StoreBackend`.
@Suite struct StoreConformanceTests {
    /// Reading many objects at once (a network backend batches them) gives what reading them one by one gives:
    /// duplicates once, missing objects left out; and a whole version read that way matches its content hash.
    @Test(arguments: StoreBackend.allCases) func bulkReadsMatchSingleReads(backend: StoreBackend) throws {
        let scratch = try TemporaryDirectory()
        let catalogPath = try scratch.sampleCatalog()
        guard let store = try backend.newStore(in: scratch) else { return }
        let tree = ContentTree(catalog: loadCatalog(catalogPath))
        let published = try store.publish(publishRequest(loadCatalog(catalogPath)))
        let digests = Array(tree.objects.keys)
        let missing = SHA256.hash(Array("not stored".utf8))
        let bulk = try store.bytes(of: digests + [missing] + digests.prefix(3))
        #expect(bulk.count == digests.count)
        #expect(bulk[missing] == nil)
        for digest in digests { #expect(bulk[digest] == (try store.bytes(of: digest))) }
        #expect(try store.pieces(of: published.record) == TreeReader(tree).pieces(tree.root))
    }

    /// A tree the publish makes in its transaction, storing each tip's objects as they are made, publishes what a
    /// tree made beforehand does: the same version, the same objects stored; unchanged content is unchanged; a
    /// publish refused for its expected version makes nothing.
    @Test(arguments: StoreBackend.allCases) func aTreeMadeInThePublishPublishesTheSameVersion(backend: StoreBackend) throws {
        let scratch = try TemporaryDirectory()
        let catalogPath = try scratch.sampleCatalog()
        // The second store's directory lives as long as the test (a new store writes its journal there).
        let givenScratch = try TemporaryDirectory()
        guard let madeStore = try backend.newStore(in: scratch), let givenStore = try backend.newStore(in: givenScratch) else { return }
        let catalog = loadCatalog(catalogPath)
        let makes = Mutex(0)
        func request(_ catalog: Catalog, expect: Int? = nil) throws -> PublishRequest {
            PublishRequest(
                channel: try ChannelName("production"),
                content: .made { store in
                    makes.withLock { $0 += 1 }
                    return try ContentTree(catalog: catalog, storing: store)
                },
                author: "tester", time: fixedTime, tipcatVersion: "test", expectedVersion: expect)
        }
        #expect(throws: StoreError.versionMismatch(channel: "production", actual: nil, expected: 2)) {
            try madeStore.publish(request(catalog, expect: 2))
        }
        #expect(makes.withLock { $0 } == 0, "refused before anything was made")
        let made = try madeStore.publish(request(catalog))
        let given = try givenStore.publish(publishRequest(catalog))
        #expect(made.record.contentHash == given.record.contentHash && made.record.message == given.record.message)
        #expect(made.diff == given.diff)
        let digests = Array(ContentTree(catalog: catalog).objects.keys)
        #expect(try madeStore.bytes(of: digests) == givenStore.bytes(of: digests))
        #expect(try madeStore.bytes(of: digests).count == digests.count)
        try checkIntegrity(madeStore)
        #expect(try madeStore.publish(request(catalog)).isUnchanged)
        // An edit: the next version holds the edited tip's new objects, as a tree made beforehand does.
        try scratch.edit("Catalog/tips/RotateMapTip.json", replacing: "\"title\": \"", with: "\"title\": \"Now: ")
        let edited = loadCatalog(catalogPath)
        let madeEdit = try madeStore.publish(request(edited))
        let givenEdit = try givenStore.publish(publishRequest(edited))
        #expect(madeEdit.record.contentHash == givenEdit.record.contentHash && madeEdit.diff == givenEdit.diff)
        #expect(try TreeReader(madeStore).verify(madeEdit.record.contentHash) == TreeReader(givenStore).verify(givenEdit.record.contentHash))
    }

    @Test(arguments: StoreBackend.allCases) func publishEditRollbackAndHistory(backend: StoreBackend) throws {
        let scratch = try TemporaryDirectory()
        let catalogPath = try scratch.sampleCatalog()
        guard let store = try backend.newStore(in: scratch) else { return }

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
        try checkIntegrity(store)

        // The store's catalog is the model the engine reads.
        let (head, catalog) = try store.catalog(channel: .production)
        #expect(head.number == 3)
        #expect(catalog.tip("NewTrailTip")?.message?.source == "To see key trail info, tap {trail.region} on the map.")
        #expect(catalog.tip("NewTrailTip")?.message?.message != nil)
    }

    @Test(arguments: StoreBackend.allCases) func expectVersionGuardsAndForceOverrides(backend: StoreBackend) throws {
        let scratch = try TemporaryDirectory()
        let catalogPath = try scratch.sampleCatalog()
        guard let store = try backend.newStore(in: scratch) else { return }
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

    @Test(arguments: StoreBackend.allCases) func channelsPromoteWithCompareAndSwap(backend: StoreBackend) throws {
        let scratch = try TemporaryDirectory()
        let catalogPath = try scratch.sampleCatalog()
        guard let store = try backend.newStore(in: scratch) else { return }
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

    @Test(arguments: StoreBackend.allCases) func diffReadsOnlyWhatChangedAndReportsTranslationsPerLocale(backend: StoreBackend) throws {
        let scratch = try TemporaryDirectory()
        let catalogPath = try scratch.sampleCatalog()
        guard let store = try backend.newStore(in: scratch) else { return }
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

    /// Growing past a leaf's capacity splits it; diff still finds exactly what changed, both ways.
    @Test(arguments: StoreBackend.allCases) func diffAcrossALeafSplit(backend: StoreBackend) throws {
        let scratch = try TemporaryDirectory()
        let catalog = scratch.file("Catalog")
        guard let store = try backend.newStore(in: scratch) else { return }
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
    @Test(arguments: StoreBackend.allCases) func resetsAcrossSkippedVersions(backend: StoreBackend) throws {
        let scratch = try TemporaryDirectory()
        let catalog = scratch.file("Catalog")
        guard let store = try backend.newStore(in: scratch) else { return }
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
