import Foundation
import Testing
import TipcatJSON
import TipcatSQLite
import TipcatTestSupport

/// A republish into a store that already holds earlier versions — an incremental publish, through the String
/// Catalog cache the first publish left beside the store (`<store>-cache/`) — gives the same version as publishing the same files
/// from scratch (`--no-cache`) into an empty store: the same content hash and the same stored objects, byte for
/// byte.
@Suite struct RepublishEquivalenceTests {
    /// The content hash of the channel's head, from `versions --json`.
    func headHash(store: String) throws -> String? {
        let listing = try JSONDocument.parse(text: storeCLI(["versions", "--store", store, "--json"]).stdout).root.value
        let records = listing.objectValue?["versions"]?.value.arrayValue?.compactMap(\.value.objectValue) ?? []
        return records.last?["contentHash"]?.value.stringValue
    }

    /// Every object row (hash, kind, size, content) of the store.
    func objects(store: String) throws -> [String: [SQLiteValue]] {
        let connection = try Connection(path: store, mode: .readOnly)
        var rows: [String: [SQLiteValue]] = [:]
        for row in try connection.rows("SELECT hex(hash), kind, size, content FROM objects") {
            if case .text(let hash) = row[0] { rows[hash] = Array(row.dropFirst()) }
        }
        return rows
    }

