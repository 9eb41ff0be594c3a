import Foundation
import Testing
import TipcatCodec
import TipcatCore
import TipcatJSON
import TipcatStore
import TipcatTestSupport

/// The publishing commands end to end on every backend, and `tipcat export --static` with the reader apps use.
@Suite struct StaticExportTests {
    /// publish, versions, diff, rollback, promote, show-version and export through the CLI, on each backend.
    @Test(arguments: StoreBackend.allCases) func publishingCommandsOnEachBackend(backend: StoreBackend) throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        guard let store = try backend.newStoreURL(in: scratch) else { return }
        let common = ["--catalog", catalog, "--store", store, "--author", "Ada"]
        let first = storeCLI(["publish"] + common)
        #expect(first.status == .success, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Published version 1 to production: initial version: 17 tips"))
        try scratch.edit("Catalog/tips/NewTrailTip.json", replacing: "To see key trail info", with: "For key trail info")
        #expect(storeCLI(["publish"] + common).stdout.hasPrefix("Published version 2 to production: NewTrailTip: message\n"))
        let diff = storeCLI(["diff", "1", "2", "--store", store])
        #expect(diff.stdout == """
            diff version 1 → version 2
            ~ tip NewTrailTip
                ~ message: "To see key trail info, tap {trail.region} on the map." → "For key trail info, tap {trail.region} on the map."
            1 change: NewTrailTip: message

            """)
        #expect(storeCLI(["diff", "production", "working"] + common.prefix(4)).stdout == "No changes between production (version 2) and working.\n")
        #expect(storeCLI(["rollback", "--to", "1"] + common).stdout.hasPrefix("Rolled back production to version 1's content as version 3"))
        #expect(storeCLI(["promote", "production", "beta", "--store", store]).stdout
            == "beta now points at version 3 (production's head); it was at no version.\n")
        let mismatch = storeCLI(["publish", "--expect-version", "2"] + common)
        #expect(mismatch.status == .failure)
        #expect(mismatch.stderr == "error: version mismatch: production is at 3, expected 2\n")
        let listing = try JSONDocument.parse(text: storeCLI(["versions", "--store", store, "--json"]).stdout).root.value
        #expect(listing.objectValue?["channels"]?.value == ["beta": 3, "production": 3])
        #expect(listing.objectValue?["versions"]?.value.arrayValue?.count == 3)
        #expect(storeCLI(["show-version", "2", "--store", store]).stdout.contains("resets:    NewTrailTip"))
        let exported = storeCLI(["export", "--channel", "beta", "-o", "-", "--store", store])
        let bundle = try CatalogBundle(bytes: Array(exported.stdout.utf8))
        #expect(bundle.version == 3 && bundle.channel == "beta")
        #expect(exported.stderr.hasPrefix("Exported version 3 of beta (17 tips"))
        let versions = try StoreLocation(store).open(.readOnly).versions()
        #expect(bundle.contentHash == versions[0].contentHash)
        // The engine reads the channel from the same store.
        let engine = storeCLI(["engine", "status", "--store", store, "--channel", "beta", "--state", scratch.file("state.sqlite")])
        #expect(engine.status == .success, "\(engine.stderr)")
        #expect(engine.stdout.contains("NewTrailTip"))
    }

    @Test(arguments: StoreBackend.allCases) func staticChannelFiles(backend: StoreBackend) throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        guard let store = try backend.newStoreURL(in: scratch) else { return }
        #expect(storeCLI(["publish", "--catalog", catalog, "--store", store, "--author", "Ada"]).status == .success)
        let record = try #require(try StoreLocation(store).open(.readOnly).head(of: .production))
        let out = scratch.file("public")

        let first = storeCLI(["export", "--static", out, "--store", store])
        #expect(first.status == .success, "\(first.stderr)")
        let bundleBytes = try StoreLocation(store).open(.readOnly).bundle(of: record, channel: "production").fileBytes
        let sha = SHA256.hash(bundleBytes).hex
        #expect(first.stdout == """
            Exported version 1 of production (17 tips, content \(record.contentHash.shortHex()), \(bundleBytes.count) bytes) to \(out)/: channels/production.json → versions/\(sha).json
              4 files written, 0 unchanged (ETags in .etag files)

            """)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(out)/versions/\(sha).json"))) == bundleBytes)
        #expect(try scratch.read("public/versions/\(sha).json.etag") == sha + "\n")
        let channelText = try scratch.read("public/channels/production.json")
        #expect(channelText == """
            {"channel":"production","contentHash":"\(record.contentHash.hex)","file":"versions/\(sha).json","format":"tipcat-channel",\
            "formatVersion":1,"publishedAt":"2026-03-01T09:30:00Z","sha256":"\(sha)","version":1}

