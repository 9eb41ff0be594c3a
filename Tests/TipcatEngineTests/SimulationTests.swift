import Testing
import TipcatCatalog
import TipcatCore
import TipcatEngine

/// Script parsing (located errors, never a crash) and runner behaviour.
@Suite struct SimulationTests {
    func diagnostics(_ text: String) -> [String] {
        SimulationScript.parse(text, path: "s.tipsim", catalog: sampleCatalog).diagnostics.map(\.description)
    }

    func run(_ text: String) -> SimulationResult {
        let (script, diagnostics) = SimulationScript.parse(text, path: "s.tipsim", catalog: sampleCatalog)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        return SimulationRunner(catalog: sampleCatalog).run(script)
    }

    @Test func malformedLinesGetLocatedErrors() {
        let script = """
            donate opened-mpa
            set isLoggedIn maybe
            frobnicate now
            at yesterday donate opened-map
            donate viewed-food-detail name="Apple isFavorite=true
            advance soon
            expect status ShowLocationTip done
            invalidate ShowLocationTip closed
            displayed ShowLocatonTip
              donate entered-backyard-detail-view backyardID=three   # a comment
            set favoritePlants [Rose, 3, "Sweet pea"
            repeat 0 donate opened-map
            configure frequency=sometimes
            register NewTrailTip trail.idd=x
            expect next --group compas none
            donate opened-map extra
            restart now
            expect
            set favoritePlants [Rose, Fern
            donate entered-backyard-detail-view backyard=3
            set launchCount
            advance 99999999999999999999d
            """
        #expect(diagnostics(script) == [
            "s.tipsim:1:8: error: unknown event 'opened-mpa'; did you mean 'opened-map'? [unknown-event]",
            "s.tipsim:2:16: error: expected true or false, found 'maybe' [invalid-value]",
            "s.tipsim:3:1: error: unknown command 'frobnicate' [unknown-command]",
            "s.tipsim:4:4: error: expected a time such as 2026-01-01T09:00, found 'yesterday' [invalid-value]",
            "s.tipsim:5:32: error: unterminated string: add a closing '\"' [simulate-syntax]",
            "s.tipsim:6:9: error: expected a duration such as 30m, 2h or 7d (at most 100 years), found 'soon' [invalid-value]",
            "s.tipsim:7:31: error: expected pending, available or invalidated(REASON), found 'done' [invalid-value]",
            "s.tipsim:8:28: error: unknown reason 'closed'; use one of actionPerformed, tipClosed, displayCountExceeded, displayDurationExceeded; did you mean 'tipClosed'? [invalid-value]",
            "s.tipsim:9:11: error: unknown tip 'ShowLocatonTip'; did you mean 'ShowLocationTip'? [unknown-tip]",
            "s.tipsim:10:50: error: expected a whole number, found 'three' [invalid-value]",
            "s.tipsim:11:20: error: expected a list such as [a, b], found '[Rose, 3, \"Sweet pea\"' [invalid-value]",
            "s.tipsim:12:8: error: expected a count from 1 to 100000, found '0' [invalid-value]",
            "s.tipsim:13:21: error: expected immediate, hourly, daily, weekly, monthly or a duration, found 'sometimes' [invalid-value]",
            "s.tipsim:14:22: error: NewTrailTip has no parameter 'trail.idd' [unknown-parameter]",
            "s.tipsim:15:21: error: unknown group 'compas'; did you mean 'compass'? [unknown-group]",
            "s.tipsim:16:19: error: expected name=value, found 'extra' [simulate-syntax]",
            "s.tipsim:17:9: error: unexpected 'now' [simulate-syntax]",
            "s.tipsim:18:7: error: expected next, status or explain after 'expect' [simulate-syntax]",
            "s.tipsim:19:20: error: expected a list such as [a, b], found '[Rose, Fern' [invalid-value]",
            "s.tipsim:20:37: error: unknown field 'backyard' of entered-backyard-detail-view; did you mean 'backyardID'? [unknown-field]",
            "s.tipsim:21:16: error: expected a value after 'launchCount' [simulate-syntax]",
            "s.tipsim:22:9: error: expected a duration such as 30m, 2h or 7d (at most 100 years), found '99999999999999999999d' [invalid-value]",
        ])
    }

    @Test func valuesOfEveryType() throws {
        let text = """
            at 2026-01-01T09:00+01:00 set favoritePlants [Rose, "Sweet pea", "a, b"]
            set firstLaunch 2025-12-01T00:00
            set mapMode "hybrid"
            set launchCount -3
            register NewTrailTip trail={id: butler-fork, name: "Butler Fork", region: Wasatch}
            register NewTrailTip trail.id=x trail.name="A \\"quoted\\" name" trail.region=Y
            donate viewed-food-detail name="Sweet potato" isFavorite=false
            """
        let (script, diagnostics) = SimulationScript.parse(text, path: "s.tipsim", catalog: sampleCatalog)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(script.steps.map(\.command) == [
            .set("favoritePlants", .set([.string("Rose"), .string("Sweet pea"), .string("a, b")])),
            .set("firstLaunch", .date(time("2025-12-01"))),
            .set("mapMode", .string("hybrid")),
            .set("launchCount", .int(-3)),
            .register("NewTrailTip", ["trail": .record(["id": .string("butler-fork"), "name": .string("Butler Fork"), "region": .string("Wasatch")])]),
            .register("NewTrailTip", ["trail": .record(["id": .string("x"), "name": .string("A \"quoted\" name"), "region": .string("Y")])]),
            .donate("viewed-food-detail", ["name": .string("Sweet potato"), "isFavorite": .bool(false)]),
        ])
        #expect(script.steps.first?.at == time("2026-01-01T08:00"))
    }

    @Test func runStopsAtTheFirstUnmetExpectationWithItsLine() async {
        let result = run("""
            # line 1
            expect next HighlightTip
            dismiss HighlightTip
            expect next HighlightTip
            expect next none
            """)
        #expect(!result.passed)
        #expect(result.stepsRun == 2)
        #expect(result.failure?.location == SourceLocation(file: "s.tipsim", line: 4, column: 1))
        #expect(result.failure?.message == "expected next to be HighlightTip, got InlineTip")
        #expect(result.failure?.explanation?.contains("invalidated (tipClosed)") == true)
    }

    @Test func engineErrorsAreLocated() async {
        let ambiguous = run("""
            register NewTrailTip trail.id=a trail.name=A trail.region=R
            register NewTrailTip trail.id=b trail.name=B trail.region=R
            displayed NewTrailTip
            """)
        #expect(ambiguous.failure?.location == SourceLocation(file: "s.tipsim", line: 3, column: 11))
        #expect(ambiguous.failure?.message == "tip 'NewTrailTip' has 2 instances; name one: NewTrailTip-a, NewTrailTip-b")
        let missing = run("register NewTrailTip trail.id=a")
        #expect(missing.failure?.message.hasPrefix("parameter 'trail' of NewTrailTip is {id: string, name: string, region: string}") == true)
        let late = run("""
            set isLoggedIn true
            configure frequency=daily
            """)
        #expect(late.failure?.location.line == 2)
        #expect(late.failure?.message.contains("already configured") == true)
        let future = run("""
            at 2026-02-01 set isLoggedIn true
            at 2026-01-01 expect next HighlightTip
            """)
        #expect(future.passed)
    }

    @Test func configureAndEnvironmentApplyToTheNextStart() async {
        let result = run("""
            env TIPCAT_HIDE_TIPS=HighlightTip
            configure frequency=2h
            expect next InlineTip
            displayed InlineTip
            dismiss InlineTip
            set isLoggedIn true
            expect next none
            advance 2h
            expect next ParameterRuleTip
            """)
        #expect(result.passed, "\(result.failure?.description ?? "")")
    }

    /// Random token soup and random bytes: parsing reports problems with valid locations, running never crashes.
    @Test func fuzzedScriptsNeverCrash() async {
        var generator = SeededGenerator(seed: 0x5EED)
        let pieces = [
            "at", "2026-01-01T09:00", "advance", "7d", "repeat", "3", "configure", "frequency=weekly", "show-all",
            "hide-tips=HighlightTip", "env", "TIPCAT_SHOW_ALL_TIPS=1", "donate", "opened-map", "viewed-food-detail",
            "name=\"A b\"", "isFavorite=true", "set", "isLoggedIn", "true", "favoritePlants", "[Rose, \"x", "]", "{",
            "register", "NewTrailTip", "trail.id=a", "trail.name=b", "trail.region=c", "displayed", "hidden", "dismiss",
            "invalidate", "tipClosed", "reset-eligibility", "delete-donations", "restart", "expect", "next", "--group",
            "compass", "status", "available", "explain", "\"x\"", "none", "#", "\"", "=", "é", "日本", "\u{0}", "\t",
            "ShowLocationTip", "NewTrailTip-a", "launchCount", "-1", "99999999999999999999",
        ]
        for _ in 0..<150 {
            var lines: [String] = []
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let count = Int.random(in: 0...6, using: &generator)
                lines.append((0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined(separator: " "))
            }
            var bytes = Array(lines.joined(separator: "\n").utf8)
            if Bool.random(using: &generator), !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0x80...0xFF, using: &generator)
            }
            let source = SourceFile(path: "fuzz.tipsim", bytes: bytes)
            let (script, diagnostics) = SimulationScript.parse(source, catalog: sampleCatalog)
            for diagnostic in diagnostics {
                let line = diagnostic.location?.line ?? 0
                #expect(line >= 1 && line <= source.lineCount)
            }
            _ = SimulationRunner(catalog: sampleCatalog).run(script)
        }
    }
}