    @Test func republishAfterEditsEqualsAPublishFromScratch() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let store = scratch.file("kept.sqlite")
        let newTip = try scratch.read("Catalog/tips/ShowLocationTip.json")
            .replacingOccurrences(of: "\"id\": \"ShowLocationTip\"", with: "\"id\": \"AddedTip\"")
        let edits: [(String, () throws -> Void)] = [
            ("one tip's text", { try scratch.edit("Catalog/tips/NewTrailTip.json", replacing: "To see key trail info", with: "For key trail info") }),
            ("a translation", { try scratch.edit("Catalog/Localizable.xcstrings", replacing: "Tippe auf den Kompass", with: "Tippe jetzt auf den Kompass") }),
            ("a rule", { try scratch.edit("Catalog/tips/ShowLocationTip.json", replacing: "\"$isMapVisible\"", with: "\"!$isMapVisible\"") }),
            ("an added tip", { try scratch.write("Catalog/tips/AddedTip.json", newTip) }),
            ("a deleted tip", { try FileManager.default.removeItem(atPath: scratch.file("Catalog/tips/AddedTip.json")) }),
        ]
        let first = storeCLI(["publish", "--catalog", catalog, "--store", store, "--author", "Ada"])
        #expect(first.status == .success, "\(first.stderr)")
        let cacheFiles = { (try? FileManager.default.contentsOfDirectory(atPath: store + "-cache")) ?? [] }
        #expect(cacheFiles().contains { $0.hasSuffix(".cache") }, "the first publish keeps the decoded String Catalog")
        var hashes: Set<String> = []
        for (index, (what, edit)) in edits.enumerated() {
            try edit()
            let kept = storeCLI(["publish", "--catalog", catalog, "--store", store, "--author", "Ada"])
            #expect(kept.status == .success, "\(what): \(kept.stderr)")
            #expect(kept.stdout.hasPrefix("Published version \(index + 2) to production:"), "\(what): \(kept.stdout)")
            let fresh = scratch.file("fresh-\(index).sqlite")
            let scratchPublish = storeCLI(["publish", "--catalog", catalog, "--store", fresh, "--author", "Ada", "--no-cache"])
            #expect(scratchPublish.status == .success, "\(what): \(scratchPublish.stderr)")
            #expect(scratchPublish.stdout.hasPrefix("Published version 1 to production: initial version:"))

            let keptHash = try headHash(store: store)
            #expect(keptHash != nil)
            #expect(keptHash == (try headHash(store: fresh)), "\(what)")
            hashes.insert(keptHash ?? "")
            // The fresh store holds exactly this version's objects; the kept store holds each of them unchanged.
            let keptObjects = try objects(store: store)
            let freshObjects = try objects(store: fresh)
            #expect(!freshObjects.isEmpty)
            for (hash, row) in freshObjects {
                #expect(keptObjects[hash] == row, "\(what): object \(hash)")
            }
        }
        // Each edit made a new version; deleting the added tip returns to the content before it was added.
        #expect(hashes.count == edits.count - 1)
        // The tip edits were kept as a delta beside the decoded String Catalog.
        #expect(cacheFiles().contains { $0.hasSuffix(".cache.delta") })
    }

    /// Past 256 tips, after a small edit the content tree is made while the catalog is checked, and after a
    /// translation edit (every tip's memo key changes) in the write transaction, each tip's objects stored as they
    /// are made (`PublishEarlyTreeTests` checks which): both publish exactly what a publish without the cache does,
    /// and the memo either writes serves the next publish.
    @Test func publishesPastTheEarlyTreesLimitEqualAPublishFromScratch() throws {
        let scratch = try TemporaryDirectory()
        let catalog = scratch.file("Generated")
        try writeGeneratedCatalog(at: catalog, tips: 300)
        let store = scratch.file("kept.sqlite")
        let edits: [(what: String, edit: () throws -> Void)] = [
            ("the first publish", {}),
            ("one tip's title", { try scratch.edit("Generated/tips/Tip7.json", replacing: "\"title\": \"", with: "\"title\": \"Edited: ") }),
            ("a translation", { try writeGeneratedCatalog(at: catalog, tips: 300, translationVariant: " (2)", onlyTranslations: true) }),
            ("another tip's title", { try scratch.edit("Generated/tips/Tip8.json", replacing: "\"title\": \"", with: "\"title\": \"Edited: ") }),
        ]
        for (index, step) in edits.enumerated() {
            try step.edit()
            let kept = storeCLI(["publish", "--catalog", catalog, "--store", store, "--author", "Ada"])
            #expect(kept.status == .success, "\(step.what): \(kept.stderr)")
            let fresh = scratch.file("fresh-\(index).sqlite")
            let scratchPublish = storeCLI(["publish", "--catalog", catalog, "--store", fresh, "--author", "Ada", "--no-cache"])
            #expect(scratchPublish.status == .success, "\(step.what): \(scratchPublish.stderr)")
            let keptHash = try headHash(store: store)
            let freshHash = try headHash(store: fresh)
            #expect(keptHash != nil && keptHash == freshHash, "\(step.what)")
        }
    }

    /// A publish removes what the cache keeps for catalogs no publish has used for 30 days (every kind of file
    /// of such a key, delta included) and what killed publishes staged and left an hour ago, and keeps its own
    /// catalog's files, other keys written within 30 days, what live processes stage, and files not named as the
    /// cache names them.
    @Test func aPublishPrunesWhatOtherCatalogsLeftUnusedFor30Days() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let cache = scratch.file("cache")
        let environment = ["TIPCAT_CACHE_DIR": cache]
        let first = storeCLI(["publish", "--catalog", catalog, "--store", scratch.file("a.sqlite"), "--author", "Ada"], environment: environment)
        #expect(first.status == .success, "\(first.stderr)")
        let own = try FileManager.default.contentsOfDirectory(atPath: cache).sorted()
        #expect(own.contains { $0.hasPrefix("strings-") } && own.contains { $0.hasPrefix("tips-") })
        let stale = ["strings-00000000000000aa.cache", "strings-00000000000000aa.cache.delta", "tips-00000000000000aa.cache"]
        let recent = ["strings-00000000000000bb.cache", "tips-00000000000000bb.cache"]
        let foreign = ["notes.txt", "strings-XYZ.cache", "strings-00000000000000cc.cache.tmp", "notes.txt.tmp.1.2", "strings-00000000000000cc.cache.tmp.x.2"]
        // Staged by processes killed before they committed their caches: gone an hour later; this process's, one
        // staged within the hour and the live process 1's stay.
        let dead = pid_t(Int32.max - 7)
        let leftovers = ["strings-00000000000000aa.cache.tmp.\(dead).123", "tips-652f55016243bf1b.cache.delta.tmp.\(dead).9", "fingerprint.key.tmp.\(dead).4"]
        let staged = ["strings-00000000000000aa.cache.tmp.\(getpid()).5", "strings-00000000000000aa.cache.tmp.1.6", "tips-00000000000000aa.cache.tmp.\(dead).7"]
        let old = Date(timeIntervalSinceNow: -31 * 86_400)
        for name in stale + recent + foreign + leftovers + staged {
            #expect(FileManager.default.createFile(atPath: cache + "/" + name, contents: Data("x".utf8)))
        }
        for name in stale + foreign + own + leftovers + staged.dropLast() {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: cache + "/" + name)
        }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -1800)], ofItemAtPath: cache + "/" + staged[2])
        // One file of the "bb" key is old, the other recent: the key was used within 30 days, both stay.
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: cache + "/" + recent[0])
        try scratch.edit("Catalog/tips/NewTrailTip.json", replacing: "To see key trail info", with: "For key trail info")
        let second = storeCLI(["publish", "--catalog", catalog, "--store", scratch.file("a.sqlite"), "--author", "Ada"], environment: environment)
        #expect(second.status == .success, "\(second.stderr)")
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: cache))
        #expect(left.isDisjoint(with: stale + leftovers), "\(left.sorted())")
        #expect(left.isSuperset(of: recent + foreign + own + staged), "\(left.sorted())")
    }

    /// A cache shared by two stores (`TIPCAT_CACHE_DIR`): the second store lacks the objects the memo knows, so
    /// they are made again from the catalog — the second store holds the whole version, identical to the first's.
    @Test func aCacheSharedWithAnEmptyStoreStillStoresEveryObject() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let environment = ["TIPCAT_CACHE_DIR": scratch.file("shared-cache")]
        let first = storeCLI(["publish", "--catalog", catalog, "--store", scratch.file("a.sqlite"), "--author", "Ada"], environment: environment)
        #expect(first.status == .success, "\(first.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("a.sqlite-cache")), "TIPCAT_CACHE_DIR replaces <store>-cache")
        try scratch.edit("Catalog/tips/NewTrailTip.json", replacing: "To see key trail info", with: "For key trail info")
        let second = storeCLI(["publish", "--catalog", catalog, "--store", scratch.file("b.sqlite"), "--author", "Ada"], environment: environment)
        #expect(second.status == .success, "\(second.stderr)")
        let fresh = storeCLI(["publish", "--catalog", catalog, "--store", scratch.file("c.sqlite"), "--author", "Ada", "--no-cache"])
        #expect(fresh.status == .success, "\(fresh.stderr)")
        #expect(try headHash(store: scratch.file("b.sqlite")) == (try headHash(store: scratch.file("c.sqlite"))))
        #expect(try objects(store: scratch.file("b.sqlite")) == (try objects(store: scratch.file("c.sqlite"))))
        // The whole version reads back from the store that never had the memo's objects before.
        let export = storeCLI(["export", "--store", scratch.file("b.sqlite"), "--static", scratch.file("export")])
        #expect(export.status == .success, "\(export.stderr)")
    }

    /// A publish that fails (validation errors) or only previews (`--dry-run`) keeps no cache; a damaged cache
    /// publishes the same version as none.
    @Test func onlyASuccessfulPublishKeepsItsCacheAndADamagedOneIsIgnored() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let store = scratch.file("kept.sqlite")
        let dryRun = storeCLI(["publish", "--catalog", catalog, "--store", store, "--author", "Ada", "--dry-run"])
        #expect(dryRun.status == .success, "\(dryRun.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store + "-cache"))
        let first = storeCLI(["publish", "--catalog", catalog, "--store", store, "--author", "Ada"])
        #expect(first.status == .success, "\(first.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: store + "-cache").sorted()
        #expect(files.count == 4 && files.filter { $0.hasSuffix(".cache") }.count == 3 && files.contains("fingerprint.key"),
                "strings, tips, owners and the fingerprints' keys: \(files)")
        // Damaged: every cache file cut in half, the keys too.
        for name in files {
            let path = store + "-cache/" + name
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        }
        try scratch.edit("Catalog/tips/NewTrailTip.json", replacing: "To see key trail info", with: "For key trail info")
        let second = storeCLI(["publish", "--catalog", catalog, "--store", store, "--author", "Ada"])
        #expect(second.status == .success, "\(second.stderr)")
        let fresh = storeCLI(["publish", "--catalog", catalog, "--store", scratch.file("fresh.sqlite"), "--author", "Ada", "--no-cache"])
        #expect(try headHash(store: store) == (try headHash(store: scratch.file("fresh.sqlite"))))
        #expect(fresh.status == .success)
        // An invalid catalog: nothing published, the cache left as the last successful publish wrote it.
        let before = try FileManager.default.contentsOfDirectory(atPath: store + "-cache").sorted().map {
            try Data(contentsOf: URL(fileURLWithPath: store + "-cache/" + $0))
        }
        try scratch.edit("Catalog/tips/NewTrailTip.json", replacing: "For key trail info", with: "For {nope} info")
        let invalid = storeCLI(["publish", "--catalog", catalog, "--store", store, "--author", "Ada"])
        #expect(invalid.status != .success)
        let after = try FileManager.default.contentsOfDirectory(atPath: store + "-cache").sorted().map {
            try Data(contentsOf: URL(fileURLWithPath: store + "-cache/" + $0))
        }
        #expect(before == after)
    }
}
