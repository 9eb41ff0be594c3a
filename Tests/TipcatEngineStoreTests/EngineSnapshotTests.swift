import Foundation
import Testing
@testable import TipcatCLI
import TipcatCatalog
import TipcatCore
import TipcatEngine
import TipcatEngineStore
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

        let engineLength = Int(EngineSnapshot.word(good, at: 80, bytes: 8))
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

    /// With a prepared snapshot, `engine donate` reads only the declarations and stores the donation without
    /// starting the engine: every answer (donations, mistakes, a donation from the future) and the decisions
    /// after them equal those of the whole engine reading the version from the store; a reset in the
    /// environment still wipes the state first.
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
}
