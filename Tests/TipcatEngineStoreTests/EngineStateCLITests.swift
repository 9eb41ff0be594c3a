import Foundation
import Testing
import TipcatCatalog
import TipcatCore
import TipcatEngineStore
import TipcatTestSupport

/// `tipcat engine export-state` and `tipcat engine merge-state`.
@Suite struct EngineStateCLITests {
    /// Two devices donate and show tips; each merges the other's export; both then decide alike, and merging
    /// again (or in the other order) changes nothing.
    @Test func exportAndMergeBetweenTwoDevices() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let phone = ["--store", store, "--state", scratch.file("phone.sqlite")]
        let laptop = ["--store", store, "--state", scratch.file("laptop.sqlite")]
        #expect(run(["engine", "set", "isLoggedIn", "true"] + phone).status == .success)
        for _ in 0..<2 { #expect(run(["engine", "donate", "entered-backyard-detail-view", "backyardID=3"] + phone).status == .success) }
        #expect(run(["engine", "donate", "entered-backyard-detail-view", "backyardID=3"] + laptop,
                    environment: ["TIPCAT_NOW": "2026-01-05T08:30:00Z"]).status == .success)
        #expect(run(["engine", "displayed", "HighlightTip"] + laptop).status == .success)
        #expect(run(["engine", "next"] + phone).stdout == "HighlightTip\n")

        let exported = run(["engine", "export-state", "-o", scratch.file("phone.json")] + phone)
        #expect(exported.status == .success)
        let phoneDevice = try SQLiteTipStateStore(path: scratch.file("phone.sqlite")).deviceID()
        #expect(exported.stdout == "Exported the state of device \(phoneDevice) (2 donations, 0 tip instances, 1 parameter) to \(scratch.file("phone.json")).\n")
        #expect(run(["engine", "export-state", "-o", scratch.file("laptop.json")] + laptop).status == .success)

        let merged = run(["engine", "merge-state", scratch.file("phone.json")] + laptop)
        #expect(merged.status == .success)
        #expect(merged.stdout == "Merged 1 state into \(scratch.file("laptop.sqlite")): 3 donations, 1 tip instance, 1 parameter.\n")
        #expect(run(["engine", "merge-state", scratch.file("laptop.json")] + phone).status == .success)

        // Both devices now know the laptop showed HighlightTip once and hold three donations, so the rule
        // "3 visits" holds everywhere.
        for device in [phone, laptop] {
            let why = run(["engine", "why", "FavoriteBackyardTip"] + device, environment: ["TIPCAT_NOW": "2026-01-05T09:00:00Z"])
            #expect(why.stdout.contains("3 of 3") || why.stdout.contains("3 >= 3"), "\(why.stdout)")
            let status = run(["engine", "status", "--json"] + device)
            #expect(status.stdout.contains("\"instance\": \"HighlightTip\",\n      \"tip\": \"HighlightTip\",\n      \"status\": \"available\",\n      \"displayCount\": 1,"),
                    "\(status.stdout)")
        }
        let phoneState = run(["engine", "export-state"] + phone).stdout
        let laptopState = run(["engine", "export-state"] + laptop).stdout
        #expect(try SyncStateFile(bytes: Array(phoneState.utf8), path: "p").state == SyncStateFile(bytes: Array(laptopState.utf8), path: "l").state)
        // Idempotent: merging the same files again changes nothing.
        #expect(run(["engine", "merge-state", scratch.file("phone.json"), scratch.file("laptop.json")] + phone).status == .success)
        #expect(run(["engine", "export-state"] + phone).stdout == phoneState)
    }

    /// A corrupt, truncated or future-format file (among good ones) is reported at its line and column, and
    /// nothing is merged: the state database is byte for byte what it exported before.
    @Test func badStateFilesMergeNothing() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let phone = ["--store", store, "--state", scratch.file("phone.sqlite")]
        let laptop = ["--store", store, "--state", scratch.file("laptop.sqlite")]
        #expect(run(["engine", "donate", "opened-map"] + phone).status == .success)
        #expect(run(["engine", "donate", "opened-map"] + laptop).status == .success)
        #expect(run(["engine", "export-state", "-o", scratch.file("phone.json")] + phone).status == .success)
        let good = try scratch.read("phone.json")
        try scratch.write("truncated.json", String(good.prefix(good.count - 40)))
        try scratch.write("future.json", good.replacingOccurrences(of: "\"format\": 1", with: "\"format\": 7"))
        try scratch.write("corrupt.json", good.replacingOccurrences(of: "\"donations\": [", with: "\"donations\": {"))
        let before = run(["engine", "export-state"] + laptop).stdout

        for name in ["truncated.json", "future.json", "corrupt.json"] {
            let result = run(["engine", "merge-state", scratch.file("phone.json"), scratch.file(name)] + laptop)
            #expect(result.status == .failure, "\(name)")
            #expect(result.stdout == "", "\(name)")
            #expect(result.stderr.hasSuffix("error: 1 bad state file; nothing was merged\n"), "\(name): \(result.stderr)")
            #expect(run(["engine", "export-state"] + laptop).stdout == before, "\(name) changed the state")
        }
        let future = run(["engine", "merge-state", scratch.file("future.json")] + laptop)
        #expect(future.stderr.hasPrefix(
            "\(scratch.file("future.json")):2:13: error: state format 7 is newer than this tipcat reads (1); upgrade tipcat [state-file]\n"))
        let truncated = run(["engine", "merge-state", scratch.file("truncated.json")] + laptop)
        #expect(truncated.stderr.hasPrefix("\(scratch.file("truncated.json")):"))
        #expect(truncated.stderr.contains(": error: not a state file: "))
        let missing = run(["engine", "merge-state", scratch.file("nope.json")] + laptop)
        #expect(missing.stderr.hasPrefix("\(scratch.file("nope.json")):1:1: error: cannot read the state file [state-file]\n"))
        #expect(run(["engine", "merge-state"] + laptop).status == .usage)
    }

    /// Control characters from donated values are escaped in the exported JSON.
    @Test func exportedStateEscapesControlCharacters() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let state = ["--store", store, "--state", scratch.file("state.sqlite")]
        #expect(run(["engine", "donate", "visited-region", "region=Wasatch\u{1B}[2J"] + state).status == .success)
        let plain = run(["engine", "export-state"] + state)
        #expect(plain.stdout.contains("Wasatch\u{1B}[2J") == false)  // JSON escapes ESC as \u001b
        #expect(plain.stdout.contains("\\u001b[2J"))
    }
}
