import Foundation
import Synchronization
import Testing
import TipcatCatalog
import TipcatCore
import TipcatLocalization
import TipcatTestSupport
@testable import TipcatCodec

/// The String Catalog cache (`CatalogLoader.stringsCache`, `StringsCacheDirectory`): a load through it — cold,
/// warm, after edits to tips, translations or settings, with damaged cache files — gives exactly the findings
/// and the catalog a load without it gives; and a warm load decodes again only the entries whose tip changed.
@Suite struct StringsCacheTests {
    /// Forwards to a cache directory and counts what it was asked.
    final class Spy: StringsDecodingCache {
        let inner: StringsCacheDirectory
        /// `unkept`: misses known without a fingerprint (no file for the String Catalog), counted in `misses` too.
        struct Counts { var hits = 0, misses = 0, unkept = 0, keeps = 0, changed: [Int]? = nil, tipHits = 0, tipKeeps = 0 }
        let counts = Mutex(Counts())

        init(_ directory: String) { inner = StringsCacheDirectory(directory: directory, build: Array("test build".utf8)) }

        func fingerprint(_ bytes: UnsafeRawBufferPointer) -> [UInt8] { inner.fingerprint(bytes) }
        func decoding(ofFile path: String, fingerprint: [UInt8], context: [UInt8]) -> StringsDecoding? {
            let kept = inner.decoding(ofFile: path, fingerprint: fingerprint, context: context)
            counts.withLock { kept == nil ? ($0.misses += 1) : ($0.hits += 1) }
            return kept
        }
        func mayHaveDecoding(ofFile path: String) -> Bool {
            let may = inner.mayHaveDecoding(ofFile: path)
            if !may {
                counts.withLock {
                    $0.misses += 1
                    $0.unkept += 1
                }
            }
            return may
        }
        func keep(_ decoding: StringsDecoding, ofFile path: String, fingerprint: [UInt8], context: [UInt8], changed: [Int: StringsDecoding.Entry]?) {
            counts.withLock {
                $0.keeps += 1
                $0.changed = changed.map { $0.keys.sorted() }
            }
            inner.keep(decoding, ofFile: path, fingerprint: fingerprint, context: context, changed: changed)
        }
        func tipDecodings(ofCatalog directory: String, context: [UInt8]) -> TipDecodings? {
            let kept = inner.tipDecodings(ofCatalog: directory, context: context)
            if kept != nil { counts.withLock { $0.tipHits += 1 } }
            return kept
        }
        func keep(_ decodings: TipDecodings, ofCatalog directory: String, context: [UInt8]) {
            counts.withLock { $0.tipKeeps += 1 }
            inner.keep(decodings, ofCatalog: directory, context: context)
        }
        func reset() { counts.withLock { $0 = Counts() } }
        var now: Counts { counts.withLock { $0 } }
    }

