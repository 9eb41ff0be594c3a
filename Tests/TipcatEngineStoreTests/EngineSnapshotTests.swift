import Foundation
import Testing
@testable import TipcatCLI
import TipcatCatalog
import TipcatCore
import TipcatEngine
import TipcatEngineStore
import TipcatStore
import TipcatTestSupport

/// The prepared engine snapshot beside the state database, `donate --batch`, and pruning of CLI donations.
@Suite struct EngineSnapshotTests {
    static let commands: [[String]] = [
        ["engine", "next"], ["engine", "why", "FavoriteBackyardTip", "--json"], ["engine", "status", "--json"],
        ["engine", "show", "HighlightTip", "--locale", "fr"], ["engine", "next", "--group", "compass", "--json"],
    ]

    func outputs(_ base: [String]) -> [String] {
        Self.commands.map { command in
            let result = run(command + base)
            return "\(result.status) \(result.stdout) \(result.stderr)"
        }
    }

    func bytes(_ path: String) -> [UInt8] { FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? [] }

    /// A truncated, re-keyed, older-format or damaged snapshot is never trusted: it is rebuilt (to the same
    /// bytes as a fresh one) and every decision equals a run that read the version from the store.
    @Test func damagedSnapshotsAreRebuiltWithIdenticalDecisions() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let state = scratch.file("device/state.sqlite")
        let snapshot = EngineSnapshot.path(forState: state)
        let base = ["--store", store, "--state", state]
        #expect(run(["engine", "set", "isLoggedIn", "true"] + base).status == .success)
        // Cold: every call reads the version from the store (the snapshot removed first).
        var cold: [String] = []
        for command in Self.commands {
            try? FileManager.default.removeItem(atPath: snapshot)
            let result = run(command + base)
            #expect(result.status == .success, "\(command) \(result.stderr)")
            cold.append("\(result.status) \(result.stdout) \(result.stderr)")
        }
        let good = bytes(snapshot)
        #expect(good.count > EngineSnapshot.headerSize)
        #expect(Array(good[0..<8]) == Array("TCENGSNP".utf8))
        // Warm: read from the snapshot, same answers, file untouched.
        #expect(outputs(base) == cold)
        #expect(bytes(snapshot) == good)

