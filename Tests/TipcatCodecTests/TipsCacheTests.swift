import Foundation
import Testing
import TipcatCatalog
import TipcatCore
import TipcatTestSupport
@testable import TipcatCodec

/// The tip files' half of the publish cache (`StringsDecodingCache.tipDecodings`, `TipsCacheFile`): a tip file
/// whose bytes were decoded before, under the same declarations and tip IDs, is neither parsed nor decoded again;
/// loads through it equal loads without it after every kind of edit; damaged files are never trusted.
@Suite struct TipsCacheTests {
    typealias Spy = StringsCacheTests.Spy

    /// The whole file `TipsCacheFile.encode` writes a piece at a time.
    static func encoded(
        _ decodings: TipDecodings, context: [UInt8], reusing: @Sendable (String, TipDecoding) -> UnsafeRawBufferPointer? = { _, _ in nil }
    ) throws -> [UInt8] {
        var payload: [UInt8] = []
        let header = try #require(TipsCacheFile.encode(decodings, context: context, reusing: reusing) { piece in
            payload += piece
            return true
        })
        #expect(header.count == TipsCacheFile.headerLength)
        return header + payload
    }

    /// A tip with every field set, platforms and a nested example included.
    static let everyField = """
        {
          "id": "EveryFieldTip",
          "customID": "every-{trail.name}",
          "title": "Hike {trail.name}",
          "message": "{count, plural, one {# trail} other {# trails}} in {trail.region}",
          "image": "figure.hiking",
          "actions": [{"id": "open", "title": "Open {trail.name}"}, {"id": "later", "title": "Later"}],
          "parameters": {"trail": {"name": "string", "region": "string?", "tags": "set<string>", "stops": "list<int>"},
                         "count": "int", "since": "date?", "rating": "double"},
          "rules": ["$count > 2", "#trailViewed.donations.count >= 1"],
          "options": {"maxDisplayCount": 3, "maxDisplayDuration": "90s", "ignoresDisplayFrequency": true},
          "republish": "reset",
          "comment": "Every field, for the cache's round trip.",
          "example": {"trail": {"name": "Ridge", "region": "North", "tags": ["a", "b"], "stops": [1, 2]}, "count": 3,
                      "since": "2026-01-02T03:04:05Z", "rating": 4.5},
          "platforms": {"mac": {"title": "Hike {trail.name} on your Mac", "actions": []},
                        "watch": {"message": "On your wrist", "image": "applewatch"}}
        }
        """

    @Test func aFileRoundTripsEveryFieldAndFinding() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        try directory.write("Catalog/tips/EveryFieldTip.json", Self.everyField)
        // A tip with findings (an unknown key, a placeholder it does not declare) and one that does not decode.
        try directory.write("Catalog/tips/FindingsTip.json", #"{"id": "FindingsTip", "title": "Hi {nobody}", "colour": 1}"#)
        try directory.write("Catalog/tips/NoTitleTip.json", #"{"id": "NoTitleTip"}"#)
        let cache = Spy(directory.file("cache"))
        let loaded = StringsCacheTests.load(catalog, cache: cache)
        let tip = try #require(loaded.catalog.tips.first { $0.id == "EveryFieldTip" })
        #expect(tip.platforms.count == 2 && tip.example != nil && tip.customID != nil && tip.republish == .reset)
        #expect(loaded.diagnostics.contains { $0.location?.file.hasSuffix("FindingsTip.json") == true })

        let decodings = try #require(cache.inner.tipDecodings(ofCatalog: catalog, context: try StringsCacheTests.context(catalog, cache.inner)))
        #expect(decodings.byPath.count == loaded.catalog.tips.count + 1, "every tip file that parses, NoTitleTip's included")
        #expect(decodings.byPath[catalog + "/tips/NoTitleTip.json"]?.tip == nil)
        #expect(decodings.byPath[catalog + "/tips/EveryFieldTip.json"]?.tip == tip)
        let bytes = try Self.encoded(decodings, context: Array(repeating: 7, count: 32))
        let decoded = try #require(TipsCacheFile.decode(FileBytes(copying: bytes), context: Array(repeating: 7, count: 32)))
        #expect(decoded.decodings == decodings)
        // Equal decodings give equal bytes, and records reused from a file give the same file.
        #expect(try Self.encoded(decoded.decodings, context: Array(repeating: 7, count: 32)) == bytes)
        let source = FileBytes(copying: bytes)
        let reused = try Self.encoded(decoded.decodings, context: Array(repeating: 7, count: 32)) { path, _ in
            decoded.records[path].map { UnsafeRawBufferPointer(rebasing: source.buffer[$0]) }
        }
        #expect(reused == bytes)
        #expect(TipsCacheFile.decode(FileBytes(copying: bytes), context: Array(repeating: 8, count: 32)) == nil, "another context")
    }

    @Test func loadsThroughTheCacheEqualLoadsWithoutItAfterEveryKindOfEdit() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        try directory.write("Catalog/tips/EveryFieldTip.json", Self.everyField)
        let cache = Spy(directory.file("cache"))
        StringsCacheTests.expectSame(catalog, cache, "cold")
        #expect(cache.now.tipHits == 0 && cache.now.tipKeeps == 1)
        cache.reset()
        StringsCacheTests.expectSame(catalog, cache, "warm")
        #expect(cache.now.tipHits == 1 && cache.now.tipKeeps == 0, "a warm load keeps nothing new")

        let edits: [(String, () throws -> Void)] = [
            ("a title edited", { try directory.edit("Catalog/tips/NewTrailTip.json", replacing: "\"title\": \"", with: "\"title\": \"Edited: ") }),
            ("a rule broken", { try directory.edit("Catalog/tips/ComboTip.json", replacing: "\"rules\": [", with: "\"rules\": [\"$nothing >\", ") }),
            ("a file made invalid JSON", { try directory.write("Catalog/tips/HighlightTip.json", "{\"id\": \"HighlightTip\", ") }),
            ("a file made valid again", {
                try directory.write("Catalog/tips/HighlightTip.json", try String(contentsOfFile: sampleCatalogPath + "/tips/HighlightTip.json", encoding: .utf8))
            }),
            ("a title removed", { try directory.write("Catalog/tips/InlineTip.json", #"{"id": "InlineTip"}"#) }),
            ("a tip removed", { try FileManager.default.removeItem(atPath: directory.file("Catalog/tips/OptionTip.json")) }),
            ("a tip added", { try directory.write("Catalog/tips/AddedTip.json", #"{"id": "AddedTip", "title": "New"}"#) }),
            ("a tip's id changed", { try directory.edit("Catalog/tips/AddedTip.json", replacing: "\"AddedTip\"", with: "\"RenamedTip\"") }),
            // ComboTip's rule names `tip(InlineTip)`: its file is unchanged, its findings are not.
            ("an id another tip's rule names changed", { try directory.edit("Catalog/tips/InlineTip.json", replacing: "\"InlineTip\"", with: "\"Inline2\"") }),
            ("two tips with one id", { try directory.write("Catalog/tips/Twin.json", #"{"id": "RenamedTip", "title": "Twin"}"#) }),
            ("a parameter declaration changed", {
                let path = directory.file("Catalog/parameters.json")
                let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "{}"
                try directory.write("Catalog/parameters.json", text.replacingOccurrences(of: "\"bool\"", with: "\"int\""))
            }),
            ("the source language changed", {
                try directory.edit("Catalog/catalog.json", replacing: "\"sourceLanguage\": \"en\"", with: "\"sourceLanguage\": \"de\"")
            }),
        ]
        for (what, edit) in edits {
            try edit()
            cache.reset()
            StringsCacheTests.expectSame(catalog, cache, what)
            #expect(cache.now.tipKeeps == 1, "\(what): kept")
            cache.reset()
            StringsCacheTests.expectSame(catalog, cache, what + ", warm")
            #expect(cache.now.tipHits == 1 && cache.now.tipKeeps == 0, "\(what), warm: nothing decoded again")
        }
    }

    @Test func aKeptTipIsUsedForTheSameBytesOnlyAndNotParsedAgain() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let cache = Spy(directory.file("cache"))
        _ = StringsCacheTests.load(catalog, cache: cache)
        let context = try StringsCacheTests.context(catalog, cache.inner)
        var decodings = try #require(cache.inner.tipDecodings(ofCatalog: catalog, context: context))
        // Planted: a decoding whose title differs from the file's. Kept for the file's bytes, it is what loads
        // (the file is not decoded again); once the file changes, the file's own title is back.
        let path = catalog + "/tips/HighlightTip.json"
        var planted = try #require(decodings.byPath[path])
        planted.tip?.title.source = "Planted title"
        decodings.byPath[path] = planted
        // (Written by another instance: the one that read the file would reuse its record for the same bytes.)
        StringsCacheDirectory(directory: directory.file("cache"), build: Array("test build".utf8)).keep(decodings, ofCatalog: catalog, context: context)
        let loaded = StringsCacheTests.load(catalog, cache: cache)
        #expect(loaded.catalog.tips.first { $0.id == "HighlightTip" }?.title.source == "Planted title")

        try directory.edit("Catalog/tips/HighlightTip.json", replacing: "\"title\": \"", with: "\"title\": \"Now: ")
        let edited = StringsCacheTests.load(catalog, cache: cache)
        #expect(edited.catalog.tips.first { $0.id == "HighlightTip" }?.title.source.hasPrefix("Now: ") == true)
    }

    @Test func damagedTipsFilesAreNeverTrusted() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let cache = Spy(directory.file("cache"))
        _ = StringsCacheTests.load(catalog, cache: cache)
        let file = cache.inner.tipsFile(for: catalog)
        let good = try Data(contentsOf: URL(fileURLWithPath: file))
        for (what, bytes) in StringsCacheTests.damages(of: good, flipping: 0x10, at: [0, 9, 14, 50, 70, 80, good.count / 3, good.count / 2, good.count - 1]) {
            try bytes.write(to: URL(fileURLWithPath: file))
            cache.reset()
            StringsCacheTests.expectSame(catalog, cache, what)
            #expect(cache.now.tipHits == 0 && cache.now.tipKeeps == 1, "\(what): decoded and kept again")
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == good, "\(what): rewritten")
        }
    }

    @Test func editsGoToADeltaThatLoadsAsAColdLoadDecodesAndANewTipRewritesTheFile() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let cache = Spy(directory.file("cache"))
        _ = StringsCacheTests.load(catalog, cache: cache)
        let main = cache.inner.tipsFile(for: catalog)
        let mainBytes = try Data(contentsOf: URL(fileURLWithPath: main))
        let context = try StringsCacheTests.context(catalog, cache.inner)
        /// What a cache written from scratch holds for the catalog as it is now.
        func cold() throws -> TipDecodings? {
            let fresh = try StringsCacheTests.spy(at: directory.file("cold-\(UUID().uuidString)"), sharingKeysWith: cache)
            _ = StringsCacheTests.load(catalog, cache: fresh)
            return fresh.inner.tipDecodings(ofCatalog: catalog, context: context)
        }

        try directory.edit("Catalog/tips/NewTrailTip.json", replacing: "\"title\": \"", with: "\"title\": \"Edited: ")
        StringsCacheTests.expectSame(catalog, cache, "one tip edited")
        #expect(try Data(contentsOf: URL(fileURLWithPath: main)) == mainBytes, "the main file is left as it was")
        #expect(FileManager.default.fileExists(atPath: main + ".delta"))
        #expect(cache.inner.tipDecodings(ofCatalog: catalog, context: context) == (try cold()))

        // A second edit: the delta holds both; a damaged delta is ignored (those files are decoded again).
        try directory.edit("Catalog/tips/HighlightTip.json", replacing: "\"title\": \"", with: "\"title\": \"Now: ")
        StringsCacheTests.expectSame(catalog, cache, "a second tip edited")
        #expect(cache.inner.tipDecodings(ofCatalog: catalog, context: context) == (try cold()))
        let delta = try Data(contentsOf: URL(fileURLWithPath: main + ".delta"))
        for (what, bytes) in StringsCacheTests.damages(of: delta, flipping: 0x04, at: [0, 10, 30, 70, delta.count / 2, delta.count - 1]) {
            try bytes.write(to: URL(fileURLWithPath: main + ".delta"))
            StringsCacheTests.expectSame(catalog, Spy(directory.file("cache")), "delta: " + what)
        }

        // A new tip changes the tip IDs: the main file is written again and the delta removed.
        try directory.write("Catalog/tips/AddedTip.json", #"{"id": "AddedTip", "title": "New"}"#)
        StringsCacheTests.expectSame(catalog, cache, "a tip added")
        #expect(try Data(contentsOf: URL(fileURLWithPath: main)) != mainBytes)
        #expect(!FileManager.default.fileExists(atPath: main + ".delta"))
        #expect(cache.inner.tipDecodings(ofCatalog: catalog, context: context) == (try cold()))
    }
}
