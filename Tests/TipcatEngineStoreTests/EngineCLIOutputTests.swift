import Foundation
import Testing
import TipcatCore
import TipcatTestSupport

/// What the engine commands print: values parsed by their declared type, explanations as rules evaluate.
@Suite struct EngineCLIOutputTests {
    /// `engine set` of a string parameter takes the bare word, and a JSON string unquoted once; `why` quotes once.
    @Test func setParsesAStringByItsDeclaredType() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite")]
        let quoted = run(["engine", "set", "mapMode", "\"satellite\""] + common)
        #expect(quoted.status == .success, "\(quoted.stderr)")
        #expect(quoted.stdout == "$mapMode = satellite\n")
        let why = run(["engine", "why", "RotateMapTip"] + common)
        #expect(why.stdout.contains("      ✓ $mapMode == \"satellite\": \"satellite\" == \"satellite\"\n"), "\(why.stdout)")
        #expect(!why.stdout.contains("\"\"satellite\"\""))
        let bare = run(["engine", "set", "mapMode", "hybrid"] + common)
        #expect(bare.stdout == "$mapMode = hybrid\n")
        #expect(run(["engine", "why", "RotateMapTip"] + common).stdout.contains("✓ $mapMode == \"hybrid\": \"hybrid\" == \"hybrid\"\n"))
        // A quote inside the word is kept: only a whole JSON string is unquoted.
        #expect(run(["engine", "set", "mapMode", "say \"hi\""] + common).stdout == "$mapMode = say \"hi\"\n")
    }

    /// `why` marks a negation by its own result, not by the result of the rule inside it.
    @Test func whyShowsNegationsAsTheyEvaluate() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite")]
        let rotate = run(["engine", "why", "RotateMapTip"] + common)
        #expect(rotate.stdout.contains("      ✗ !(#opened-map.count == 0): 0 == 0\n"), "\(rotate.stdout)")
        #expect(!rotate.stdout.contains("✓ (#opened-map.count == 0)"))
        let password = run(["engine", "why", "PasswordResetTip"] + common)
        #expect(password.stdout.contains("  ✓ !$isLoggedIn\n      ✓ !$isLoggedIn: $isLoggedIn is false\n"), "\(password.stdout)")
    }

    /// `status` keeps a long status whole and lists tips with parameters that have no instance yet.
    @Test func statusShowsLongStatusesAndTipsWithoutInstances() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite")]
        #expect(run(["engine", "invalidate", "HighlightTip", "--reason", "displayCountExceeded"] + common).status == .success)
        let status = run(["engine", "status"] + common)
        // The status column is as wide as its longest entry (34 columns here), the tip column as its longest id
        // (com.example.trails.plan-tomorrow, 32) and two spaces.
        func tip(_ id: String) -> String { id.padding(toLength: 34, withPad: " ", startingAt: 0) }
        #expect(status.stdout.contains("\n\(tip("TIP"))STATUS                              SHOWN  ON SCREEN\n"), "\(status.stdout)")
        #expect(status.stdout.contains("\n\(tip("HighlightTip"))invalidated(displayCountExceeded)       0  no\n"), "\(status.stdout)")
        #expect(status.stdout.contains("\n\(tip("NewTrailTip"))no instance yet (needs parameters)      -  -\n"), "\(status.stdout)")
        #expect(status.stdout.contains("\n\(tip("FindTrailheadTip"))no instance yet (needs parameters)      -  -\n"), "\(status.stdout)")
    }

    /// `displayed` and `hidden` name the instance a tip id resolves to, and count that instance's displays.
    @Test func displayedAndHiddenNameTheSameInstance() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite")]
        let params = ["--param", "trail.id=butler-fork", "--param", "trail.name=Butler Fork", "--param", "trail.region=Wasatch"]
        let first = run(["engine", "displayed", "NewTrailTip"] + params + common)
        #expect(first.stdout == "NewTrailTip-butler-fork: displayed 1 time; pending\n", "\(first.stdout)\(first.stderr)")
        let byTip = run(["engine", "displayed", "NewTrailTip"] + common)
        #expect(byTip.stdout == "NewTrailTip-butler-fork: displayed 2 times; pending\n", "\(byTip.stdout)\(byTip.stderr)")
        let hidden = run(["engine", "hidden", "NewTrailTip"] + common)
        #expect(hidden.stdout == "NewTrailTip-butler-fork: hidden; pending\n", "\(hidden.stdout)\(hidden.stderr)")
    }

    /// `simulate --from-state` reports the tips of the saved state as restored, not new; summaries use plurals.
    @Test func simulateFromStateLabelsRestoredTips() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite")]
        #expect(run(["engine", "dismiss", "HighlightTip"] + common).status == .success)
        let script = scratch.file("what-if.tipsim")
        try "at 2026-01-05T08:00\nexpect status InlineTip available\n".write(toFile: script, atomically: true, encoding: .utf8)
        let restored = run(["engine", "simulate", script, "--from-state"] + common)
        #expect(restored.status == .success, "\(restored.stderr)")
        #expect(restored.stdout.contains("                      InlineTip: available (restored from the saved state)\n"), "\(restored.stdout)")
        #expect(!restored.stdout.contains("new →"), "\(restored.stdout)")
        #expect(restored.stdout.hasSuffix("\(script): 2 steps, 1 expectation met\n"), "\(restored.stdout)")
        let fresh = run(["engine", "simulate", script] + common)
        #expect(fresh.stdout.contains("                      InlineTip: new → available\n"), "\(fresh.stdout)")
    }

    /// Environment errors name the variable that holds the bad value; a script's unknown TIPCAT_ variable is an error.
    @Test func environmentErrorsNameTheirVariable() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite")]
        let hide = run(["engine", "next"] + common, environment: ["TIPCAT_HIDE_TIPS": "HighlightTip,Nope"])
        #expect(hide.status == .failure)
        #expect(hide.stderr == "error: TIPCAT_HIDE_TIPS=HighlightTip,Nope: unknown tip 'Nope'\n", "\(hide.stderr)")
        let show = run(["engine", "next"] + common, environment: ["TIPCAT_SHOW_TIPS": "HighlightTp"])
        #expect(show.stderr == "error: TIPCAT_SHOW_TIPS=HighlightTp: unknown tip 'HighlightTp'; did you mean 'HighlightTip'?\n", "\(show.stderr)")
        let flag = run(["engine", "next"] + common, environment: ["TIPCAT_HIDE_ALL_TIPS": "maybe"])
        #expect(flag.stderr == "error: TIPCAT_HIDE_ALL_TIPS=maybe: expected 1, true, yes or on, or 0, false, no, off or empty\n", "\(flag.stderr)")
        let script = scratch.file("env.tipsim")
        try "at 2026-01-05T08:00\nenv TIPCAT_HIDE_ALL_TIP=1\nexpect next HighlightTip\n".write(toFile: script, atomically: true, encoding: .utf8)
        let simulated = run(["engine", "simulate", script] + common)
        #expect(simulated.status == .failure)
        #expect(simulated.stderr.hasPrefix("\(script):2:5: error: the engine reads no variable TIPCAT_HIDE_ALL_TIP; it reads "), "\(simulated.stderr)")
        #expect(simulated.stderr.contains("did you mean 'TIPCAT_HIDE_ALL_TIPS'?"), "\(simulated.stderr)")
    }

    /// The ANSI style pads every button on both sides, the last one included.
    @Test func ansiButtonsKeepTheirRightPadding() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let shown = run(["engine", "show", "PasswordResetTip", "--style", "ansi", "--color", "always",
                         "--store", store, "--state", scratch.file("state.sqlite")])
        #expect(shown.status == .success, "\(shown.stderr)")
        #expect(shown.stdout.contains("\u{1B}[1;97;44m\u{A0}Reset Password\u{A0}\u{1B}[0m  \u{1B}[1;97;44m\u{A0}View our FAQ\u{A0}\u{1B}[0m"),
                "\(shown.stdout)")
    }

    func object(_ result: RunResult, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(result.status == .success, "\(result.stderr)", sourceLocation: sourceLocation)
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                            "\(result.stdout)", sourceLocation: sourceLocation)
    }

    /// The documented shapes of `engine status|next|why|show --json`.
    @Test func engineReadCommandsPrintJSON() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite")]
        #expect(run(["engine", "dismiss", "HighlightTip"] + common).status == .success)

        let status = try object(run(["engine", "status", "--json"] + common))
        #expect(Set(status.keys) == ["catalog", "state", "now", "displayFrequency", "enabled", "warnings", "tips", "next"])
        #expect(status["now"] as? String == "2026-01-05T08:00:00Z")
        #expect(status["next"] as? String == "InlineTip")
        let tips = try #require(status["tips"] as? [[String: Any]])
        let highlight = try #require(tips.first { $0["tip"] as? String == "HighlightTip" })
        #expect(Set(highlight.keys) == ["instance", "tip", "status", "displayCount", "onScreen"])
        #expect(highlight["instance"] as? String == "HighlightTip" && highlight["status"] as? String == "invalidated(tipClosed)")
        let newTrail = try #require(tips.first { $0["tip"] as? String == "NewTrailTip" })
        #expect(newTrail["instance"] is NSNull && newTrail["status"] is NSNull)

        let next = try object(run(["engine", "next", "--group", "compass", "--json"] + common))
        #expect(next["next"] is NSNull && next["group"] as? String == "compass")
        #expect(try object(run(["engine", "next", "--json"] + common))["next"] as? String == "InlineTip")

        let why = try object(run(["engine", "why", "PasswordResetTip", "--json"] + common))
        #expect(Set(why.keys) == ["instance", "tip", "now", "status", "mayShow", "isNext", "reasons", "rules", "displayCount",
                                  "maxDisplayCount", "displayDuration", "maxDisplayDuration", "onScreen", "displayFrequency",
                                  "ignoresDisplayFrequency", "group", "override", "catalogEnabled"])
        #expect(why["status"] as? String == "pending" && why["mayShow"] as? Bool == false)
        #expect(why["reasons"] as? [String] == ["rule 2 unmet: $hasSeenOnboarding — $hasSeenOnboarding is false"])
        let rules = try #require(why["rules"] as? [[String: Any]])
        #expect(rules.first?["source"] as? String == "!$isLoggedIn" && rules.first?["holds"] as? Bool == true)
        let conditions = try #require(rules.first?["conditions"] as? [[String: Any]])
        #expect(conditions.count == 1)
        #expect(Set(conditions[0].keys) == ["text", "holds", "summary"])
        #expect(conditions[0]["text"] as? String == "!$isLoggedIn" && conditions[0]["holds"] as? Bool == true)
        #expect(conditions[0]["summary"] as? String == "$isLoggedIn is false")
        #expect(why["maxDisplayCount"] is NSNull && why["group"] is NSNull && why["displayDuration"] as? Int == 0)

        let show = try object(run(["engine", "show", "ShowLocationTip", "--json"] + common))
        #expect(Set(show.keys) == ["instance", "tip", "style", "output", "locale", "text"])
        #expect(show["text"] as? String == run(["engine", "show", "ShowLocationTip"] + common).stdout)
    }
}