            """)
        #expect(try scratch.read("public/channels/production.json.etag") == SHA256.hash(Array(channelText.utf8)).hex + "\n")

        // Again: nothing to write, nothing touched.
        let modified = modificationDate("\(out)/channels/production.json")
        let again = storeCLI(["export", "--static", out, "--store", store])
        #expect(again.stdout.hasSuffix("\n  0 files written, 4 unchanged (ETags in .etag files)\n"))
        #expect(modificationDate("\(out)/channels/production.json") == modified)

        // The app's side: from the directory, or from downloaded bytes, hash checked first.
        let loaded = try StaticExport.loadBundle(directory: out, channel: "production")
        #expect(loaded.version == 1 && loaded.contentHash == record.contentHash && loaded.channel == "production")
        #expect(try loaded.catalog(origin: "static").tips.count == 17)
        #expect(try StaticExport.loadBundle(bytes: bundleBytes, expectedSHA256: sha).contentHash == record.contentHash)
        #expect(throws: StaticExportError.hashMismatch(path: "<bytes>", expected: String(repeating: "0", count: 64), actual: sha)) {
            try StaticExport.loadBundle(bytes: bundleBytes, expectedSHA256: String(repeating: "0", count: 64))
        }

        // A new version: a new versions file beside the old one (immutable), then the channel moves.
        try scratch.edit("Catalog/tips/NewTrailTip.json", replacing: "To see key trail info", with: "For key trail info")
        #expect(storeCLI(["publish", "--catalog", catalog, "--store", store, "--author", "Ada"]).status == .success)
        let next = storeCLI(["export", "--static", out, "--store", store])
        #expect(next.stdout.hasPrefix("Exported version 2 of production"))
        #expect(next.stdout.hasSuffix("\n  4 files written, 0 unchanged (ETags in .etag files)\n"))
        #expect(FileManager.default.fileExists(atPath: "\(out)/versions/\(sha).json"))
        #expect(try StaticExport.loadBundle(directory: out, channel: "production").version == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/versions").count == 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/channels").sorted() == ["production.json", "production.json.etag"])
    }

    @Test func readersRefuseAlteredFiles() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let store = scratch.file("store.sqlite")
        #expect(storeCLI(["publish", "--catalog", catalog, "--store", store, "--author", "Ada"]).status == .success)
        let out = scratch.file("public")
        #expect(storeCLI(["export", "--static", out, "--store", store]).status == .success)
        let pointer = try StaticExport.ChannelPointer(bytes: Array(try scratch.read("public/channels/production.json").utf8))
        let versionFile = "\(out)/\(pointer.file)"
        let original = try scratch.read("public/\(pointer.file)")

        // One changed byte in the bundle: its hash no longer matches the channel file.
        try scratch.write("public/\(pointer.file)", original.replacingOccurrences(of: "Reorient the map", with: "Reorient the mop"))
        do {
            _ = try StaticExport.loadBundle(directory: out, channel: "production")
            Issue.record("an altered bundle was accepted")
        } catch {
            #expect(error.description.hasPrefix("'\(versionFile)' is refused: its bytes hash to "))
            #expect(error.description.hasSuffix(", not the expected \(pointer.sha256.hex)"))
        }
        try scratch.write("public/\(pointer.file)", original)

        // A channel file naming another path, another channel, or no format.
        let channelText = try scratch.read("public/channels/production.json")
        for (change, reason) in [
            (channelText.replacingOccurrences(of: "\"file\":\"versions/", with: "\"file\":\"../versions/"), "'file' is not \(pointer.file)"),
            (channelText.replacingOccurrences(of: "tipcat-channel", with: "other"), "it is not a tipcat channel file"),
            (channelText.replacingOccurrences(of: "\"channel\":\"production\"", with: "\"channel\":\"beta\""), "it is the channel file of 'beta'"),
            ("nonsense", "it is not JSON (unexpected character 'n' at the start of a value)"),
        ] {
            try scratch.write("public/channels/production.json", change)
            do {
                _ = try StaticExport.loadBundle(directory: out, channel: "production")
                Issue.record("accepted: \(change)")
            } catch {
                #expect(error.description.hasPrefix("'\(out)/channels/production.json' is refused: "), "\(error)")
                #expect(error.description.hasSuffix(reason) || error.description.contains("it is not JSON"), "\(error)")
            }
        }
        #expect(throws: StaticExportError.unreadable(path: "\(out)/channels/beta.json", reason: "No such file or directory")) {
            try StaticExport.loadBundle(directory: out, channel: "beta")
        }
        #expect(throws: StaticExportError.self) { try StaticExport.loadBundle(directory: out, channel: "../etc/passwd") }
    }

    @Test func badStaticExportsAreClearErrors() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let store = scratch.file("store.sqlite")
        #expect(storeCLI(["publish", "--catalog", catalog, "--store", store, "--author", "Ada"]).status == .success)
        let unknown = storeCLI(["export", "--channel", "beta", "--static", scratch.file("out"), "--store", store])
        #expect(unknown.status == .failure)
        #expect(unknown.stderr == "error: there is no channel 'beta'\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out")))

        let blocked = scratch.file("Catalog/catalog.json/out")
        let unwritable = storeCLI(["export", "--static", blocked, "--store", store])
        #expect(unwritable.status == .failure)
        #expect(unwritable.stderr.hasPrefix("error: cannot write '\(blocked)/versions/"))
        #expect(unwritable.stderr.hasSuffix(".json': cannot create '\(blocked)': Not a directory\n"))

        let both = storeCLI(["export", "--static", scratch.file("out"), "-o", "x.json", "--store", store])
        #expect(both.status == .usage)
        #expect(both.stderr.hasPrefix("Error: use -o FILE or --static DIR, not both\n"))
        let neither = storeCLI(["export", "--store", store])
        #expect(neither.status == .usage)
        #expect(neither.stderr.hasPrefix("Error: export needs -o FILE (a bundle) or --static DIR (files for a CDN)\n"))
    }
}