        let engineLength = Int(LittleEndian.word(good, at: 80, bytes: 8))
        var damages: [(String, [UInt8])] = []
        damages.append(("truncated", Array(good.dropLast(7))))
        damages.append(("cut in the header", Array(good.prefix(50))))
        var rekeyed = good
        rekeyed[16] = rekeyed[16] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        damages.append(("another version's hash", rekeyed))
        var older = good
        older[8] = 0
        damages.append(("older format", older))
        var flipped = good
        flipped[EngineSnapshot.headerSize + engineLength / 2] ^= 0x20
        damages.append(("a flipped byte in the engine section", flipped))
        var details = good
        for index in (EngineSnapshot.headerSize + engineLength)..<details.count { details[index] = UInt8(ascii: "x") }
        damages.append(("damaged tip details", details))
        damages.append(("empty", []))
        for (what, damaged) in damages {
            try Data(damaged).write(to: URL(fileURLWithPath: snapshot))
            #expect(outputs(base) == cold, "\(what)")
            if what != "damaged tip details" {
                #expect(bytes(snapshot) == good, "\(what): the snapshot was not rebuilt")
            }
        }
    }

    /// A new version on the channel makes the old snapshot stale: the next call prepares the new one.
    /// The first call prepares the snapshot from the owners' objects as stored, translations unparsed: the same
    /// bytes as a snapshot prepared from the version parsed whole.
    @Test func aSnapshotFromStoredObjectsEqualsOneFromParsedPieces() throws {
        let scratch = try TemporaryDirectory()
        let store = try SQLiteCatalogStore(path: try scratch.publishedStore(), mode: .readOnly)
        let record = try store.requireHead(of: .production)
        let (stripped, stored) = try store.storedPieces(of: record)
        let whole = try store.pieces(of: record)
        #expect(stripped.owners.values.allSatisfy { $0.strings == nil })
        #expect(whole.owners.values.contains { $0.strings != nil }, "the sample catalog has translations")
        let hash = record.contentHash.hex
        let fromStored = try EngineSnapshot.prepare(contentHash: hash, pieces: stripped, stored: stored, origin: "store@1")
        let fromParsed = try EngineSnapshot.prepare(contentHash: hash, pieces: whole, origin: "store@1")
        #expect(fromStored.bytes == fromParsed.bytes)
    }

    /// The snapshot is written a piece at a time (its details are never joined into one copy of the file): the
    /// file on disk is exactly the prepared snapshot's bytes.
    @Test func theWrittenSnapshotIsThePreparedOne() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.publishedStore()
        let state = scratch.file("state.sqlite")
        #expect(run(["engine", "next", "--store", path, "--state", state]).status == .success)
        let store = try SQLiteCatalogStore(path: path, mode: .readOnly)
        let record = try store.requireHead(of: .production)
        let (pieces, stored) = try store.storedPieces(of: record)
        let prepared = try EngineSnapshot.prepare(contentHash: record.contentHash.hex, pieces: pieces, stored: stored, origin: "store@1")
        #expect(prepared.details.count > 1)
        #expect(bytes(EngineSnapshot.path(forState: state)) == prepared.bytes)
    }

    @Test func aNewVersionReplacesTheSnapshot() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let state = scratch.file("state.sqlite")
        let base = ["--store", store, "--state", state]
        #expect(run(["engine", "next"] + base).status == .success)
        let first = bytes(EngineSnapshot.path(forState: state))
        let catalog = try scratch.sampleCatalog()
        let tipFile = catalog + "/tips/EventRuleTip.json"
        let text = try String(contentsOfFile: tipFile, encoding: .utf8)
        try text.replacingOccurrences(of: "\"rules\": [", with: "\"rules\": [\"$isLoggedIn\", ").write(toFile: tipFile, atomically: true, encoding: .utf8)
        let published = tipcat(["publish", "--catalog", catalog, "--store", store, "--author", "Test"])
        #expect(published.status == .success, "\(published.stderr)")
        let why = run(["engine", "why", "EventRuleTip"] + base)
        #expect(why.stdout.contains("$isLoggedIn is false"), "\(why.stdout)")
        let second = bytes(EngineSnapshot.path(forState: state))
        #expect(second != first)
        #expect(Array(second[16..<80]) != Array(first[16..<80]))
    }

    /// A batch is checked whole before anything is stored: a bad line N is reported as FILE:N:col and the
    /// state database keeps none of the batch's donations.
    @Test func batchWithABadLineStoresNothing() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let state = scratch.file("state.sqlite")
        let base = ["--store", store, "--state", state]
        let good = scratch.file("good.jsonl")
        try """
            {"event": "entered-backyard-detail-view", "values": {"backyardID": 3}, "at": "2026-01-05T07:00:00Z"}
            {"event": "#entered-backyard-detail-view", "values": {"backyardID": 3}}

            {"event": "opened-map"}

            """.write(toFile: good, atomically: true, encoding: .utf8)
        let donated = run(["engine", "donate", "--batch", good] + base)
        #expect(donated.status == .success, "\(donated.stderr)")
        #expect(donated.stdout == "donated 3 events from \(good)\n")
        #expect(try SQLiteTipStateStore(path: state).donationCount() == 3)

        let bad = scratch.file("bad.jsonl")
        try """
            {"event": "entered-backyard-detail-view", "values": {"backyardID": 4}}
            {"event": "opened-map"}
            {"event": "opened-mapp"}
            {"event": "entered-backyard-detail-view", "values": {"backyardID": "four"}}
            {"event": "opened-map", "at": "2027-01-01T00:00:00Z"}
            {"event": "opened-map",}

            """.write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = run(["engine", "donate", "--batch", bad] + base)
        #expect(refused.status == .failure)
        #expect(refused.stdout == "")
        #expect(refused.stderr == """
            \(bad):3:11: error: unknown event 'opened-mapp'; did you mean 'opened-map'? [donate-batch-line]
            \(bad):4:68: error: field 'backyardID' of #entered-backyard-detail-view is int [donate-batch-line]
            \(bad):5:31: error: "at" is 2027-01-01T00:00:00Z, later than now (2026-01-05T08:00:00Z) [donate-batch-line]
            \(bad):6:23: error: trailing comma is not allowed before '}' [donate-batch-line]
            error: \(bad): 4 bad lines; nothing from the batch was stored

            """, "\(refused.stderr)")
        #expect(try SQLiteTipStateStore(path: state).donationCount() == 3)

        // An event named on the command line as well as --batch is a usage error.
        let usage = run(["engine", "donate", "opened-map", "--batch", good] + base)
        #expect(usage.status == .usage)
    }

    /// Lines are checked on every core, thousands at a time: mistakes far apart in a long batch (CRLF line ends,
    /// blank lines) are still reported in file order with their own line numbers, and a good batch of the same
    /// length is donated whole.
    @Test func aLongBatchIsCheckedInFileOrder() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let state = scratch.file("state.sqlite")
        let base = ["--store", store, "--state", state]
        let count = 6_000
        func lines(badAt bad: Set<Int>) -> String {
            (1...count).map { number -> String in
                if number % 1000 == 0 { return "  " }
                return bad.contains(number) ? #"{"event": "opened-mapp"}"# : #"{"event": "opened-map"}"#
            }.joined(separator: "\r\n") + "\r\n"
        }
        let good = scratch.file("good.jsonl")
        try lines(badAt: []).write(toFile: good, atomically: true, encoding: .utf8)
        let donated = run(["engine", "donate", "--batch", good] + base)
        #expect(donated.status == .success, "\(donated.stderr)")
        #expect(donated.stdout == "donated \(count - count / 1000) events from \(good)\n")

        let bad = scratch.file("bad.jsonl")
        try lines(badAt: [5_999, 2, 4_097]).write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = run(["engine", "donate", "--batch", bad] + base)
        #expect(refused.status == .failure)
        #expect(refused.stderr == [2, 4_097, 5_999].map {
            "\(bad):\($0):11: error: unknown event 'opened-mapp'; did you mean 'opened-map'? [donate-batch-line]\n"
        }.joined() + "error: \(bad): 3 bad lines; nothing from the batch was stored\n", "\(refused.stderr)")
    }

    /// Donations through the CLI are pruned to the event's donationLimit.maxCount, as the engine prunes its
    /// store in a long-running process: one at a time and in a batch.
    @Test func cliDonationsArePrunedToMaxCount() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let events = catalog + "/events.json"
        let text = try String(contentsOfFile: events, encoding: .utf8)
        #expect(text.contains("\"maxCount\": 1000"))
        try text.replacingOccurrences(of: "\"maxCount\": 1000", with: "\"maxCount\": 5").write(toFile: events, atomically: true, encoding: .utf8)
        let store = scratch.file("store.sqlite")
        let published = tipcat(["publish", "--catalog", catalog, "--store", store, "--author", "Test"])
        #expect(published.status == .success, "\(published.stderr)")
        let state = scratch.file("state.sqlite")
        let base = ["--store", store, "--state", state]
        let event = EventID("entered-backyard-detail-view")
        for minute in 0..<8 {
            let donated = run(["engine", "donate", event.rawValue, "backyardID=\(minute)", "--at", "2026-01-05T07:0\(minute):00Z"] + base)
            #expect(donated.status == .success, "\(donated.stderr)")
            #expect(try SQLiteTipStateStore(path: state).donationCount(of: event) == min(minute + 1, 5))
        }
        // The newest five are kept.
        let kept = try SQLiteTipStateStore(path: state).load().donations.filter { $0.event == event }.map { $0.values["backyardID"] }
        #expect(Set(kept.compactMap { $0 }) == Set((3..<8).map { Value.int($0) }))

        let batch = scratch.file("batch.jsonl")
        try (0..<12).map { #"{"event": "entered-backyard-detail-view", "values": {"backyardID": \#(100 + $0)}}"# }
            .joined(separator: "\n").write(toFile: batch, atomically: true, encoding: .utf8)
        #expect(run(["engine", "donate", "--batch", batch] + base).status == .success)
        #expect(try SQLiteTipStateStore(path: state).donationCount(of: event) == 5)
        #expect(try SQLiteTipStateStore(path: state).donationCount(of: EventID("opened-map")) == 0)
    }

    /// With a prepared snapshot, `engine donate` and `engine set` read only the declarations and store the
    /// donation or value without starting the engine: every answer (donations, values, mistakes, a donation from
    /// the future, a transient parameter) and the decisions after them equal those of the whole engine reading
    /// the version from the store; a reset in the environment still wipes the state first.
    @Test func donationsWithASnapshotAnswerAsTheWholeEngine() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let donations: [[String]] = [
            ["engine", "donate", "entered-backyard-detail-view", "backyardID=7", "--at", "2026-01-05T07:00:00Z"],
            ["engine", "donate", "#opened-map"],
            ["engine", "donate", "opened-mapp"],
            ["engine", "donate", "entered-backyard-detail-view", "backyardID=seven"],
            ["engine", "donate", "entered-backyard-detail-view"],
            ["engine", "donate", "entered-backyard-detail-view", "backyardID=1", "color=red"],
            ["engine", "donate", "entered-backyard-detail-view", "backyardID=8", "--at", "2026-01-06T07:00:00Z"],
            ["engine", "donate", "entered-backyard-detail-view", "backyardID=9", "--at", "2026-01-05T07:59:00Z"],
            ["engine", "set", "isLoggedIn", "true"],
            ["engine", "set", "$mapMode", "satellite"],
            ["engine", "set", "isLoggedIn", "maybe"],
            ["engine", "set", "isLogedIn", "true"],
            ["engine", "set", "isMapVisible", "true"],
            ["engine", "set", "isLoggedIn"],
        ]
        func transcript(state: String, cold: Bool) -> [String] {
            let base = ["--store", store, "--state", state]
            // The first call prepares the snapshot; cold runs remove it before every donation.
            _ = run(["engine", "next"] + base)
            let answers = donations.map { command -> String in
                if cold { try? FileManager.default.removeItem(atPath: EngineSnapshot.path(forState: state)) }
                let result = run(command + base)
                return "\(result.status) \(result.stdout) \(result.stderr)"
            }
            let after = [["engine", "status", "--json"], ["engine", "why", "FavoriteBackyardTip", "--json"]].map { command -> String in
                let result = run(command + base)
                return "\(result.status) \(result.stdout) \(result.stderr)".replacingOccurrences(of: state, with: "STATE")
            }
            return answers + after
        }
        let warmState = scratch.file("warm/state.sqlite")
        let warm = transcript(state: warmState, cold: false)
        let cold = transcript(state: scratch.file("cold/state.sqlite"), cold: true)
        #expect(warm == cold)
        #expect(warm[0].hasPrefix("0 donated #entered-backyard-detail-view backyardID=7 at 2026-01-05T07:00:00"), "\(warm[0])")
        #expect(warm[2].contains("unknown event 'opened-mapp'"), "\(warm[2])")
        #expect(warm[6].hasPrefix("1  error: a donation of #entered-backyard-detail-view dated 2026-01-06T07:00:00Z is in the future"), "\(warm[6])")
        #expect(try SQLiteTipStateStore(path: warmState).donationCount(of: EventID("entered-backyard-detail-view")) == 2)
        #expect(warm[8] == "0 $isLoggedIn = true\n ")
        #expect(warm[12] == "0 $isMapVisible = true (transient: until the next engine start)\n ")
        #expect(try SQLiteTipStateStore(path: warmState).load().parameters[ParameterName("mapMode")] == .string("satellite"))

        // TIPCAT_RESET_DATASTORE: the whole engine starts and wipes the state before the donation.
        let reset = run(["engine", "donate", "#opened-map", "--store", store, "--state", warmState], environment: ["TIPCAT_RESET_DATASTORE": "1"])
        #expect(reset.status == .success, "\(reset.stderr)")
        #expect(try SQLiteTipStateStore(path: warmState).donationCount(of: EventID("entered-backyard-detail-view")) == 0)
        #expect(try SQLiteTipStateStore(path: warmState).donationCount(of: EventID("opened-map")) == 1)
    }
    /// `engine action` reads the tips' action ids from the snapshot (each device's too) and answers exactly as
    /// a run that read the version from the store, errors included; the snapshot is used, not rebuilt.
    @Test func actionsWithASnapshotAnswerAsAColdRun() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let tipFile = catalog + "/tips/PasswordResetTip.json"
        let text = try String(contentsOfFile: tipFile, encoding: .utf8)
        try text.replacingOccurrences(
            of: "\"rules\": [",
            with: "\"platforms\": {\"mac\": {\"actions\": [{\"id\": \"open-keychain\", \"title\": \"Open Keychain\"}]}},\n  \"rules\": ["
        ).write(toFile: tipFile, atomically: true, encoding: .utf8)
        let store = scratch.file(".tipcat/store.sqlite")
        let published = tipcat(["publish", "--catalog", catalog, "--store", store, "--author", "Test"])
        #expect(published.status == .success, "\(published.stderr)")
        let commands: [[String]] = [
            ["engine", "action", "PasswordResetTip", "faq"], ["engine", "action", "PasswordResetTip", "open-keychain"],
            ["engine", "action", "PasswordResetTip", "fac"], ["engine", "action", "FavoriteBackyardTip", "learn-more"],
            ["engine", "action", "HighlightTip", "anything"], ["engine", "status", "--json"],
        ]
        func transcript(state: String, cold: Bool) -> [String] {
            let base = ["--store", store, "--state", state]
            _ = run(["engine", "next"] + base)
            let snapshot = EngineSnapshot.path(forState: state)
            // A rebuilt snapshot is renamed into place: a new file.
            func inode() -> Int? { (try? FileManager.default.attributesOfItem(atPath: snapshot))?[.systemFileNumber] as? Int }
            let prepared = inode()
            return commands.map { command -> String in
                if cold { try? FileManager.default.removeItem(atPath: snapshot) }
                let result = run(command + base)
                if !cold { #expect(prepared != nil && inode() == prepared, "\(command): the snapshot was rebuilt") }
                return "\(result.status) \(result.stdout) \(result.stderr)".replacingOccurrences(of: state, with: "STATE")
            }
        }
        let warm = transcript(state: scratch.file("warm/state.sqlite"), cold: false)
        let cold = transcript(state: scratch.file("cold/state.sqlite"), cold: true)
        #expect(warm == cold)
        #expect(warm[0].hasPrefix("0 PasswordResetTip: action faq; invalidated"), "\(warm[0])")
        #expect(warm[1].hasPrefix("0 PasswordResetTip: action open-keychain;"), "\(warm[1])")
        #expect(warm[2].contains("faq"), "\(warm[2])")
        #expect(!warm[2].hasPrefix("0 "), "\(warm[2])")
    }

    /// Every engine command answers from a warm snapshot (compiled rules read back, no rule checked) exactly as
    /// a cold run that reads the version from the store before each command, on the sample catalog: event
    /// chains, app parameters, `tip(X)` references, a tip with an optional parameter, and rules that compile
    /// to no program (`contains`, a string parameter, `distinct`, `now.hour`, a tip parameter in `where`).
    @Test func everyEngineCommandDecidesWarmAsCold() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let trail = ["--param", "trail.id=butler-fork", "--param", "trail.name=Butler Fork", "--param", "trail.region=Wasatch"]
        let evening = ["--now", "2026-01-05T19:30:00Z"]
        var commands: [[String]] = [
            ["why", "FavoriteBackyardTip"], ["why", "RotateMapTip", "--json"], ["why", "FindTrailheadTip", "--param", "count=1"],
            ["why", "com.example.trails.plan-tomorrow"] + evening, ["why", "ComboTip"], ["why", "NewTrailTip"] + trail,
            ["set", "isLoggedIn", "true"], ["set", "mapMode", "satellite"], ["set", "launchCount", "12"],
            ["set", "favoritePlants", "Rose,Fern,Lily"], ["set", "firstLaunch", "2026-01-01T00:00:00Z"],
        ]
        for backyard in ["3", "3", "4", "3"] { commands.append(["donate", "entered-backyard-detail-view", "backyardID=\(backyard)"]) }
        for _ in 0..<3 { commands.append(["donate", "entered-backyard-list"]) }
        for _ in 0..<4 { commands.append(["donate", "visited-region", "region=Wasatch"]) }
        for (name, favorite) in [("a", "true"), ("b", "true"), ("a", "true"), ("c", "true"), ("a", "true")] {
            commands.append(["donate", "viewed-food-detail", "name=\(name)", "isFavorite=\(favorite)"])
        }
        commands += [
            ["donate", "opened-map"], ["donate", "opened-food-detail-view"], ["status", "--json"], ["next"], ["next", "--json"],
            ["next", "--group", "compass", "--json"], ["next", "--group", "trail"],
            ["should-display", "FavoritePlantTip"], ["should-display", "RotateMapTip", "--json"], ["should-display", "FoodEventTip"],
            ["why", "FoodEventTip"], ["why", "FavoritePlantTip"], ["why", "NewTrailTip"] + trail, ["why", "SlopeProfileTip"],
            ["displayed", "FavoriteBackyardTip"], ["hidden", "FavoriteBackyardTip"], ["dismiss", "FavoriteBackyardTip"], ["next"],
            ["action", "NewTrailTip", "go-there"] + trail, ["why", "com.example.trails.plan-tomorrow"] + evening,
            ["next"] + evening, ["invalidate", "InlineTip", "--reason", "tipClosed"], ["why", "ComboTip", "--json"],
            ["why", "FindTrailheadTip", "--param", "count=2", "--param", "trailhead=North Gate"],
            ["displayed", "FindTrailheadTip", "--param", "count=2"], ["why", "ExposureRatingTip"], ["next", "--group", "trail", "--json"],
            ["reset-eligibility", "FavoriteBackyardTip"], ["delete-donations", "opened-map"], ["why", "RotateMapTip"],
            ["show", "FavoriteBackyardTip", "--locale", "de"], ["status"], ["events", "--json"], ["reset", "ComboTip"], ["status", "--json"],
        ]
        func transcript(state: String, cold: Bool) -> [String] {
            let base = ["--store", store, "--state", state, "--time-zone", "UTC"]
            let snapshot = EngineSnapshot.path(forState: state)
            _ = run(["engine", "status"] + base)
            func inode() -> Int? { (try? FileManager.default.attributesOfItem(atPath: snapshot))?[.systemFileNumber] as? Int }
            let prepared = inode()
            return commands.map { command -> String in
                if cold { try? FileManager.default.removeItem(atPath: snapshot) }
                let result = run(["engine"] + command + base)
                if !cold { #expect(prepared != nil && inode() == prepared, "\(command): the snapshot was rebuilt") }
                return "\(command): \(result.status) \(result.stdout) \(result.stderr)".replacingOccurrences(of: state, with: "STATE")
            }
        }
        let warm = transcript(state: scratch.file("warm/state.sqlite"), cold: false)
        let cold = transcript(state: scratch.file("cold/state.sqlite"), cold: true)
        #expect(warm.count == cold.count)
        for (warm, cold) in zip(warm, cold) { #expect(warm == cold) }
        // The transcript decides something: tips became available and rules compiled to no program were evaluated.
        #expect(warm.contains { $0.hasPrefix("[\"next\"]: 0 ExposureRatingTip") }, "\(warm)")
        #expect(warm.contains { $0.hasPrefix("[\"should-display\", \"FoodEventTip\"]: 0 FoodEventTip: yes") }, "\(warm)")
        #expect(warm.contains { $0.hasPrefix("[\"displayed\", \"FavoriteBackyardTip\"]: 0 FavoriteBackyardTip: displayed 1 time; available") }, "\(warm)")
    }

    /// The state database is read while a snapshot is decoded; a state file that is not a database fails the
    /// command exactly as it does when the version is read from the store, and the snapshot is kept.
    @Test func aDamagedStateFailsTheSameWithASnapshot() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let state = scratch.file("state.sqlite")
        let snapshot = EngineSnapshot.path(forState: state)
        let base = ["--store", store, "--state", state]
        #expect(run(["engine", "next"] + base).status == .success)
        let good = bytes(snapshot)
        #expect(!good.isEmpty)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: state + suffix) }
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: state))
        let warm = run(["engine", "next"] + base)
        #expect(bytes(snapshot) == good)
        try FileManager.default.removeItem(atPath: snapshot)
        let cold = run(["engine", "next"] + base)
        #expect(warm.status == .failure)
        #expect(warm.status == cold.status)
        #expect(warm.stdout == cold.stdout && warm.stdout.isEmpty)
        #expect(warm.stderr == cold.stderr)
        #expect(warm.stderr.contains("state database"), "\(warm.stderr)")
    }

    /// Compiled rules that no longer read back (their bytes damaged, the engine section's checksum recomputed so
    /// the damage passes it) are refused: the snapshot is rebuilt and decisions equal a cold run.
    @Test func damagedCompiledRulesAreRefusedAndRebuilt() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let state = scratch.file("state.sqlite")
        let snapshot = EngineSnapshot.path(forState: state)
        let base = ["--store", store, "--state", state]
        #expect(run(["engine", "set", "isLoggedIn", "true"] + base).status == .success)
        let cold = outputs(base)
        let good = bytes(snapshot)
        let engineLength = Int(LittleEndian.word(good, at: 80, bytes: 8))
        let engineEnd = EngineSnapshot.headerSize + engineLength
        // The compiled rules start with "TCER" and run to the end of the engine section; the programs with "TCRP".
        let rulesStart = try #require(Self.find(Array("TCER".utf8), in: good, before: engineEnd))
        let programStart = try #require(Self.find(Array("TCRP".utf8), in: good, before: engineEnd))
        var damages: [(String, [UInt8])] = []
        var version = good
        version[programStart + 4] &+= 1
        damages.append(("programs of another compiler", version))
        var format = good
        format[rulesStart + 4] &+= 1
        damages.append(("compiled rules of another format", format))
        var magic = good
        magic[programStart] = UInt8(ascii: "X")
        damages.append(("not programs", magic))
        var random = SeededGenerator(seed: 0x5A9)
        for round in 0..<6 {
            var flipped = good
            flipped[Int.random(in: (programStart + 5)..<engineEnd, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            damages.append(("random flip \(round)", flipped))
        }
        for (what, damaged) in damages {
            try Data(Self.resealed(damaged, engineEnd: engineEnd)).write(to: URL(fileURLWithPath: snapshot))
            let answers = outputs(base)
            if what.hasPrefix("random") {
                // A flip may still read back as other valid programs; it never crashes the command.
                #expect(answers.allSatisfy { $0.hasPrefix("0 ") || $0.hasPrefix("1 ") }, "\(what): \(answers)")
            } else {
                #expect(answers == cold, "\(what)")
                #expect(bytes(snapshot) == good, "\(what): the snapshot was not rebuilt")
            }
        }
    }

    /// Tip records that do not read back (a record's length or bytes damaged, the checksum recomputed so the
    /// damage passes it) are refused: nothing decoded from them is kept, the snapshot is rebuilt and decisions
    /// equal a cold run; random damage never crashes a command.
    @Test func damagedTipRecordsAreRefusedAndRebuilt() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let state = scratch.file("state.sqlite")
        let snapshot = EngineSnapshot.path(forState: state)
        let base = ["--store", store, "--state", state]
        let cold = outputs(base)
        let good = bytes(snapshot)
        let engineEnd = EngineSnapshot.headerSize + Int(LittleEndian.word(good, at: 80, bytes: 8))
        // Where the records are: after the three declaration blobs, the limits flag, the tip count and the runs'
        // offsets, as a blob of their own.
        var reader = BinaryReader(bytes: Array(good[EngineSnapshot.headerSize..<engineEnd]))
        for _ in 0..<3 { _ = try reader.blob() }
        _ = try reader.bool()
        let tipCount = try reader.count()
        #expect(tipCount > 10)
        for _ in 0..<(try reader.count()) { _ = try reader.size() }
        let recordsLength = try reader.count()
        let recordsStart = EngineSnapshot.headerSize + reader.position
        // A tip's id said to run past its record, or cut short: the records before it decode, then the run fails.
        let id = Array("HighlightTip".utf8)
        let record = try #require((recordsStart..<(recordsStart + recordsLength - id.count)).first {
            Array(good[$0..<($0 + id.count)]) == id
        }) - 1
        #expect(good[record] == UInt8(id.count) && record > recordsStart)
        var overlong = good
        overlong[record] = 0x7F
        var shortened = good
        shortened[record] = 1
        for (what, damaged) in [("a record's id running past the records", overlong), ("a shortened id", shortened)] {
            try Data(Self.resealed(damaged, engineEnd: engineEnd)).write(to: URL(fileURLWithPath: snapshot))
            #expect(outputs(base) == cold, "\(what)")
            #expect(bytes(snapshot) == good, "\(what): the snapshot was not rebuilt")
        }
        var random = SeededGenerator(seed: 0x7EC)
        for round in 0..<8 {
            var flipped = good
            flipped[Int.random(in: recordsStart..<(recordsStart + recordsLength), using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            try Data(Self.resealed(flipped, engineEnd: engineEnd)).write(to: URL(fileURLWithPath: snapshot))
            let answers = outputs(base)
            #expect(answers.allSatisfy { $0.hasPrefix("0 ") || $0.hasPrefix("1 ") }, "random flip \(round): \(answers)")
        }
    }

    /// `damaged` with the engine section's checksum (header bytes 88–95) recomputed, so the damage passes it and
    /// only reading the section back can refuse it.
    static func resealed(_ damaged: [UInt8], engineEnd: Int) -> [UInt8] {
        var file = damaged
        let sum = FastChecksum.of(file[EngineSnapshot.headerSize..<engineEnd])
        for index in 0..<8 { file[88 + index] = UInt8(truncatingIfNeeded: sum >> (8 * UInt64(index))) }
        return file
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], before end: Int) -> Int? {
        guard end >= needle.count else { return nil }
        return (0...(end - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle }
    }

    /// What `donate` and `set` read: only the declarations part, trusted only when the header's own checksum
    /// and lengths for it match; anything else sends the command to the whole engine.
    @Test func declarationsAreCheckedOnTheirOwn() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let state = scratch.file("state.sqlite")
        #expect(run(["engine", "next", "--store", store, "--state", state]).status == .success)
        let path = EngineSnapshot.path(forState: state)
        let good = bytes(path)
        let contentHash = String(decoding: good[16..<80], as: UTF8.self)
        func declarations(_ file: [UInt8]) throws -> Catalog? {
            try Data(file).write(to: URL(fileURLWithPath: path))
            return EngineSnapshot.declarations(path: path, contentHash: contentHash, origin: "test")
        }
        let catalog = try #require(try declarations(good))
        #expect(catalog.events.map(\.id.rawValue).contains("entered-backyard-detail-view"))
        #expect(catalog.tips.isEmpty)
        var checksum = good
        checksum[104] ^= 0xFF
        #expect(try declarations(checksum) == nil)
        var length = good
        length[12] = length[12] == 0 ? 1 : 0
        #expect(try declarations(length) == nil)
        var altered = good
        altered[EngineSnapshot.headerSize + 3] ^= 0x01
        #expect(try declarations(altered) == nil)
        #expect(try declarations(Array(good.dropLast(1))) == nil)
        #expect(try declarations(good) != nil)
        #expect(EngineSnapshot.declarations(path: path, contentHash: String(repeating: "0", count: 64), origin: "test") == nil)
    }
}
