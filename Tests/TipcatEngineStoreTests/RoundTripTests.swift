import Foundation
import Testing
import TipcatCatalog
import TipcatCodec
import TipcatCore
import TipcatEngine
import TipcatEngineBundle
import TipcatEngineStore
import TipcatTestSupport

/// publish → export → load, on what users have: the sample after `strings sync` (its reverse-DNS tip then has
/// String Catalog keys), and generated catalogs with dotted ids in every position (nested ids, ids that are another's
/// prefix, keys that name no tip).
@Suite struct RoundTripTests {
    /// Publishes `catalog`, exports it as a bundle and as a static directory, and loads both as an app does.
    static func publishExportLoad(_ catalog: String, in scratch: TemporaryDirectory) throws -> EngineBundle {
        let store = scratch.file("store.sqlite")
        let published = tipcat(["publish", "--catalog", catalog, "--store", store, "--author", "Test"])
        try #require(published.status == .success, "\(published.stderr)")
        let path = scratch.file("b.json")
        let exported = tipcat(["export", "--store", store, "-o", path])
        try #require(exported.status == .success, "\(exported.stderr)")
        let directory = scratch.file("public")
        let statics = tipcat(["export", "--store", store, "--static", directory])
        try #require(statics.status == .success, "\(statics.stderr)")
        let bundle = try EngineBundle(contentsOf: path)
        let fromDirectory = try EngineBundle(exportDirectory: directory)
        #expect(fromDirectory.revision == bundle.revision)
        let next = tipcat(["engine", "next", "--bundle", path, "--state", scratch.file("state.sqlite"), "--now", "2026-01-05T20:00:00Z"])
        #expect(next.status == .success, "\(next.stderr)")
        return bundle
    }

    @Test func theSampleAfterStringsSyncLoadsFromItsExports() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let sync = tipcat(["strings", "sync", "--catalog", catalog])
        try #require(sync.status == .success, "\(sync.stderr)")
        let xcstrings = try String(contentsOfFile: catalog + "/Localizable.xcstrings", encoding: .utf8)
        try #require(xcstrings.contains("\"com.example.trails.plan-tomorrow.title\""))
        let bundle = try Self.publishExportLoad(catalog, in: scratch)
        let tip = try #require(bundle.catalog.tips.first { $0.id.rawValue == "com.example.trails.plan-tomorrow" })
        #expect(tip.title.source == "Plan tomorrow's hike")
        #expect(bundle.catalog.localizations.entries["com.example.trails.plan-tomorrow.title"] != nil)
        // The tip's translations belong to its revision: its hash differs from the tip alone.
        #expect(bundle.revision.contentHashes[TipID("com.example.trails.plan-tomorrow")] != nil)
    }

    /// Reverse-DNS ids in every position: nested (`com.a`, `com.a.b`), sharing a first part with a key that names
    /// no tip, and keys of both; after `strings sync`, publish, export and load.
    @Test func dottedIdsInEveryPositionLoadFromTheirExports() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let ids = ["com", "com.example", "com.example.app", "com.example.app.onboarding-share", "org.x.y", "a.b.c.d.e", "Tip.action"]
        for id in ids {
            try scratch.write("Catalog/tips/\(id).json", """
                {"id": "\(id)", "title": "Title of \(id)", "message": "Message of \(id).", \
                "actions": [{"id": "open", "title": "Open \(id)"}]}
                """)
        }
        let sync = tipcat(["strings", "sync", "--catalog", catalog])
        try #require(sync.status == .success, "\(sync.stderr)")
        let bundle = try Self.publishExportLoad(catalog, in: scratch)
        for id in ids {
            #expect(bundle.catalog.localizations.entries["\(id).title"] != nil, "\(id)")
            #expect(bundle.catalog.localizations.entries["\(id).action.open.title"] != nil || bundle.catalog.localizations.entries["\(id).action.open"] != nil, "\(id)")
        }
    }

    /// In process, over random sets of dotted ids and keys (some naming no tip): the tree publish builds from the
    /// catalog and the one a bundle's document is checked against have the same root.
    @Test func theContentHashOfACatalogIsTheHashOfItsDocument() throws {
        var random = SeededGenerator(seed: 0x45_01)
        let parts = ["com", "example", "a", "b", "Tip", "title", "action", "x-y"]
        for round in 0..<40 {
            var ids = Set<String>()
            for _ in 0..<(1 + Int(random.next() % 6)) {
                let count = 1 + Int(random.next() % 4)
                ids.insert((0..<count).map { _ in parts[Int(random.next() % UInt64(parts.count))] }.joined(separator: "."))
            }
            var tips = ids.sorted().map { "{\"id\": \"\($0)\", \"title\": \"T \($0)\", \"message\": \"M.\"}" }
            _ = tips.count
            let scratch = try TemporaryDirectory()
            let catalog = try minimalCatalog(in: scratch)
            for (index, id) in ids.sorted().enumerated() {
                try scratch.write("Catalog/tips/\(id).json", tips[index])
            }
            tips.removeAll()
            // Keys the tips own, and keys of no tip that share their first parts.
            var strings = ["\"A.title\": {\"localizations\": {}}"]
            for id in ids.sorted() {
                strings.append("\"\(id).title\": {\"localizations\": {\"fr\": {\"stringUnit\": {\"state\": \"translated\", \"value\": \"F \(id)\"}}}}")
            }
            strings.append("\"com.orphan.\(round)\": {\"localizations\": {}}")
            try scratch.write("Catalog/Localizable.xcstrings", """
                {"sourceLanguage": "en", "version": "1.0", "strings": {\(strings.joined(separator: ", "))}}
                """)
            let loaded = loadCatalog(catalog)
            let pieces = try CatalogPieces(document: CatalogCodec.encode(loaded))
            #expect(ContentTree(pieces: pieces).root == ContentTree(catalog: loaded).root, "\(ids.sorted())")
            for id in ids {
                #expect(CatalogPieces.owner(ofKey: "\(id).title", tipIDs: ids) == id)
            }
        }
    }

    @Test func aKeyBelongsToTheLongestTipIdItContinues() {
        let ids: Set<String> = ["com", "com.example.app", "NewTrailTip"]
        #expect(CatalogPieces.owner(ofKey: "com.example.app.title", tipIDs: ids) == "com.example.app")
        #expect(CatalogPieces.owner(ofKey: "com.example.app.action.open.title", tipIDs: ids) == "com.example.app")
        #expect(CatalogPieces.owner(ofKey: "com.example.title", tipIDs: ids) == "com")
        #expect(CatalogPieces.owner(ofKey: "NewTrailTip.title", tipIDs: ids) == "NewTrailTip")
        #expect(CatalogPieces.owner(ofKey: "Legacy.banner", tipIDs: ids) == "Legacy")
        #expect(CatalogPieces.owner(ofKey: "plain", tipIDs: ids) == "plain")
        #expect(CatalogPieces.owner(ofKey: "org.x.title", tipIDs: []) == "org")
    }
}
