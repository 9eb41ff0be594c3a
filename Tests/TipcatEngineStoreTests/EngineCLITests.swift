import Foundation
import Testing
@testable import TipcatCLI
import TipcatCore
import TipcatEngine
import TipcatEngineStore
import TipcatSQLite
import TipcatTestSupport

@Suite struct EngineCLITests {
    /// Acceptance: on a fresh state, `why FavoriteBackyardTip` names both unmet rules.
    @Test func whyOnFreshStateNamesUnmetRules() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let state = scratch.file("state.sqlite")
        let why = run(["engine", "why", "FavoriteBackyardTip", "--store", store, "--channel", "production", "--state", state])
        #expect(why.status == .success, "\(why.stderr)")
        #expect(why.stdout.hasPrefix("FavoriteBackyardTip: pending, not shown"))
        #expect(why.stdout.contains("rule 1 unmet: $isLoggedIn — $isLoggedIn is false"))
        #expect(why.stdout.contains("rule 2 unmet: #entered-backyard-detail-view.within(5d).largestSubset(backyardID).count >= 3 — 0 of 3"))
    }

    /// `engine show --width` takes a whole number of columns from 1 up, as `render` does.
    @Test func showRefusesABadWidth() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        for width in ["abc", "-3", "0"] {
            let shown = run(["engine", "show", "HighlightTip", "--width", width, "--store", store, "--state", scratch.file("state.sqlite")])
            #expect(shown.status == .usage, "\(shown.stdout)")
            #expect(shown.stderr.contains("--width takes a number of columns from 1 to 10000, not '\(width)'"), "\(shown.stderr)")
        }
    }

    /// The whole loop through the state database: set, donate, next, displayed, hidden, dismiss, reset.
    @Test func stateFlowsThroughTheDatabase() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let base = ["--store", store, "--state", scratch.file("s/state.sqlite")]
        let common = base + ["--now", "2026-01-05T10:00:00Z"]
        #expect(run(["engine", "set", "isLoggedIn", "true"] + common).stdout == "$isLoggedIn = true\n")
        for minute in 0..<3 {
            let donated = run(["engine", "donate", "entered-backyard-detail-view", "backyardID=3", "--now", "2026-01-05T08:0\(minute):00Z"] + base)
            #expect(donated.status == .success, "\(donated.stderr)")
            #expect(donated.stdout == "donated #entered-backyard-detail-view backyardID=3 at 2026-01-05T08:0\(minute):00Z\n")
        }
        let why = run(["engine", "why", "FavoriteBackyardTip"] + common)
        #expect(why.stdout.hasPrefix("FavoriteBackyardTip: available"), "\(why.stdout)")
        // Five days later the visits have left the window.
        let later = run(["engine", "why", "FavoriteBackyardTip", "--now", "2026-01-11T08:00:00Z"] + base)
        #expect(later.stdout.contains("unmet"), "\(later.stdout)")

        #expect(run(["engine", "next"] + common).stdout == "FavoriteBackyardTip\n")
        #expect(run(["engine", "dismiss", "HighlightTip"] + common).stdout == "HighlightTip: invalidated(tipClosed)\n")
        #expect(run(["engine", "dismiss", "InlineTip"] + common).status == .success)
        #expect(run(["engine", "next"] + common).stdout == "FavoriteBackyardTip\n")
        let shown = run(["engine", "displayed", "FavoriteBackyardTip", "--now", "2026-01-05T09:00:00Z"] + base)
        #expect(shown.stdout == "FavoriteBackyardTip: displayed 1 time; available\n", "\(shown.stdout)\(shown.stderr)")
        #expect(run(["engine", "hidden", "FavoriteBackyardTip", "--now", "2026-01-05T09:00:30Z"] + base).status == .success)
        let status = run(["engine", "status"] + common)
        #expect(status.stdout.contains("FavoriteBackyardTip" + String(repeating: " ", count: 15) + "available" + String(repeating: " ", count: 25) + "      1  no"), "\(status.stdout)")
        #expect(status.stdout.hasSuffix("next: FavoriteBackyardTip\n"))
        let invalidated = run(["engine", "invalidate", "FavoriteBackyardTip", "--reason", "actionPerformed"] + common)
        #expect(invalidated.stdout == "FavoriteBackyardTip: invalidated(actionPerformed)\n")
        #expect(run(["engine", "reset", "HighlightTip"] + common).stdout == "HighlightTip: eligibility reset; available\n")
        #expect(run(["engine", "next", "--group", "compass"] + common).stdout == "none\n")
        #expect(run(["engine", "reset"] + common).status == .success)
        #expect(run(["engine", "why", "FavoriteBackyardTip"] + common).stdout.contains("$isLoggedIn is false"))
    }

    /// TipKit 26's `Event.deleteDonations()` and `Tip.resetEligibility()` as commands.
    @Test func deleteDonationsAndResetEligibility() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite"), "--now", "2026-01-05T10:00:00Z"]
        #expect(run(["engine", "set", "isLoggedIn", "true"] + common).status == .success)
        for _ in 0..<3 { #expect(run(["engine", "donate", "entered-backyard-detail-view", "backyardID=3"] + common).status == .success) }
        #expect(run(["engine", "why", "FavoriteBackyardTip"] + common).stdout.hasPrefix("FavoriteBackyardTip: available"))
        let deleted = run(["engine", "delete-donations", "entered-backyard-detail-view"] + common)
        #expect(deleted.status == .success, "\(deleted.stderr)")
        #expect(deleted.stdout == "#entered-backyard-detail-view: donations deleted\n")
        #expect(run(["engine", "why", "FavoriteBackyardTip"] + common).stdout.contains("0 of 3"))
        let unknown = run(["engine", "delete-donations", "opened-mapp"] + common)
        #expect(unknown.status == .failure)
        #expect(unknown.stderr.contains("opened-map"), "\(unknown.stderr)")

        #expect(run(["engine", "dismiss", "HighlightTip"] + common).stdout == "HighlightTip: invalidated(tipClosed)\n")
        let reset = run(["engine", "reset-eligibility", "HighlightTip"] + common)
        #expect(reset.stdout == "HighlightTip: eligibility reset; available\n", "\(reset.stdout)\(reset.stderr)")
    }

    /// `--time-zone` decides what calendar rules read; a bad zone is a usage error.
    @Test func timeZoneOption() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite"), "--now", "2026-01-05T20:30:00Z"]
        let bad = run(["engine", "status", "--time-zone", "Mars/Olympus"] + common)
        #expect(bad.status == .usage)
        #expect(bad.stderr.contains("unknown time zone 'Mars/Olympus'; use an IANA name such as Europe/Paris or an offset such as +02:00"))
        for zone in ["Europe/Paris", "+09:00", "UTC"] {
            #expect(run(["engine", "status", "--time-zone", zone] + common).status == .success, "\(zone)")
        }
        // The sample's evening tip: 20:30 UTC is 21:30 in Paris (evening) and 05:30 the next day in UTC+09:00.
        let tip = "com.example.trails.plan-tomorrow"
        #expect(run(["engine", "why", tip, "--time-zone", "Europe/Paris"] + common).stdout.contains("✓ now.hour >= 18: 21 of 18"))
        #expect(run(["engine", "why", tip, "--time-zone", "+09:00"] + common).stdout.contains("✗ now.hour >= 18: 5 of 18"))
        #expect(run(["engine", "why", tip, "--time-zone", "UTC"] + common).stdout.contains("✓ now.hour >= 18: 20 of 18"))
    }

    @Test func showRendersWithAStyle() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let shown = run(["engine", "show", "HighlightTip", "--store", store, "--state", scratch.file("state.sqlite"),
                         "--templates", repositoryRoot + "/Templates"])
        #expect(shown.status == .success, "\(shown.stderr)")
        #expect(shown.stdout.hasPrefix("Add an Effect\n"))
        let markdown = run(["engine", "show", "HighlightTip", "--style", "markdown", "--store", store, "--state", scratch.file("state.sqlite")])
        #expect(markdown.stdout.contains("Add an Effect"))
        #expect(markdown.stdout != shown.stdout)
        // The pseudo-locales go through the same resolver as render's.
        let accented = run(["engine", "show", "HighlightTip", "--locale", "en-XA", "--store", store, "--state", scratch.file("state.sqlite"),
                            "--templates", repositoryRoot + "/Templates"])
        #expect(accented.status == .success, "\(accented.stderr)")
        #expect(accented.stdout.hasPrefix("[Åðð áñ Éƒƒéçţ ~"), "\(accented.stdout)")
    }

    @Test func errorsAreClearWithDidYouMean() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite")]
        let cases: [([String], String)] = [
            (["why", "FavoriteBackyrdTip"], "error: unknown tip 'FavoriteBackyrdTip'; did you mean 'FavoriteBackyardTip'?"),
            (["donate", "entered-backyard-detail-veiw"], "error: unknown event 'entered-backyard-detail-veiw'; did you mean 'entered-backyard-detail-view'?"),
            (["donate", "entered-backyard-detail-view", "backyardId=3"], "error: #entered-backyard-detail-view has no field 'backyardId'; did you mean 'backyardID'?"),
            (["donate", "entered-backyard-detail-view", "backyardID=three"], "error: field 'backyardID' of #entered-backyard-detail-view is int, not 'three'"),
            (["donate", "entered-backyard-detail-view"], "error: a donation of #entered-backyard-detail-view needs a value for 'backyardID'"),
            (["set", "isLogedIn", "true"], "error: unknown parameter '$isLogedIn'; did you mean '$isLoggedIn'?"),
            (["set", "isLoggedIn", "maybe"], "error: $isLoggedIn is bool, not 'maybe'"),
            (["next", "--group", "compas"], "error: unknown group 'compas'; did you mean 'compass'?"),
        ]
        for (arguments, message) in cases {
            let result = run(["engine"] + arguments + common)
            #expect(result.status == .failure, "\(arguments)")
            #expect(result.stderr == message + "\n", "\(arguments)")
        }
        #expect(run(["engine", "invalidate", "HighlightTip", "--reason", "bored"] + common).status == .usage)
        #expect(run(["engine", "donate", "opened-map", "oops"] + common).status == .usage)
        #expect(run(["engine", "next", "--now", "yesterday"] + common).status == .usage)
        #expect(run(["engine", "next", "--store", scratch.file("missing.sqlite")]).status == .failure)
        #expect(run(["engine", "why", "--help"]).stdout.contains("tipcat engine why FavoriteBackyardTip"))
    }

    @Test func simulatePrintsTranscriptAndFailsWithLineAndColumn() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let demo = run(["engine", "simulate", repositoryRoot + "/Tests/TipcatEngineTests/Scenarios/demo-week.tipsim", "--store", store])
        #expect(demo.status == .success, "\(demo.stderr)")
        #expect(demo.stdout.contains("line 7: expect next HighlightTip"))
        #expect(demo.stdout.hasSuffix("expectations met\n"))

        try scratch.write("bad.tipsim", "at 2026-01-05T08:00 set launchCount 1\n  expect next InlineTip\n")
        let bad = run(["engine", "simulate", scratch.file("bad.tipsim"), "--store", store])
        #expect(bad.status == .failure)
        #expect(bad.stderr.hasPrefix(scratch.file("bad.tipsim") + ":2:3: error: expected next to be InlineTip, got HighlightTip"), "\(bad.stderr)")

        try scratch.write("typo.tipsim", "sett launchCount 1\n")
        let typo = run(["engine", "simulate", scratch.file("typo.tipsim"), "--store", store])
        #expect(typo.status == .failure)
        #expect(typo.stderr.contains("typo.tipsim:1:1: error: unknown command 'sett'; did you mean 'set'?"), "\(typo.stderr)")
    }

    /// `simulate --from-state` starts from a copy of the state database and leaves the database as it was.
    @Test func simulateFromTheStateDatabase() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let state = scratch.file("state.sqlite")
        let common = ["--store", store, "--state", state, "--now", "2026-01-05T10:00:00Z"]
        #expect(run(["engine", "set", "isLoggedIn", "true"] + common).status == .success)
        for day in 2...4 {
            #expect(run(["engine", "donate", "entered-backyard-detail-view", "backyardID=3", "--at", "2026-01-0\(day)T08:00:00Z"] + common).status == .success)
        }
        try scratch.write("what-if.tipsim", """
            at 2026-01-05T10:00 expect status FavoriteBackyardTip available
            donate entered-backyard-detail-view backyardID=3
            set isLoggedIn false
            expect status FavoriteBackyardTip pending

            """)
        let fromState = run(["engine", "simulate", scratch.file("what-if.tipsim"), "--from-state"] + common)
        #expect(fromState.status == .success, "\(fromState.stderr)")
        let fresh = run(["engine", "simulate", scratch.file("what-if.tipsim")] + common)
        #expect(fresh.status == .failure)
        #expect(fresh.stderr.contains("what-if.tipsim:1:"), "\(fresh.stderr)")
        // The simulation's donation and parameter change stayed in memory.
        let snapshot = try SQLiteTipStateStore(path: state).load()
        #expect(snapshot.donations.count == 3)
        #expect(snapshot.parameters["isLoggedIn"] == .bool(true))
        let missing = run(["engine", "simulate", scratch.file("what-if.tipsim"), "--from-state", "--store", store, "--state", scratch.file("none.sqlite")])
        #expect(missing.status == .failure)
        #expect(missing.stderr == "error: no state database at '\(scratch.file("none.sqlite"))' to start the simulation from (pass --state)\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("none.sqlite")))
    }

    /// A bundle runs like the channel it came from; a republished tip with `republish: reset` starts over.
    @Test func bundleSourceAndRepublishPolicy() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let bundle = scratch.file("bundle.json")
        #expect(run(["export", "--store", store, "-o", bundle]).status == .success)
        let fromBundle = ["--bundle", bundle, "--state", scratch.file("b.sqlite")]
        #expect(run(["engine", "next"] + fromBundle).stdout == "HighlightTip\n")
        #expect(run(["engine", "next", "--bundle", bundle, "--store", store]).status == .usage)

        // HighlightTip becomes `republish: reset`, InlineTip stays `keep`; both are dismissed, then both change.
        let catalog = scratch.file("Catalog")
        let highlight = catalog + "/tips/HighlightTip.json"
        let inline = catalog + "/tips/InlineTip.json"
        var text = try String(contentsOfFile: highlight, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"title\":", with: "\"republish\": \"reset\",\n  \"title\":")
        try text.write(toFile: highlight, atomically: true, encoding: .utf8)
        #expect(run(["publish", "--catalog", catalog, "--store", store, "--author", "Test"]).status == .success)
        let common = ["--store", store, "--state", scratch.file("r.sqlite")]
        #expect(run(["engine", "dismiss", "HighlightTip"] + common).stdout == "HighlightTip: invalidated(tipClosed)\n")
        #expect(run(["engine", "dismiss", "InlineTip"] + common).stdout == "InlineTip: invalidated(tipClosed)\n")
        for path in [highlight, inline] {
            var content = try String(contentsOfFile: path, encoding: .utf8)
            content = content.replacingOccurrences(of: "\"title\": \"", with: "\"title\": \"New: ")
            try content.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let published = run(["publish", "--catalog", catalog, "--store", store, "--author", "Test"])
        #expect(published.status == .success, "\(published.stderr)")
        let after = run(["engine", "status"] + common).stdout
        #expect(after.contains("production at version 3"), "\(after)")
        let lines = after.split(separator: "\n")
        #expect(lines.first { $0.hasPrefix("HighlightTip ") }?.contains("available") == true, "\(after)")
        #expect(lines.first { $0.hasPrefix("InlineTip ") }?.contains("invalidated(tipClosed)") == true, "\(after)")
        // The same version again changes nothing: HighlightTip stays dismissed once dismissed again.
        #expect(run(["engine", "dismiss", "HighlightTip"] + common).status == .success)
        #expect(run(["engine", "status"] + common).stdout.split(separator: "\n").first { $0.hasPrefix("HighlightTip ") }?.contains("invalidated") == true)
    }

    /// Reusable tips by custom ID: dismissing one instance leaves the other eligible, across processes.
    @Test func customIDInstancesAreSeparate() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite")]
        func trail(_ id: String, _ name: String) -> [String] {
            ["--param", "trail.id=\(id)", "--param", "trail.name=\(name)", "--param", "trail.region=Wasatch"]
        }
        let dismissed = run(["engine", "dismiss", "NewTrailTip"] + trail("butler-fork", "Butler Fork") + common)
        #expect(dismissed.stdout == "NewTrailTip-butler-fork: invalidated(tipClosed)\n", "\(dismissed.stderr)")
        let why = run(["engine", "why", "NewTrailTip"] + trail("silver-lake", "Silver Lake") + common)
        #expect(why.stdout.hasPrefix("NewTrailTip-silver-lake: pending"), "\(why.stdout)")
        #expect(run(["engine", "why", "NewTrailTip-butler-fork"] + common).stdout.hasPrefix("NewTrailTip-butler-fork: invalidated(tipClosed)"))
        let shown = run(["engine", "show", "NewTrailTip-silver-lake"] + common)
        #expect(shown.stdout.contains("Silver Lake"), "\(shown.stderr)")
        #expect(run(["engine", "why", "NewTrailTip"] + common).stderr.contains("has 2 instances"))
        #expect(run(["engine", "why", "NewTrailTip", "--param", "trail.idd=x"] + common).stderr == "error: NewTrailTip has no parameter 'trail.idd'\n")
    }

    /// `donate --at` dates a donation in the past; a date after now or a malformed one is refused.
    @Test func donateAtAPastTime() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite"), "--now", "2026-01-05T10:00:00Z"]
        #expect(run(["engine", "set", "isLoggedIn", "true"] + common).status == .success)
        for day in 1...3 {
            let donated = run(["engine", "donate", "entered-backyard-detail-view", "backyardID=3", "--at", "2026-01-0\(day)T08:00:00Z"] + common)
            #expect(donated.stdout == "donated #entered-backyard-detail-view backyardID=3 at 2026-01-0\(day)T08:00:00Z\n", "\(donated.stderr)")
        }
        // Three visits within the last five days: the donations kept their dates, not "now".
        #expect(run(["engine", "why", "FavoriteBackyardTip"] + common).stdout.hasPrefix("FavoriteBackyardTip: available"))
        #expect(run(["engine", "why", "FavoriteBackyardTip", "--now", "2026-01-06T09:00:00Z"] + common.dropLast(2)).stdout.contains("unmet"))
        let future = run(["engine", "donate", "opened-map", "--at", "2026-01-05T10:00:01Z"] + common)
        #expect(future.status == .failure)
        #expect(future.stderr == "error: a donation of #opened-map dated 2026-01-05T10:00:01Z is in the future (now is 2026-01-05T10:00:00Z)\n")
        let malformed = run(["engine", "donate", "opened-map", "--at", "yesterday"] + common)
        #expect(malformed.status == .usage)
        #expect(malformed.stderr.contains("--at takes an ISO 8601 time"))
    }

    /// The state survives a restart and lives where it was asked to.
    @Test func sqliteStoreRoundTrips() throws {
        let scratch = try TemporaryDirectory()
        var store = try SQLiteTipStateStore(path: scratch.file("state.sqlite"))
        let time = Timestamp(secondsSince1970: 1_767_600_000)
        try store.appendDonation(StoredDonation(event: "visited-region", timestamp: time, values: ["region": .string("Wasatch"), "n": .int(-3), "d": .double(2.5), "ok": .bool(true), "at": .date(time)]))
        try store.appendDonation(StoredDonation(event: "visited-region", timestamp: time + TimeSpan(seconds: 60)))
        try store.appendDonation(StoredDonation(event: "visited-region", timestamp: time + TimeSpan(seconds: 120)))
        var record = TipRecord(tip: "NewTrailTip", parameters: ["trail": .record(["id": .string("butler-fork")])])
        record.invalidation = .displayCountExceeded
        record.displayCount = 5
        record.displayDuration = TimeSpan(seconds: 42.5)
        record.onScreenSince = time
        try store.saveTip(record, for: "NewTrailTip-butler-fork")
        try store.saveParameter(.list([.string("Rose"), .string("Tulip")]), for: "favoritePlants")
        try store.saveEngineRecord(EngineRecord(lastNewTipShown: time, catalogVersion: "abc", contentHashes: ["A": "1"]))
        try store.pruneDonations(of: "visited-region", keepingNewest: 2)

        let reopened = try SQLiteTipStateStore(path: scratch.file("state.sqlite"))
        let snapshot = try reopened.load()
        #expect(snapshot.donations.map(\.timestamp) == [time + TimeSpan(seconds: 60), time + TimeSpan(seconds: 120)])
        #expect(snapshot.tips["NewTrailTip-butler-fork"] == record)
        #expect(snapshot.parameters["favoritePlants"] == .list([.string("Rose"), .string("Tulip")]))
        #expect(snapshot.engine == EngineRecord(lastNewTipShown: time, catalogVersion: "abc", contentHashes: ["A": "1"]))
        var cleared = reopened
        try cleared.removeAll()
        #expect(try reopened.load() == TipStateSnapshot())
    }

    /// The engine record's hashes (one per tip) are read and decoded when first asked; a damaged copy reads as no hashes
    /// (no tip is then known to have changed) instead of failing every engine call.
    @Test func storedContentHashesAreReadWhenAskedAndDamageReadsAsNone() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.file("state.sqlite")
        var store = try SQLiteTipStateStore(path: path)
        try store.saveEngineRecord(EngineRecord(catalogVersion: "abc", contentHashes: ["A": "1", "B": "2"]))
        #expect(try SQLiteTipStateStore(path: path).load().engine.contentHashes == ["A": "1", "B": "2"])
        // Loading reads the version, not the hashes (hundreds of small pages at 20,000 tips): they are read from
        // the database when first asked, so a record written after the load is the one read.
        let loaded = try SQLiteTipStateStore(path: path).load().engine
        var other = try SQLiteTipStateStore(path: path)
        try other.saveEngineRecord(EngineRecord(catalogVersion: "abc", contentHashes: ["A": "3"]))
        #expect(loaded.contentHashes == ["A": "3"])
        try Connection(path: path).execute("UPDATE engine SET content_hashes = x'FF00FF' WHERE id = 1")
        let damaged = try SQLiteTipStateStore(path: path).load().engine
        #expect(damaged.catalogVersion == "abc")
        #expect(damaged.contentHashes.isEmpty)
    }
}