    /// A spy over a new cache directory at `path` with `cache`'s fingerprint keys (which it has written), so that
    /// the two fingerprint alike.
    static func spy(at path: String, sharingKeysWith cache: Spy) throws -> Spy {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: cache.inner.directory + "/fingerprint.key", toPath: path + "/fingerprint.key")
        return Spy(path)
    }

    /// Findings with their notes, one string each.
    static func lines(_ result: LoadResult) -> [String] {
        result.diagnostics.map { diagnostic in
            ([diagnostic.description] + diagnostic.notes.map { "  note: \($0.location.map(\.description) ?? "") \($0.message)" })
                .joined(separator: "\n")
        }
    }

    static func load(_ directory: String, cache: (any StringsDecodingCache)?) -> LoadResult {
        var loader = CatalogLoader()
        loader.stringsCache = cache
        return loader.load(directory: directory)
    }

    /// Loads `catalog` through `cache` and without one: the same findings and the same catalog.
    static func expectSame(_ catalog: String, _ cache: Spy, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let reference = load(catalog, cache: nil)
        let cached = load(catalog, cache: cache)
        #expect(lines(cached) == lines(reference), "\(what)", sourceLocation: sourceLocation)
        #expect(cached.catalog.localizations == reference.catalog.localizations, "\(what)", sourceLocation: sourceLocation)
        #expect(cached.catalog.tips == reference.catalog.tips, "\(what)", sourceLocation: sourceLocation)
        // What would be published: the same content hash.
        #expect(ContentTree(catalog: cached.catalog).root == ContentTree(catalog: reference.catalog).root, "\(what)", sourceLocation: sourceLocation)
        #expect(cached.filesRead == reference.filesRead && cached.bytesRead == reference.bytesRead, "\(what)", sourceLocation: sourceLocation)
        expectKnownNames(reference, "\(what), without the cache", sourceLocation: sourceLocation)
        expectKnownNames(cached, "\(what), through the cache", sourceLocation: sourceLocation)
    }

    /// Each entry of a load says exactly whether a tip names its key (decoded, or replayed from the cache), and the
    /// orphan-translation rule finds with those answers what it finds looking every key up.
    static func expectKnownNames(_ result: LoadResult, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        var named = Set<String>()
        for tip in result.catalog.tips { tip.forEachLocalizableKey { named.insert($0) } }
        var unknown = result.catalog
        for (key, entry) in result.catalog.localizations.entries {
            #expect(entry.isNamedByTip == named.contains(key), "\(what): \(key)", sourceLocation: sourceLocation)
            unknown.localizations.entries[key]?.isNamedByTip = nil
        }
        guard let rule = LintRegistry.builtIn.first(where: { $0.description == .orphanTranslation }) else {
            Issue.record("no orphan-translation rule", sourceLocation: sourceLocation)
            return
        }
        let messages = { (catalog: Catalog) in rule.check(catalog).map { "\($0.location.map(String.init(describing:)) ?? "") \($0.message)" }.sorted() }
        #expect(messages(result.catalog) == messages(unknown), "\(what)", sourceLocation: sourceLocation)
    }

    /// `expectSame` of a load that finds the cache's decodings for everything: it hits, decodes nothing again and writes
    /// nothing.
    static func expectWarm(_ catalog: String, _ cache: Spy, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        cache.reset()
        expectSame(catalog, cache, what, sourceLocation: sourceLocation)
        #expect(cache.now.hits == 1 && cache.now.unkept == 0 && cache.now.keeps == 0, "\(what): a warm load decodes and writes nothing", sourceLocation: sourceLocation)
    }

    static let fixtureNames = ["xcode-features", "tip-findings", "plurals", "printf", "substitutions", "device-variations"]

    @Test func coldWarmAndEditedLoadsEqualLoadsWithoutTheCache() throws {
        var stringsFiles = try Self.fixtureNames.map {
            try String(contentsOfFile: repositoryRoot + "/Tests/Fixtures/xcstrings/" + $0 + ".xcstrings", encoding: .utf8)
        }
        stringsFiles.append(try String(contentsOfFile: sampleCatalogPath + "/Localizable.xcstrings", encoding: .utf8))
        for (index, strings) in stringsFiles.enumerated() {
            let directory = try TemporaryDirectory()
            let catalog = try directory.sampleCatalog()
            try directory.write("Catalog/Localizable.xcstrings", strings)
            let cache = Spy(directory.file("cache"))
            Self.expectSame(catalog, cache, "file \(index), cold")
            // Cold: no file, so the String Catalog is parsed while it is fingerprinted (not looked up by fingerprint).
            #expect(cache.now.misses == 1 && cache.now.unkept == 1 && cache.now.keeps == 1)
            Self.expectWarm(catalog, cache, "file \(index), warm")

            // A tip's texts edited: a placeholder the translations lack, then a text without one.
            try directory.edit("Catalog/tips/NewTrailTip.json", replacing: "To see key trail info, tap {trail.region} on the map.",
                               with: "Tap {trail.name} to see {trail.region}.")
            cache.reset()
            Self.expectSame(catalog, cache, "file \(index), tip edited")
            #expect(cache.now.hits == 1)
            try directory.edit("Catalog/tips/NewTrailTip.json", replacing: "Tap {trail.name} to see {trail.region}.", with: "No placeholder.")
            Self.expectSame(catalog, cache, "file \(index), tip edited again")
            // A tip whose texts stay: nothing decoded again.
            try directory.edit("Catalog/tips/NewTrailTip.json", replacing: "No placeholder.", with: "No placeholder here.")
            try directory.edit("Catalog/tips/NewTrailTip.json", replacing: "No placeholder here.", with: "No placeholder.")
            Self.expectWarm(catalog, cache, "file \(index), tip edited back")

            // A removed tip, an added one (its keys change owner), a settings change, a translation edit.
            try FileManager.default.removeItem(atPath: directory.file("Catalog/tips/FindTrailheadTip.json"))
            Self.expectSame(catalog, cache, "file \(index), tip removed")
            try directory.write("Catalog/tips/FindTrailheadTip.json", try String(contentsOfFile: sampleCatalogPath + "/tips/FindTrailheadTip.json", encoding: .utf8))
            Self.expectSame(catalog, cache, "file \(index), tip added")
            try directory.edit("Catalog/catalog.json", replacing: "\"sourceLanguage\": \"en\"", with: "\"sourceLanguage\": \"de\"")
            Self.expectSame(catalog, cache, "file \(index), source language changed")
            try directory.edit("Catalog/catalog.json", replacing: "\"sourceLanguage\": \"de\"", with: "\"sourceLanguage\": \"en\"")
            try directory.write("Catalog/Localizable.xcstrings", strings.replacingOccurrences(of: "\"translated\"", with: "\"needs_review\""))
            Self.expectSame(catalog, cache, "file \(index), translations edited")
        }
    }

    /// Tips that name the same keys (two files with one id: an error, and still checked alike): which tip a key
    /// belongs to moves as files are edited, removed, added before the other and renamed, and a warm load decodes
    /// again exactly the entries whose tip changed — always as a load without the cache.
    @Test func keysNamedByTwoTipsChangeTipsAsInALoadWithoutTheCache() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let original = try String(contentsOfFile: directory.file("Catalog/tips/NewTrailTip.json"), encoding: .utf8)
        // A second file with the same id after the first (its keys are the first file's).
        let twin = original.replacingOccurrences(of: "To see key trail info", with: "Twin: to see key trail info")
        try directory.write("Catalog/tips/ZTwinTrailTip.json", twin)
        let cache = Spy(directory.file("cache"))
        Self.expectSame(catalog, cache, "cold, two files name NewTrailTip")
        Self.expectWarm(catalog, cache, "warm")

        // The second file edited: its keys stay the first file's, nothing is decoded again.
        try directory.edit("Catalog/tips/ZTwinTrailTip.json", replacing: "Twin: to see", with: "Twin, edited: to see")
        cache.reset()
        Self.expectSame(catalog, cache, "the second file edited")
        #expect((cache.now.changed ?? []).isEmpty, "the keys' tip is still the first file's")

        // The first file removed: the keys become the second file's.
        try FileManager.default.removeItem(atPath: directory.file("Catalog/tips/NewTrailTip.json"))
        cache.reset()
        Self.expectSame(catalog, cache, "the first file removed")
        #expect(!(cache.now.changed ?? []).isEmpty, "the keys' entries are checked against the second file")

        // A file added before the second one (by name): the keys are the new file's.
        try directory.write("Catalog/tips/ATrailTip.json", original)
        cache.reset()
        Self.expectSame(catalog, cache, "a file added before the second")
        #expect(!(cache.now.changed ?? []).isEmpty)

        // The second file renamed to another id: the keys stay the new file's; its new keys have no entries.
        try directory.edit("Catalog/tips/ZTwinTrailTip.json", replacing: "\"id\": \"NewTrailTip\"", with: "\"id\": \"OtherTrailTip\"")
        Self.expectSame(catalog, cache, "the second file renamed")
        // The first file made invalid, then valid again: its keys belong to no tip, then to it again.
        try directory.write("Catalog/tips/ATrailTip.json", "{ not json")
        Self.expectSame(catalog, cache, "the first file invalid")
        try directory.write("Catalog/tips/ATrailTip.json", original)
        Self.expectSame(catalog, cache, "the first file valid again")
        Self.expectWarm(catalog, cache, "warm again")
    }

    /// `whenDecoded` gets the catalog the result holds and the fingerprints it reports (a publish makes its tree from
    /// them while the catalog is checked); none without a cache.
    @Test func whenDecodedIsGivenTheResultsCatalogAndFingerprints() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        for cached in [false, true] {
            let seen = Mutex<(catalog: Catalog, fingerprints: LoadFingerprints?)?>(nil)
            var loader = CatalogLoader()
            loader.stringsCache = cached ? Spy(directory.file("cache")) : nil
            loader.whenDecoded = { catalog, fingerprints in seen.withLock { $0 = (catalog, fingerprints) } }
            let result = loader.load(directory: catalog)
            let given = try #require(seen.withLock { $0 })
            #expect(given.catalog.tips == result.catalog.tips && given.catalog.localizations == result.catalog.localizations)
            #expect(given.fingerprints == result.fingerprints)
            #expect((given.fingerprints != nil) == cached)
            #expect(given.fingerprints?.tips.count == (cached ? result.catalog.tips.count : nil))
        }
    }

    /// A warm load's table and findings are a cold load's, with each key written once and with one written twice
    /// (the later entry is the table's), after edits that change an entry, make one no tip's, and make one a tip's
    /// again.
    /// A checked translation keeps its text only (its tree parsed again when asked for): the cache writes it so
    /// and reads it back so, never parsing it to write a tree, nor keeping one the fresh load did not. Messages that
    /// keep a tree (a tip's own) keep it through the cache.
    @Test func messagesKeepTheFormTheyHadThroughTheCache() throws {
        var withSyntax = 0
        for name in Self.fixtureNames {
            let directory = try TemporaryDirectory()
            let catalog = try directory.sampleCatalog()
            try directory.write(
                "Catalog/Localizable.xcstrings",
                try String(contentsOfFile: repositoryRoot + "/Tests/Fixtures/xcstrings/" + name + ".xcstrings", encoding: .utf8))
            let cache = Spy(directory.file("cache"))
            let cold = Self.load(catalog, cache: cache).catalog
            cache.reset()
            let warm = Self.load(catalog, cache: cache).catalog
            #expect(cache.now.hits == 1 && cache.now.tipHits == 1, "\(name)")
            func messages(_ catalog: Catalog) -> [String: Message] {
                var all: [String: Message] = [:]
                for (key, entry) in catalog.localizations.entries {
                    var translations = entry.translations.map { ("\($0.key.identifier)", $0.value) }
                    for (locale, devices) in entry.devices { translations += devices.map { ("\(locale.identifier)/\($0.key)", $0.value) } }
                    for (place, translation) in translations {
                        switch translation.content {
                        case .message(let message): all["\(key) \(place)"] = message
                        case .plural(_, let forms): for (form, message) in forms { all["\(key) \(place) \(form)"] = message }
                        }
                    }
                }
                for tip in catalog.tips {
                    all["\(tip.id) title"] = tip.title.message
                    if let message = tip.message?.message { all["\(tip.id) message"] = message }
                }
                return all
            }
            let (before, after) = (messages(cold), messages(warm))
            #expect(!before.isEmpty && Set(before.keys) == Set(after.keys), "\(name)")
            for (place, message) in before {
                let read = try #require(after[place])
                #expect(read == message && read.textOnly == message.textOnly && read.keepsTree == message.keepsTree, "\(name): \(place)")
                #expect(read.parts == message.parts && read.placeholders == message.placeholders, "\(name): \(place)")
                if read.textOnly != nil && read.textOnly != .plain { withSyntax += 1 }
            }
        }
        #expect(withSyntax > 5)
    }

    /// Entries read back from the cache with the same locales share one array of them, as a decoded String
    /// Catalog's do, and read the same translations as the entries they were written from.
    @Test func entriesWithTheSameLocalesShareOneArrayThroughTheCache() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let cache = Spy(directory.file("cache"))
        let cold = Self.load(catalog, cache: cache).catalog
        cache.reset()
        let warm = Self.load(catalog, cache: cache).catalog
        #expect(cache.now.hits == 1)
        var byLocales: [[LocaleID]: [LocaleID]] = [:]
        var shared = 0
        for (key, entry) in warm.localizations.entries.sorted(by: { $0.key < $1.key }) {
            let locales = entry.translationLocales
            #expect(entry.translations == cold.localizations.entries[key]?.translations, "\(key)")
            guard !locales.isEmpty else { continue }
            if let first = byLocales[locales] {
                if first.isSameArray(as: locales) { shared += 1 }
            } else {
                byLocales[locales] = locales
            }
        }
        // The sample's entries mostly have the same locales, one after another.
        #expect(shared > warm.localizations.entries.count / 2, "\(shared) of \(warm.localizations.entries.count)")
    }

    @Test func aWarmLoadsTableEqualsAColdOnesWithAndWithoutADuplicateKey() throws {
        for duplicated in [false, true] {
            let directory = try TemporaryDirectory()
            let catalog = try directory.sampleCatalog()
            if duplicated {
                try directory.edit("Catalog/Localizable.xcstrings", replacing: #""NewTrailTip.title" : {"#, with: #"""
                    "NewTrailTip.title" : { "comment" : "written twice" },
                    "NewTrailTip.title" : {
                    """#)
            }
            let cache = Spy(directory.file("cache"))
            Self.expectSame(catalog, cache, "cold, key written twice: \(duplicated)")
            try directory.edit("Catalog/tips/NewTrailTip.json", replacing: "\"title\": \"", with: "\"title\": \"Edited: ")
            Self.expectSame(catalog, cache, "title edited, key written twice: \(duplicated)")
            try directory.edit("Catalog/tips/NewTrailTip.json", replacing: "\"id\": \"NewTrailTip\"", with: "\"id\": \"RenamedTrailTip\"")
            Self.expectSame(catalog, cache, "tip renamed, key written twice: \(duplicated)")
            try directory.edit("Catalog/tips/NewTrailTip.json", replacing: "\"id\": \"RenamedTrailTip\"", with: "\"id\": \"NewTrailTip\"")
            Self.expectSame(catalog, cache, "name back, key written twice: \(duplicated)")
        }
    }

    @Test func aWarmLoadDecodesAgainOnlyTheEditedTipsEntriesAndWritesADelta() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let cache = Spy(directory.file("cache"))
        _ = Self.load(catalog, cache: cache)
        let main = cache.inner.file(for: catalog + "/Localizable.xcstrings")
        let mainBytes = try Data(contentsOf: URL(fileURLWithPath: main))
        #expect(!FileManager.default.fileExists(atPath: main + ".delta"))

        try directory.edit("Catalog/tips/NewTrailTip.json", replacing: "To see key trail info", with: "For key trail info")
        cache.reset()
        Self.expectSame(catalog, cache, "one tip edited")
        let changed = try #require(cache.now.changed)
        // The tip's title and message have entries; its other keys (actions) are decoded again too when present.
        let kept = try #require(cache.inner.decoding(
            ofFile: catalog + "/Localizable.xcstrings",
            fingerprint: cache.inner.fingerprint(Array(try Data(contentsOf: URL(fileURLWithPath: catalog + "/Localizable.xcstrings")))),
            context: Self.context(catalog, cache.inner)))
        #expect(!changed.isEmpty && changed.allSatisfy { kept.entries[$0].key.hasPrefix("NewTrailTip.") })
        #expect(Set(changed.map { kept.entries[$0].key }) == Set(kept.entries.map(\.key).filter { $0.hasPrefix("NewTrailTip.") }))
        // The main file is left as it was; the delta holds the entries decoded again.
        #expect(try Data(contentsOf: URL(fileURLWithPath: main)) == mainBytes)
        #expect(FileManager.default.fileExists(atPath: main + ".delta"))

        // Another edit: the delta grows (both tips' entries), still equal to a load without the cache.
        try directory.edit("Catalog/tips/FindTrailheadTip.json", replacing: "\"title\": \"", with: "\"title\": \"New: ")
        Self.expectSame(catalog, cache, "a second tip edited")
        Self.expectWarm(catalog, cache, "warm after two edits")
    }

    @Test func entriesReadFromTheCacheDeferTheirTranslationsAndAreWrittenBackAsTheyWereRead() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let cache = Spy(directory.file("cache"))
        let cold = Self.load(catalog, cache: cache)
        let strings = catalog + "/Localizable.xcstrings"
        let fingerprint = cache.inner.fingerprint(Array(try Data(contentsOf: URL(fileURLWithPath: strings))))
        let context = try Self.context(catalog, cache.inner)
        let kept = try #require(cache.inner.decoding(ofFile: strings, fingerprint: fingerprint, context: context))
        let deferred = kept.entries.compactMap { $0.entry?.deferred }
        #expect(!deferred.isEmpty && deferred.count == kept.entries.count { $0.entry != nil })
        // Their locales are known undecoded; decoded, they equal a load without the cache.
        for entry in kept.entries {
            guard let decoded = entry.entry, let reference = cold.catalog.localizations.entries[entry.key] else { continue }
            #expect(Set(decoded.translationLocales) == Set(reference.translations.keys))
            #expect(Set(decoded.deviceLocales) == Set(reference.devices.keys))
            #expect(decoded == reference, "\(entry.key)")
        }
        // Written again (a main file rewritten after many edits), deferred entries give the bytes fresh ones gave.
        // The context's digest as the file holds it (after the magic, the format and the fingerprint).
        let contextDigest = Array(try Data(contentsOf: URL(fileURLWithPath: cache.inner.file(for: strings))).dropFirst(8 + 4 + 32).prefix(32))
        var payload: [UInt8] = []
        let (header, _) = try #require(StringsCacheFile.encode(kept, path: strings, file: fingerprint, context: contextDigest) { piece in
            payload += piece
            return true
        })
        #expect(header + payload == Array(try Data(contentsOf: URL(fileURLWithPath: cache.inner.file(for: strings)))))
    }

    /// `good` damaged: emptied, cut in half, one byte longer, and with `bits` flipped in the byte at each offset.
    static func damages(of good: Data, flipping bits: UInt8, at offsets: [Int]) -> [(String, Data)] {
        var damages: [(String, Data)] = [("empty", Data()), ("truncated", good.prefix(good.count / 2)), ("one byte more", good + Data([0]))]
        for offset in offsets where offset >= 0 && offset < good.count {
            var flipped = good
            flipped[offset] ^= bits
            damages.append(("byte \(offset) flipped", flipped))
        }
        return damages
    }

    /// The context `CatalogLoader` gives `cache` for the sample catalog's files (mirrors the loader; the
    /// fingerprints are the cache directory's own).
    static func context(_ catalog: String, _ cache: StringsCacheDirectory) throws -> [UInt8] {
        var context = Array((catalog + "/Localizable.xcstrings").utf8) + [0]
        for name in ["catalog.json", "parameters.json", "events.json"] where FileManager.default.fileExists(atPath: catalog + "/" + name) {
            context += Array(name.utf8) + [1] + cache.fingerprint(Array(try Data(contentsOf: URL(fileURLWithPath: catalog + "/" + name))))
        }
        return context
    }

    @Test func damagedCacheFilesAreNeverTrusted() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let cache = Spy(directory.file("cache"))
        _ = Self.load(catalog, cache: cache)
        let main = cache.inner.file(for: catalog + "/Localizable.xcstrings")
        let good = try Data(contentsOf: URL(fileURLWithPath: main))
        let damages = Self.damages(of: good, flipping: 0x20, at: [0, 9, 20, 50, 80, 90, StringsCacheFile.headerLength + 3, good.count / 3, good.count - 2])
            + [("header only", good.prefix(StringsCacheFile.headerLength))]
        for (what, bytes) in damages {
            try bytes.write(to: URL(fileURLWithPath: main))
            cache.reset()
            Self.expectSame(catalog, cache, what)
            #expect(cache.now.misses == 1 && cache.now.keeps == 1, "\(what): decoded whole and kept again")
            #expect(try Data(contentsOf: URL(fileURLWithPath: main)) == good, "\(what): rewritten")
        }

        // A damaged delta is ignored (its entries are decoded again from the file).
        try directory.edit("Catalog/tips/NewTrailTip.json", replacing: "To see key trail info", with: "For key trail info")
        _ = Self.load(catalog, cache: cache)
        let delta = try Data(contentsOf: URL(fileURLWithPath: main + ".delta"))
        for offset in [0, 13, 30, 60, 100, delta.count - 1] where offset < delta.count {
            var flipped = delta
            flipped[offset] ^= 0x01
            try flipped.write(to: URL(fileURLWithPath: main + ".delta"))
            Self.expectSame(catalog, Spy(directory.file("cache")), "delta byte \(offset) flipped")
        }
        // Another build's cache is not this one's.
        let other = StringsCacheDirectory(directory: directory.file("cache"), build: Array("another build".utf8))
        var loader = CatalogLoader()
        loader.stringsCache = other
        #expect(Self.lines(loader.load(directory: catalog)) == Self.lines(Self.load(catalog, cache: nil)))
    }

    @Test func aCatalogThatIsNotValidJSONIsReportedTheSameAndNotKept() throws {
        for strings in [#"{"strings": {"FindTrailheadTip.title": {"comment": "a\"}}}"#, "", #"{"strings": []}"#, #"[1]"#] {
            let directory = try TemporaryDirectory()
            let catalog = try directory.sampleCatalog()
            try directory.write("Catalog/Localizable.xcstrings", strings)
            let cache = Spy(directory.file("cache"))
            Self.expectSame(catalog, cache, strings)
            Self.expectSame(catalog, cache, strings + " again")
        }
    }
}
