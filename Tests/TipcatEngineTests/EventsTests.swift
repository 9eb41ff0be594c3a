import Synchronization
import Testing
import TipcatCatalog
import TipcatCore
import TipcatEngine

/// The events log's events: each kind produced by a scripted run, in order, as exact JSON lines.
@Suite struct EventsTests {
    func events(_ text: String) -> (lines: [String], result: SimulationResult) {
        let (script, diagnostics) = SimulationScript.parse(text, path: "events.tipsim", catalog: sampleCatalog)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        var runner = SimulationRunner(catalog: sampleCatalog)
        runner.recordsEvents = true
        let result = runner.run(script)
        #expect(result.passed, "\(result.failure.map(\.description) ?? "")")
        return (result.events.map(\.jsonLine), result)
    }

    @Test func everyKindInOrder() {
        let script = """
            configure frequency=daily hide-tips=InlineTip
            at 2026-01-01T09:00 should-display FavoritePlantTip     # rules: no favorite plants
            should-display HighlightTip                              # shows: no event
            displayed HighlightTip
            repeat 3 donate triggered-control
            should-display EventRuleTip                              # eligible, held back by the daily frequency
            should-display InlineTip                                 # hidden by an override
            advance 90s
            hidden HighlightTip
            advance 1d
            set mapMode satellite
            donate opened-map
            should-display RotateMapTip                              # available, but ShowLocationTip comes first
            restart
            set isLoggedIn true
            repeat 3 donate entered-backyard-detail-view backyardID=3
            displayed FavoriteBackyardTip
            advance 10s
            action FavoriteBackyardTip learn-more
            displayed OptionTip
            advance 10m
            expect status OptionTip invalidated(displayDurationExceeded)
            displayed HighlightTip
            dismiss HighlightTip
            register NewTrailTip trail.id=butler-fork trail.name="Butler \\"Fork\\"" trail.region=Wasatch
            displayed NewTrailTip-butler-fork
            should-display HighlightTip                              # invalidated: no event
            """
        let (lines, _) = events(script)
        #expect(lines == [
            #"{"time":"2026-01-01T09:00:00Z","kind":"suppressed","tip":"FavoritePlantTip","details":{"reason":"rules"}}"#,
            #"{"time":"2026-01-01T09:00:00Z","kind":"shown","tip":"HighlightTip","details":{"displayCount":1}}"#,
            #"{"time":"2026-01-01T09:00:00Z","kind":"suppressed","tip":"EventRuleTip","details":{"reason":"frequency"}}"#,
            #"{"time":"2026-01-01T09:00:00Z","kind":"suppressed","tip":"InlineTip","details":{"reason":"override"}}"#,
            #"{"time":"2026-01-01T09:01:30Z","kind":"closed","tip":"HighlightTip","details":{"duration":90}}"#,
            #"{"time":"2026-01-02T09:01:30Z","kind":"suppressed","tip":"RotateMapTip","details":{"reason":"group"}}"#,
            #"{"time":"2026-01-02T09:01:30Z","kind":"shown","tip":"FavoriteBackyardTip","details":{"displayCount":1}}"#,
            #"{"time":"2026-01-02T09:01:40Z","kind":"actionPerformed","tip":"FavoriteBackyardTip","details":{"action":"learn-more"}}"#,
            #"{"time":"2026-01-02T09:01:40Z","kind":"closed","tip":"FavoriteBackyardTip","details":{"duration":10}}"#,
            #"{"time":"2026-01-02T09:01:40Z","kind":"invalidated","tip":"FavoriteBackyardTip","details":{"reason":"actionPerformed"}}"#,
            #"{"time":"2026-01-02T09:01:40Z","kind":"shown","tip":"OptionTip","details":{"displayCount":1}}"#,
            #"{"time":"2026-01-02T09:06:40Z","kind":"closed","tip":"OptionTip","details":{"duration":300}}"#,
            #"{"time":"2026-01-02T09:06:40Z","kind":"invalidated","tip":"OptionTip","details":{"reason":"displayDurationExceeded"}}"#,
            #"{"time":"2026-01-02T09:11:40Z","kind":"shown","tip":"HighlightTip","details":{"displayCount":2}}"#,
            #"{"time":"2026-01-02T09:11:40Z","kind":"closed","tip":"HighlightTip","details":{"duration":0}}"#,
            #"{"time":"2026-01-02T09:11:40Z","kind":"invalidated","tip":"HighlightTip","details":{"reason":"tipClosed"}}"#,
            #"{"time":"2026-01-02T09:11:40Z","kind":"shown","tip":"NewTrailTip","instance":"NewTrailTip-butler-fork","details":{"displayCount":1}}"#,
        ])
    }

    @Test func displayCountLimitAndRedisplay() {
        let script = """
            at 2026-01-01T09:00 displayed FoodEventTip
            advance 5s
            displayed FoodEventTip          # the open display is closed; the limit of 1 invalidates it
            displayed FoodEventTip          # invalidated: nothing happens
            """
        #expect(events(script).lines == [
            #"{"time":"2026-01-01T09:00:00Z","kind":"shown","tip":"FoodEventTip","details":{"displayCount":1}}"#,
            #"{"time":"2026-01-01T09:00:05Z","kind":"closed","tip":"FoodEventTip","details":{"duration":5}}"#,
            #"{"time":"2026-01-01T09:00:05Z","kind":"invalidated","tip":"FoodEventTip","details":{"reason":"displayCountExceeded"}}"#,
        ])
    }

    @Test func nothingIsRecordedUnlessAsked() {
        let (script, _) = SimulationScript.parse("at 2026-01-01T09:00 displayed HighlightTip\nshould-display FavoritePlantTip",
                                                 path: "s.tipsim", catalog: sampleCatalog)
        let result = SimulationRunner(catalog: sampleCatalog).run(script)
        #expect(result.passed)
        #expect(result.events.isEmpty)
    }

    @Test func killSwitchSuppressesAsOverride() throws {
        var catalog = sampleCatalog
        catalog.settings.enabled = false
        var session = try TipEngineSession(catalog: catalog, store: InMemoryTipStateStore(),
                                           configuration: TipEngineConfiguration(clock: FixedClock(time("2026-01-01T09:00"))))
        session.recordsEvents = true
        #expect(try session.displayDecision("HighlightTip") == .suppressed(.override))
        #expect(session.takeEvents().map(\.jsonLine) == [
            #"{"time":"2026-01-01T09:00:00Z","kind":"suppressed","tip":"HighlightTip","details":{"reason":"override"}}"#,
        ])
        #expect(session.takeEvents().isEmpty)
    }

    @Test func unknownActionsAreErrors() throws {
        var session = try TipEngineSession(catalog: sampleCatalog, store: InMemoryTipStateStore(),
                                           configuration: TipEngineConfiguration(clock: FixedClock(time("2026-01-01T09:00"))))
        session.recordsEvents = true
        #expect(throws: TipEngineError.unknownAction(tip: "FavoriteBackyardTip", action: "learn-mor", suggestion: "learn-more")) {
            try session.performAction("FavoriteBackyardTip", action: "learn-mor")
        }
        #expect(session.takeEvents().isEmpty)
        #expect(try session.status(of: "FavoriteBackyardTip") == .pending)
        // The script language checks actions when it parses.
        let diagnostics = SimulationScript.parse("action HighlightTip go\naction FavoriteBackyardTip learn-mor", path: "s.tipsim", catalog: sampleCatalog)
            .diagnostics.map(\.description)
        #expect(diagnostics == [
            "s.tipsim:1:21: error: HighlightTip has no action 'go'; it has no actions [invalid-value]",
            "s.tipsim:2:28: error: FavoriteBackyardTip has no action 'learn-mor'; did you mean 'learn-more'? [invalid-value]",
        ])
    }

    @Test func jsonLinesEscapeHostileText() {
        let event = TipEvent(time: time("2026-01-01T09:00"), kind: .actionPerformed(action: "a\"b\\c\n\u{1B}[31m\u{2028}é"),
                             tip: "T", instance: "T-\"x\"")
        #expect(event.jsonLine == #"{"time":"2026-01-01T09:00:00Z","kind":"actionPerformed","tip":"T","instance":"T-\"x\"","details":{"action":"a\"b\\c\n\u001b[31m\u2028é"}}"#)
    }

    @Test func actorStreamsAndCallbacks() async throws {
        let engine = TipEngine(catalog: sampleCatalog)
        try await engine.configure(TipEngineConfiguration(clock: FixedClock(time("2026-01-01T09:00"))))
        let stream = await engine.events(bufferingNewest: 2)
        let seen = Collected()
        let token = await engine.onEvent { event in seen.add(event.kindName) }
        try await engine.displayed("HighlightTip")
        try await engine.dismiss("HighlightTip")
        // The stream kept the 2 newest of 3 events; the callback saw all 3.
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.kindName == "closed")
        #expect(await iterator.next()?.kindName == "invalidated")
        #expect(seen.values == ["shown", "closed", "invalidated"])
        await engine.removeEventHandler(token)
        #expect(try await engine.shouldDisplay("FavoritePlantTip") == false)
        #expect(await iterator.next()?.kind == .suppressed(.rules))
        #expect(seen.values == ["shown", "closed", "invalidated"])
    }
}

/// Strings collected by a `@Sendable` callback.
final class Collected: Sendable {
    private let items = Mutex<[String]>([])
    func add(_ item: String) { items.withLock { $0.append(item) } }
    var values: [String] { items.withLock { $0 } }
}
