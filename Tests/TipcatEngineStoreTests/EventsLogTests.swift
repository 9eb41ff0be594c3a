import Foundation
import Testing
@testable import TipcatCLI
import TipcatCatalog
import TipcatCore
import TipcatEngine
import TipcatEngineStore
import TipcatTestSupport

/// The events log file: bounded by size and age, whole lines, corrupt lines reported; and `tipcat engine events`.
@Suite struct EventsLogTests {
    func event(_ seconds: Double, _ count: Int = 1, tip: String = "HighlightTip") -> TipEvent {
        TipEvent(time: Timestamp(secondsSince1970: 1_767_258_000 + seconds), kind: .shown(displayCount: count),
                 tip: TipID(tip), instance: TipInstanceID(tip))
    }

    func contents(_ path: String) -> String {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? "<missing>"
    }

    @Test func appendsWholeLines() throws {
        let scratch = try TemporaryDirectory()
        let log = TipEventLog(path: scratch.file("state.sqlite.events.jsonl"))
        try log.append([event(0), event(1, 2)], now: event(1).time)
        try log.append([], now: event(1).time)
        try log.append([event(2, 3)], now: event(2).time)
        #expect(contents(log.path) == """
            {"time":"2026-01-01T09:00:00Z","kind":"shown","tip":"HighlightTip","details":{"displayCount":1}}
            {"time":"2026-01-01T09:00:01Z","kind":"shown","tip":"HighlightTip","details":{"displayCount":2}}
            {"time":"2026-01-01T09:00:02Z","kind":"shown","tip":"HighlightTip","details":{"displayCount":3}}

            """)
        let (events, problems) = try log.read()
        #expect(events == [event(0), event(1, 2), event(2, 3)])
        #expect(problems.isEmpty)
    }

    @Test func sizeIsBounded() throws {
        let scratch = try TemporaryDirectory()
        let log = TipEventLog(path: scratch.file("events.jsonl"), limits: TipEventLog.Limits(maxBytes: 2_048))
        let lineLength = event(0).jsonLine.utf8.count + 1
        var sizes: [Int] = []
        for index in 0..<200 {
            try log.append([event(Double(index), index)], now: event(Double(index)).time)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int)
            #expect(size <= 2_048, "after append \(index): \(size) bytes")
            sizes.append(size)
        }
        // Trimmed to three quarters of the limit, then growing again: never more than the limit.
        #expect(sizes.max() ?? 0 > 2_048 - lineLength)
        let (events, problems) = try log.read()
        #expect(problems.isEmpty)
        #expect(events.last == event(199, 199))
        #expect(events.count == events.last.map { _ in events.count } ?? 0)
        // The newest events, consecutive, none lost in the middle.
        let counts = events.map { event -> Int in if case .shown(let count) = event.kind { return count } else { return -1 } }
        #expect(counts == Array((200 - counts.count)..<200))
        // A batch larger than the whole log keeps its newest lines.
        try log.append((0..<100).map { event(1_000 + Double($0), $0) }, now: event(1_100).time)
        #expect(try log.read().events.last == event(1_099, 99))
        #expect(try #require(try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) <= 2_048)
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["events.jsonl"])
    }

    @Test func oldEventsAreDropped() throws {
        let scratch = try TemporaryDirectory()
        let log = TipEventLog(path: scratch.file("events.jsonl"), limits: TipEventLog.Limits(maxAge: TimeSpan(seconds: 3_600)))
        try log.append([event(0), event(1_800, 2)], now: event(1_800).time)
        try log.append([event(3_000, 3)], now: event(3_000).time)
        #expect(try log.read().events.count == 3)
        // An hour after the first event, it goes (the second stays: exactly an hour old is kept).
        try log.append([event(5_400, 4)], now: event(5_400).time)
        #expect(try log.read().events == [event(1_800, 2), event(3_000, 3), event(5_400, 4)])
    }

    @Test func corruptLinesAreSkippedWithTheirNumbers() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.file("events.jsonl")
        try """
            {"time":"2026-01-01T09:00:00Z","kind":"shown","tip":"HighlightTip","details":{"displayCount":1}}
            not json
            {"time":"yesterday","kind":"shown","tip":"HighlightTip","details":{"displayCount":1}}

            {"time":"2026-01-01T09:00:01Z","kind":"exploded","tip":"HighlightTip","details":{}}
            {"time":"2026-01-01T09:00:01Z","kind":"invalidated","tip":"HighlightTip","details":{"reason":"bored"}}
            {"time":"2026-01-01T09:00:02Z","kind":"closed","tip":"HighlightTip","details":{"duration":2.5}}
            {"time":"2026-01-01T09:00:03Z","kind":"shown","tip":"HighlightTip","details":{"displayCou
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let log = TipEventLog(path: path)
        let (events, problems) = try log.read()
        #expect(events.map(\.jsonLine) == [
            #"{"time":"2026-01-01T09:00:00Z","kind":"shown","tip":"HighlightTip","details":{"displayCount":1}}"#,
            #"{"time":"2026-01-01T09:00:02Z","kind":"closed","tip":"HighlightTip","details":{"duration":2.5}}"#,
        ])
        #expect(problems.map(\.description) == [
            "line 2: not a JSON object",
            "line 3: 'time' is missing or not an ISO 8601 time",
            "line 5: unknown kind 'exploded'; expected shown, closed, actionPerformed, invalidated, suppressed",
            "line 6: an 'invalidated' event needs details.reason: actionPerformed, tipClosed, displayCountExceeded, displayDurationExceeded",
            "line 8: not a JSON object",
        ])
        // An append after a torn last line starts a new line; the torn line stays a problem, the new event is read.
        try log.append([event(10, 5)], now: event(10).time)
        let again = try log.read()
        #expect(again.events.last == event(10, 5))
        #expect(again.problems.last?.line == 8)
    }

    // MARK: tipcat engine …

    @Test func engineCommandsLogAndEventsPrintsThem() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let base = ["--store", store, "--state", scratch.file("state.sqlite")]
        #expect(run(["engine", "displayed", "HighlightTip", "--now", "2026-01-05T09:00:00Z"] + base).status == .success)
        #expect(run(["engine", "hidden", "HighlightTip", "--now", "2026-01-05T09:00:42Z"] + base).status == .success)
        let asked = run(["engine", "should-display", "FavoritePlantTip", "--now", "2026-01-05T09:01:00Z"] + base)
        #expect(asked.stdout == "FavoritePlantTip: no (suppressed: rules)\n")
        let acted = run(["engine", "action", "FavoriteBackyardTip", "learn-more", "--now", "2026-01-05T09:02:00Z"] + base)
        #expect(acted.stdout == "FavoriteBackyardTip: action learn-more; invalidated(actionPerformed)\n", "\(acted.stderr)")
        let unknown = run(["engine", "action", "FavoriteBackyardTip", "learn-mor"] + base)
        #expect(unknown.status == .failure)
        #expect(unknown.stderr == "error: FavoriteBackyardTip has no action 'learn-mor'; did you mean 'learn-more'?\n")
        #expect(contents(scratch.file("state.sqlite.events.jsonl")) == """
            {"time":"2026-01-05T09:00:00Z","kind":"shown","tip":"HighlightTip","details":{"displayCount":1}}
            {"time":"2026-01-05T09:00:42Z","kind":"closed","tip":"HighlightTip","details":{"duration":42}}
            {"time":"2026-01-05T09:01:00Z","kind":"suppressed","tip":"FavoritePlantTip","details":{"reason":"rules"}}
            {"time":"2026-01-05T09:02:00Z","kind":"actionPerformed","tip":"FavoriteBackyardTip","details":{"action":"learn-more"}}
            {"time":"2026-01-05T09:02:00Z","kind":"invalidated","tip":"FavoriteBackyardTip","details":{"reason":"actionPerformed"}}

            """)
        let table = run(["engine", "events"] + base)
        #expect(table.status == .success)
        #expect(table.stdout == """
            TIME                  KIND             TIP                  DETAILS
            2026-01-05T09:00:00Z  shown            HighlightTip         displayCount=1
            2026-01-05T09:00:42Z  closed           HighlightTip         duration=42
            2026-01-05T09:01:00Z  suppressed       FavoritePlantTip     reason=rules
            2026-01-05T09:02:00Z  actionPerformed  FavoriteBackyardTip  action=learn-more
            2026-01-05T09:02:00Z  invalidated      FavoriteBackyardTip  reason=actionPerformed

            """)
        // Relative --since counts back from the clock; an ISO time is absolute.
        let recent = run(["engine", "events", "--since", "89s", "--json", "--now", "2026-01-05T09:02:30Z"] + base)
        #expect(recent.stdout.contains(#""kind": "actionPerformed""#), "\(recent.stdout)")
        #expect(!recent.stdout.contains(#""kind": "suppressed""#))
        let since = run(["engine", "events", "--since", "2026-01-05T09:00:42Z"] + base)
        #expect(since.stdout.split(separator: "\n").count == 5)
        let bad = run(["engine", "events", "--since", "lately"] + base)
        #expect(bad.status == .usage)
        #expect(bad.stderr.contains("--since takes an ISO 8601 time (2026-01-05T08:00:00Z) or a duration back from now (30m, 1h, 7d), not 'lately'"))
    }

    /// `simulate --events` prints a script's events after the transcript; a script with `action` lines reads the
    /// tips' actions from the store even when a prepared snapshot (which leaves them out) exists.
    @Test func simulatePrintsEvents() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let base = ["--store", store, "--state", scratch.file("state.sqlite")]
        #expect(run(["engine", "next"] + base).status == .success)  // prepares the snapshot
        let script = scratch.file("events.tipsim")
        try "at 2026-01-01T09:00 displayed FavoriteBackyardTip\nadvance 10s\naction FavoriteBackyardTip learn-more\nshould-display FavoritePlantTip\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        let simulated = run(["engine", "simulate", script, "--events"] + base)
        #expect(simulated.status == .success, "\(simulated.stderr)")
        #expect(simulated.stdout.hasSuffix("""
            events:
            {"time":"2026-01-01T09:00:00Z","kind":"shown","tip":"FavoriteBackyardTip","details":{"displayCount":1}}
            {"time":"2026-01-01T09:00:10Z","kind":"actionPerformed","tip":"FavoriteBackyardTip","details":{"action":"learn-more"}}
            {"time":"2026-01-01T09:00:10Z","kind":"closed","tip":"FavoriteBackyardTip","details":{"duration":10}}
            {"time":"2026-01-01T09:00:10Z","kind":"invalidated","tip":"FavoriteBackyardTip","details":{"reason":"actionPerformed"}}
            {"time":"2026-01-01T09:00:10Z","kind":"suppressed","tip":"FavoritePlantTip","details":{"reason":"rules"}}
            \(script): 4 steps, 0 expectations met

            """), "\(simulated.stdout)")
        // A simulation never writes the log.
        #expect(!FileManager.default.fileExists(atPath: scratch.file("state.sqlite.events.jsonl")))
    }

    @Test func eventsJSONAndCorruptLines() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.file("state.sqlite.events.jsonl")
        try "{\"time\":\"2026-01-05T09:00:00Z\",\"kind\":\"shown\",\"tip\":\"NewTrailTip\",\"instance\":\"NewTrailTip-\\u001b[31mx\",\"details\":{\"displayCount\":1}}\ngarbage\u{1B}[2J\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let base = ["--state", scratch.file("state.sqlite")]
        let text = run(["engine", "events"] + base)
        #expect(text.status == .success)
        #expect(text.stderr == "\(path):2:1: warning: not a JSON object (line skipped) [events-log-line]\n")
        #expect(text.stdout.contains("NewTrailTip-?[31mx") || !text.stdout.contains("\u{1B}"), "\(text.stdout)")
        #expect(!text.stdout.contains("\u{1B}"))
        let json = run(["engine", "events", "--json"] + base)
        #expect(json.stdout == """
            {
              "log": "\(path)",
              "events": [
                {
                  "time": "2026-01-05T09:00:00Z",
                  "kind": "shown",
                  "tip": "NewTrailTip",
                  "instance": "NewTrailTip-\\u001b[31mx",
                  "details": {
                    "displayCount": 1
                  }
                }
              ],
              "skippedLines": [
                {
                  "line": 2,
                  "message": "not a JSON object"
                }
              ]
            }

            """)
    }

    @Test func aLogThatCannotBeWrittenIsAWarning() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let state = scratch.file("state.sqlite")
        try FileManager.default.createDirectory(atPath: state + ".events.jsonl", withIntermediateDirectories: true)
        let shown = run(["engine", "displayed", "HighlightTip", "--store", store, "--state", state])
        #expect(shown.status == .success)
        #expect(shown.stdout == "HighlightTip: displayed 1 time; available\n")
        #expect(shown.stderr.hasPrefix("warning: \(state).events.jsonl: cannot open the events log: Is a directory; 1 event was not logged"), "\(shown.stderr)")
        // The display counted all the same.
        #expect(run(["engine", "status", "--store", store, "--state", state]).stdout.contains("HighlightTip"))
        #expect(run(["engine", "why", "HighlightTip", "--store", store, "--state", state]).stdout.contains("display count: 1 (no maximum)"))
    }

    @Test func limitsComeFromFlagsAndEnvironment() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let base = ["--store", store, "--state", scratch.file("state.sqlite")]
        let small = run(["engine", "next", "--events-max-size", "12"] + base)
        #expect(small.status == .usage)
        #expect(small.stderr.contains("--events-max-size takes a size of at least 1KiB such as 512KiB, 1MiB or 2000000, not '12'"))
        let age = run(["engine", "next"] + base, environment: ["TIPCAT_EVENTS_MAX_AGE": "soon"])
        #expect(age.status == .usage)
        #expect(age.stderr.contains("TIPCAT_EVENTS_MAX_AGE takes a duration such as 12h, 30d or 1w, not 'soon'"))
        for minute in 0..<40 {
            let time = "2026-01-05T09:\(minute < 10 ? "0" : "")\(minute):00Z"
            #expect(run(["engine", "displayed", "HighlightTip", "--now", time] + base, environment: ["TIPCAT_EVENTS_MAX_SIZE": "1KiB"]).status == .success)
        }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: scratch.file("state.sqlite.events.jsonl"))[.size] as? Int)
        #expect(size <= 1_024)
        #expect(EngineAccess.byteCount("1MiB") == 1_048_576)
        #expect(EngineAccess.byteCount("64K") == 65_536)
        #expect(EngineAccess.byteCount("-1") == nil)
        #expect(EngineAccess.byteCount("99999999999999999999M") == nil)
    }
}