/// `engine show --device`: device variations of a published catalog.
@Suite struct EngineShowDeviceTests {
    @Test func showPicksTheDeviceVariation() throws {
        let scratch = try TemporaryDirectory()
        _ = try scratch.sampleCatalog()
        try scratch.write("Catalog/Localizable.xcstrings",
                          try String(contentsOfFile: repositoryRoot + "/Tests/Fixtures/xcstrings/device-variations.xcstrings", encoding: .utf8))
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite"), "--templates", repositoryRoot + "/Templates", "--width", "80",
                      "--locale", "fr"]
        let mac = run(["engine", "show", "ShowLocationTip", "--device", "mac"] + common)
        #expect(mac.status == .success, "\(mac.stderr)")
        #expect(mac.stdout == "(location.circle) Afficher votre position\nCliquez sur la boussole pour voir votre position sur la carte.\n")
        let plain = run(["engine", "show", "ShowLocationTip"] + common)
        #expect(plain.stdout.contains("Utilisez la boussole"), "\(plain.stdout)")
        let unknown = run(["engine", "show", "ShowLocationTip", "--device", "ipda"] + common)
        #expect(unknown.status == .usage)
        #expect(unknown.stderr.contains("unknown device 'ipda'; did you mean 'ipad'?"), "\(unknown.stderr)")
    }

    @Test func showUsesThePublishedPlatforms() throws {
        let scratch = try TemporaryDirectory()
        _ = try scratch.sampleCatalog()
        try scratch.write("Catalog/tips/ShowLocationTip.json", """
            {"id": "ShowLocationTip", "title": "Show your location", "message": "Tap the compass to highlight your current location on the map.",
             "image": "location.circle", "rules": ["$isMapVisible"],
             "platforms": {"mac": {"message": "Click the compass to highlight your current location on the map."}}}
            """)
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite"), "--templates", repositoryRoot + "/Templates", "--width", "80"]
        let mac = run(["engine", "show", "ShowLocationTip", "--device", "mac"] + common)
        #expect(mac.status == .success, "\(mac.stderr)")
        #expect(mac.stdout == "(location.circle) Show your location\nClick the compass to highlight your current location on the map.\n")
        #expect(run(["engine", "show", "ShowLocationTip"] + common).stdout.contains("Tap the compass"))
    }
}
