import Testing
import TipcatBenchSupport
import TipcatCatalog
import TipcatCore
import TipcatEngine
import TipcatLocalization

/// Groups, unusual catalogs, and the benchmark's plumbing.
@Suite struct GroupAndCatalogTests {
    @Test func firstAvailableGroupKeepsTheTipOnScreen() async throws {
        let engine = try await sampleEngine()
        try await engine.register("FindTrailheadTip", parameters: ["count": .int(3)])
        try await engine.donate("visited-region", ["region": .string("Uinta")])
        try await engine.donate("visited-region", ["region": .string("Uinta")])
        // SlopeProfileTip is eligible; FindTrailheadTip (first in the group) is not yet.
        #expect(try await engine.currentTip(group: "trail") == "SlopeProfileTip")
        try await engine.displayed("SlopeProfileTip")
        try await engine.setParameter("isPowerUser", to: .bool(true))
        #expect(try await engine.status(of: "FindTrailheadTip") == .available)
        // SlopeProfileTip is on screen and still eligible: it stays the group's tip …
        #expect(try await engine.currentTip(group: "trail") == "SlopeProfileTip")
        try await engine.hidden("SlopeProfileTip")
        // … until it is hidden; then the first available member wins.
        #expect(try await engine.currentTip(group: "trail") == "FindTrailheadTip")
        let explanation = try await engine.explain("SlopeProfileTip")
        #expect(explanation.status == .available)
        #expect(!explanation.mayShow)
        #expect(explanation.reasons == [.groupShowsAnother("trail", current: "FindTrailheadTip")])
        await #expect(throws: TipEngineError.unknownGroup("trial", suggestion: "trail")) {
            try await engine.currentTip(group: "trial")
        }
    }

    /// A catalog built in code: tips with the given rules and no declarations beyond `opened-map`.
    func catalog(_ tips: [(String, [String])]) -> Catalog {
        let settings = CatalogSettings(name: "t", sourceLanguage: .english, supportedLocales: [.english])
        return Catalog(
            root: "t", settings: settings, events: [EventDeclaration(id: "opened-map")],
            tips: tips.map { id, rules in
                Tip(id: TipID(id), title: LocalizedText(key: "\(id).title", source: id, message: nil),
                    rules: rules.map { TipRule(source: $0) }, file: "t/\(id).json")
            },
            localizations: LocalizationTable(sourceLanguage: .english))
    }

    @Test func tipReferenceCyclesReadAsPending() async throws {
        let cycle = catalog([("A", ["tip(B).invalidated || tip(B).pending"]), ("B", ["tip(A).available"])])
        let engine = TipEngine(catalog: cycle)
        try await engine.configure(TipEngineConfiguration(clock: FixedClock(time("2026-01-01"))))
        // A sees B pending (B waits on A, which is being decided), so A is available; B then sees A available.
        #expect(try await engine.status(of: "A") == .available)
        #expect(try await engine.status(of: "B") == .available)
        #expect(try await engine.next() == "A")
    }

    @Test func aRuleCanAskWhyAnotherTipWasInvalidated() async throws {
        let tips = catalog([("Next", ["tip(Onboarding).invalidated(.actionPerformed)"]), ("Again", ["tip(Onboarding).invalidated(.tipClosed)"]),
                            ("Onboarding", [])])
        let closed = TipEngine(catalog: tips)
        try await closed.configure(TipEngineConfiguration(clock: FixedClock(time("2026-01-01"))))
        #expect(try await closed.status(of: "Next") == .pending)
        try await closed.invalidate("Onboarding", reason: .tipClosed)
        #expect(try await closed.status(of: "Next") == .pending)
        #expect(try await closed.status(of: "Again") == .available)

        let acted = TipEngine(catalog: tips)
        try await acted.configure(TipEngineConfiguration(clock: FixedClock(time("2026-01-01"))))
        try await acted.invalidate("Onboarding", reason: .actionPerformed)
        #expect(try await acted.status(of: "Next") == .available)
        #expect(try await acted.status(of: "Again") == .pending)
    }

    @Test func rulesThatDoNotCheckKeepTheirTipHidden() async throws {
        let broken = catalog([("A", ["#opened-mapp.count > 0"]), ("B", [])])
        let engine = TipEngine(catalog: broken)
        #expect(engine.diagnostics.map(\.message) == [
            "rule 1 of A does not check, so the tip never shows: unknown event '#opened-mapp'; did you mean '#opened-map'?",
        ])
        try await engine.configure(TipEngineConfiguration(clock: FixedClock(time("2026-01-01"))))
        #expect(try await engine.status(of: "A") == .pending)
        #expect(try await engine.next() == "B")
        let explanation = try await engine.explain("A")
        #expect(explanation.reasons.map(\.description) == [
            "rule 1 does not check: unknown event '#opened-mapp'; did you mean '#opened-map'?",
        ])
    }

    @Test func customIDsMayNotCollide() async throws {
        var colliding = catalog([("Tab", []), ("Card", []), ("Other", [])])
        let template = try Message.parse("Ta{suffix}")
        for index in colliding.tips.indices where colliding.tips[index].id != "Tab" {
            colliding.tips[index].parameters = [.init("suffix", .string)]
            colliding.tips[index].customID = LocalizedText(key: "x", source: "Ta{suffix}", message: template)
        }
        let engine = TipEngine(catalog: colliding)
        try await engine.configure(TipEngineConfiguration(clock: FixedClock(time("2026-01-01"))))
        await #expect(throws: TipEngineError.invalidCustomID("Card", reason: "'Tab' is already an instance of Tab")) {
            try await engine.register("Card", parameters: ["suffix": .string("b")])
        }
        #expect(try await engine.register("Card", parameters: ["suffix": .string("x")]) == "Tax")
        await #expect(throws: TipEngineError.invalidCustomID("Other", reason: "'Tax' is already an instance of Card")) {
            try await engine.register("Other", parameters: ["suffix": .string("x")])
        }
        await #expect(throws: TipEngineError.unknownParameter("Card.sufix", suggestion: "suffix")) {
            try await engine.register("Card", parameters: ["suffix": .string("y"), "sufix": .string("y")])
        }
        // Displaying an invalidated tip changes nothing.
        try await engine.dismiss("Tax")
        try await engine.displayed("Tax")
        let explanation = try await engine.explain("Tax")
        #expect(explanation.displayCount == 0)
        #expect(explanation.status == .invalidated(.tipClosed))
    }

    @Test func benchmarkRunsAndReports() async {
        let report = await EngineBenchmark.run(tips: 40, donations: 500, scale: 2, samples: 5, coldStartSizes: [60])
        #expect(report.donationCounts == [500, 1000])
        #expect(report.sections.count == 2)
        #expect(report.sections.allSatisfy { $0.figures.count == 10 })
        #expect(report.sections.flatMap(\.figures).allSatisfy { $0.values.count == 2 && $0.values.allSatisfy { $0.isFinite && $0 >= 0 } })
        #expect(report.sections[1].notes.allSatisfy { $0.contains("0 of 40 tips available") })
        #expect(report.coldStarts.map(\.tips) == [60])
        #expect(report.description.contains("next() median"))
        // Donate and the four next() medians/first decisions carry a goal each, in both sections.
        #expect(report.goalLines.count == 10)
        #expect(report.goalLines.allSatisfy { $0.contains(": met") || $0.contains(": NOT met") })
    }

    @Test func benchmarkGoalsSayMetOrNotMet() {
        let slow = EngineBenchmark.Figure(name: "next()", values: [400, 1200], unit: "µs", atMost: 1000, flat: true)
        let line = slow.goalLines(section: "worst case", counts: [100, 1000]).joined()
        #expect(line == "  worst case, next(): 400 → 1,200 µs at 100 → 1,000 donations  (goal < 1,000 µs: NOT met; flat, ≤ 1.50×: NOT met (3.00×))")
        let fast = EngineBenchmark.Figure(name: "donate", values: [30_000, 25_000], unit: "/s", atLeast: 20_000)
        #expect(fast.goalLines(section: "s", counts: [1, 10]).joined().hasSuffix("(goal ≥ 20,000 /s: met)"))
        #expect(EngineBenchmark.Figure(name: "p99", values: [1, 2], unit: "µs").goalLines(section: "s", counts: [1, 10]).isEmpty)
    }
}
