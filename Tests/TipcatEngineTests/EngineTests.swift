import Testing
import TipcatCatalog
import TipcatCore
import TipcatEngine
import TipcatRules

/// A configured engine over the sample catalog at a fixed time.
func sampleEngine(
    at start: String = "2026-01-01T09:00", catalog: Catalog = sampleCatalog, revision: CatalogRevision? = nil,
    store: any TipStateStore = InMemoryTipStateStore(), configuration: TipEngineConfiguration = TipEngineConfiguration()
) async throws -> TipEngine {
    let engine = TipEngine(catalog: catalog, revision: revision, store: store)
    var configuration = configuration
    configuration.clock = FixedClock(time(start))
    try await engine.configure(configuration)
    return engine
}

/// The same engine state in a new process: a new engine over the old one's store.
func restart(_ engine: TipEngine, configuration: TipEngineConfiguration = TipEngineConfiguration()) async throws -> TipEngine {
    let restarted = TipEngine(catalog: engine.catalog, store: await engine.stateStore)
    var configuration = configuration
    configuration.clock = FixedClock(await engine.now)
    try await restarted.configure(configuration)
    return restarted
}

extension TipEngine {
    func advance(_ span: TimeSpan) {
        setClock(FixedClock(now + span))
    }
}

@Suite struct EngineTests {
    @Test func sampleCatalogCompilesCleanly() async throws {
        let engine = TipEngine(catalog: sampleCatalog)
        #expect(engine.diagnostics.isEmpty, "\(engine.diagnostics)")
        #expect(sampleCatalog.tips.count == 17)
    }

    @Test func configuringTwiceFails() async throws {
        let engine = try await sampleEngine()
        await #expect(throws: TipEngineError.alreadyConfigured) { try await engine.configure() }
        let fresh = TipEngine(catalog: sampleCatalog)
        await #expect(throws: TipEngineError.notConfigured) { try await fresh.next() }
        await #expect(throws: TipEngineError.self) {
            try await fresh.configure(TipEngineConfiguration(displayFrequency: .custom(TimeSpan(seconds: 1e30))))
        }
        #expect(await !fresh.isConfigured)
        await #expect(throws: TipEngineError.notConfigured) { try await fresh.donate("opened-map") }
    }

    /// A catalog holding a duration or count `validate` calls out of range (one built in code, or from a bundle
    /// made by an older tipcat) is refused when the engine is configured, naming every value.
    @Test func catalogWithOutOfRangeValuesIsRefusedUpFront() async throws {
        var catalog = sampleCatalog
        catalog.settings.displayFrequency = .custom(TimeSpan(seconds: 200 * 365 * 86_400))
        let index = try #require(catalog.tips.firstIndex { $0.id == "HighlightTip" })
        catalog.tips[index].options.maxDisplayDuration = TimeSpan(seconds: 1e15)
        catalog.tips[index].options.maxDisplayCount = 5_000_000
        let engine = TipEngine(catalog: catalog)
        do {
            try await engine.configure()
            Issue.record("configured a catalog with out-of-range values")
        } catch {
            let text = error.description
            #expect(text.hasPrefix("invalid configuration: the catalog has values out of range (tipcat validate reports them): "), "\(text)")
            #expect(text.contains("'displayFrequency' in catalog.json must be at most 36500d (100 years), found 73000d"), "\(text)")
            #expect(text.contains("'maxDisplayDuration' in the options of tip 'HighlightTip' must be at most 36500d (100 years)"), "\(text)")
            #expect(text.contains("'maxDisplayCount' in the options of tip 'HighlightTip' must be between 1 and 1000000, found 5000000"), "\(text)")
        }
        #expect(await !engine.isConfigured)
        // The sample catalog itself is within range.
        #expect(CatalogLimits.problems(in: sampleCatalog).isEmpty)
    }

    @Test func freshStateOffersTipsWithoutRules() async throws {
        let engine = try await sampleEngine()
        #expect(try await engine.status(of: "HighlightTip") == .available)
        #expect(try await engine.status(of: "FavoriteBackyardTip") == .pending)
        // Catalog order: HighlightTip comes before InlineTip.
        #expect(try await engine.next() == "HighlightTip")
        try await engine.dismiss("HighlightTip")
        #expect(try await engine.status(of: "HighlightTip") == .invalidated(.tipClosed))
        #expect(try await engine.next() == "InlineTip")
    }

    @Test func explainNamesTheUnmetRules() async throws {
        let engine = try await sampleEngine()
        let explanation = try await engine.explain("FavoriteBackyardTip")
        #expect(explanation.status == .pending)
        #expect(!explanation.mayShow)
        #expect(explanation.rules.map(\.holds) == [false, false])
        let reasons = explanation.reasons.map(\.description)
        #expect(reasons == [
            "rule 1 unmet: $isLoggedIn — $isLoggedIn is false",
            "rule 2 unmet: #entered-backyard-detail-view.within(5d).largestSubset(backyardID).count >= 3 — 0 of 3",
        ])
        let text = explanation.description
        #expect(text.contains("FavoriteBackyardTip: pending, not shown"))
        #expect(text.contains("display count: 0 of 5"))
        #expect(text.contains("catalog: enabled"))
        #expect(text.contains("$isLoggedIn is false"))
        #expect(text.contains("0 of 3"))
    }

    @Test func donationsAreTypeChecked() async throws {
        let engine = try await sampleEngine()
        await #expect(throws: TipEngineError.unknownEvent("opened-mpa", suggestion: "opened-map")) {
            try await engine.donate("opened-mpa")
        }
        await #expect(throws: TipEngineError.missingField(event: "entered-backyard-detail-view", field: "backyardID")) {
            try await engine.donate("entered-backyard-detail-view")
        }
        await #expect(throws: TipEngineError.invalidValue(
            subject: "field 'backyardID' of #entered-backyard-detail-view", expected: .int, got: .string("3"))) {
            try await engine.donate("entered-backyard-detail-view", ["backyardID": .string("3")])
        }
        await #expect(throws: TipEngineError.unknownField(event: "entered-backyard-detail-view", field: "backyard", suggestion: "backyardID")) {
            try await engine.donate("entered-backyard-detail-view", ["backyardID": .int(3), "backyard": .int(1)])
        }
        await #expect(throws: TipEngineError.futureDonation(
            event: "opened-map", at: time("2026-01-01T09:01"), now: time("2026-01-01T09:00"))) {
            try await engine.donate("opened-map", at: time("2026-01-01T09:01"))
        }
        // A past date is fine and lands in time order.
        try await engine.donate("entered-backyard-detail-view", ["backyardID": .int(3)], at: time("2025-12-31T09:00"))
        try await engine.setParameter("isLoggedIn", to: .bool(true))
        try await engine.donate("entered-backyard-detail-view", ["backyardID": .int(3)])
        try await engine.donate("entered-backyard-detail-view", ["backyardID": .int(3)])
        #expect(try await engine.status(of: "FavoriteBackyardTip") == .available)
    }

    @Test func parametersAreTypeCheckedAndNormalized() async throws {
        let engine = try await sampleEngine()
        await #expect(throws: TipEngineError.invalidValue(subject: "$isLoggedIn", expected: .bool, got: .int(1))) {
            try await engine.setParameter("isLoggedIn", to: .int(1))
        }
        await #expect(throws: TipEngineError.unknownParameter("isLogedIn", suggestion: "isLoggedIn")) {
            try await engine.setParameter("isLogedIn", to: .bool(true))
        }
        try await engine.setParameter("favoritePlants", to: .list([.string("Rose"), .string("Rose"), .string("Fern")]))
        #expect(try await engine.parameter("favoritePlants") == .set([.string("Rose"), .string("Fern")]))
        #expect(try await engine.status(of: "FavoritePlantTip") == .pending)  // 2 distinct plants, not 3
        try await engine.setParameter("favoritePlants", to: .set([.string("Rose"), .string("Fern"), .string("Moss")]))
        #expect(try await engine.status(of: "FavoritePlantTip") == .available)
    }

    @Test func stateSurvivesARestartButTransientParametersDoNot() async throws {
        let engine = try await sampleEngine()
        try await engine.setParameter("isLoggedIn", to: .bool(true))
        try await engine.setParameter("isMapVisible", to: .bool(true))
        try await engine.donate("opened-map")
        try await engine.dismiss("HighlightTip")
        try await engine.displayed("InlineTip")
        let restarted = try await restart(engine)
        #expect(try await restarted.parameter("isLoggedIn") == .bool(true))
        #expect(try await restarted.parameter("isMapVisible") == .bool(false))
        #expect(try await restarted.status(of: "HighlightTip") == .invalidated(.tipClosed))
        let inline = try await restarted.explain("InlineTip")
        #expect(inline.displayCount == 1)
        #expect(inline.isOnScreen)
        let map = try await restarted.explain("RotateMapTip")
        #expect(map.rules.first?.conditions.first?.summary == "1 == 0")
    }

    @Test func maxDisplayCountInvalidatesAfterTheLastDisplay() async throws {
        let engine = try await sampleEngine()
        try await engine.setParameter("isLoggedIn", to: .bool(true))
        for _ in 0..<3 { try await engine.donate("entered-backyard-detail-view", ["backyardID": .int(7)]) }
        for display in 1...5 {
            #expect(try await engine.status(of: "FavoriteBackyardTip") == .available, "before display \(display)")
            try await engine.displayed("FavoriteBackyardTip")
            await engine.advance(TimeSpan(seconds: 10))
            try await engine.hidden("FavoriteBackyardTip")
        }
        #expect(try await engine.status(of: "FavoriteBackyardTip") == .invalidated(.displayCountExceeded))
        let explanation = try await engine.explain("FavoriteBackyardTip")
        #expect(explanation.displayCount == 5)
        #expect(explanation.displayDuration == TimeSpan(seconds: 50))
        try await engine.resetEligibility("FavoriteBackyardTip")
        #expect(try await engine.status(of: "FavoriteBackyardTip") == .available)
        #expect(try await engine.explain("FavoriteBackyardTip").displayCount == 0)
    }

    @Test func maxDisplayDurationInvalidatesWhileOnScreen() async throws {
        let engine = try await sampleEngine()
        try await engine.setParameter("launchCount", to: .int(10))
        try await engine.displayed("OptionTip")
        await engine.advance(TimeSpan(seconds: 299))
        #expect(try await engine.status(of: "OptionTip") == .available)
        await engine.advance(TimeSpan(seconds: 2))
        #expect(try await engine.status(of: "OptionTip") == .invalidated(.displayDurationExceeded))
        let explanation = try await engine.explain("OptionTip")
        #expect(explanation.displayDuration == TimeSpan(seconds: 300))
        #expect(!explanation.isOnScreen)
        #expect(explanation.reasons.first == .invalidated(.displayDurationExceeded, at: time("2026-01-01T09:05")))
    }

    @Test func clockMovingBackwards() async throws {
        let engine = try await sampleEngine(at: "2026-01-10T12:00")
        try await engine.donate("triggered-control")
        try await engine.donate("triggered-control")
        try await engine.donate("triggered-control")
        #expect(try await engine.status(of: "EventRuleTip") == .available)
        try await engine.displayed("EventRuleTip")
        // The clock jumps back a day: the donations are "in the future" and not seen until their time again;
        // the open display adds no negative time.
        await engine.setClock(FixedClock(time("2026-01-09T12:00")))
        #expect(try await engine.status(of: "EventRuleTip") == .pending)
        try await engine.hidden("EventRuleTip")
        #expect(try await engine.explain("EventRuleTip").displayDuration == TimeSpan(seconds: 0))
        try await engine.donate("triggered-control")
        await engine.setClock(FixedClock(time("2026-01-10T12:00")))
        #expect(try await engine.explain("EventRuleTip").rules.first?.conditions.first?.summary == "4 of 3")
    }

    @Test func customIDsAreSeparateInstances() async throws {
        let engine = try await sampleEngine()
        func trail(_ id: String, _ region: String) -> [String: Value] {
            ["trail": .record(["id": .string(id), "name": .string(id.uppercased()), "region": .string(region)])]
        }
        let butler = try await engine.register("NewTrailTip", parameters: trail("butler-fork", "Big Cottonwood"))
        let silver = try await engine.register("NewTrailTip", parameters: trail("silver-lake", "Big Cottonwood"))
        #expect(butler == "NewTrailTip-butler-fork")
        #expect(silver == "NewTrailTip-silver-lake")
        await #expect(throws: TipEngineError.ambiguousTip("NewTrailTip", instances: [butler, silver])) {
            try await engine.displayed("NewTrailTip")
        }
        await #expect(throws: TipEngineError.tipNeedsParameters("NewTrailTip", missing: ["trail"])) {
            try await engine.register("NewTrailTip", parameters: [:])
        }
        await #expect(throws: TipEngineError.self) {
            try await engine.register("NewTrailTip", parameters: ["trail": .record(["id": .string("x")])])
        }
        for _ in 0..<4 { try await engine.donate("visited-region", ["region": .string("Big Cottonwood")]) }
        #expect(try await engine.status(of: butler) == .available)
        try await engine.invalidate(butler, reason: .actionPerformed)
        #expect(try await engine.status(of: butler) == .invalidated(.actionPerformed))
        #expect(try await engine.status(of: silver) == .available)
        // Instances come back after a restart with their parameters.
        let restarted = try await restart(engine)
        #expect(try await restarted.status(of: silver) == .available)
        #expect(try await restarted.status(of: butler) == .invalidated(.actionPerformed))
    }

    @Test func rulesReadingOtherTipsFollowTheirStatus() async throws {
        let engine = try await sampleEngine()
        try await engine.setParameter("isLoggedIn", to: .bool(true))
        for _ in 0..<3 { try await engine.donate("entered-backyard-list") }
        // ComboTip also needs `tip(InlineTip).invalidated || $isPowerUser`.
        #expect(try await engine.status(of: "ComboTip") == .pending)
        try await engine.dismiss("InlineTip")
        #expect(try await engine.status(of: "ComboTip") == .available)
        try await engine.resetEligibility("InlineTip")
        #expect(try await engine.status(of: "ComboTip") == .pending)
        let explanation = try await engine.explain("ComboTip")
        #expect(explanation.reasons.map(\.description) == [
            "rule 2 unmet: tip(InlineTip).invalidated || $isPowerUser — tip(InlineTip).invalidated is false; $isPowerUser is false",
        ])
    }

    @Test func killSwitchStopsEverything() async throws {
        var catalog = sampleCatalog
        catalog.settings.enabled = false
        let engine = try await sampleEngine(catalog: catalog, configuration: TipEngineConfiguration(overrides: TipOverrides(showAllTips: true)))
        #expect(try await engine.next() == nil)
        #expect(try await engine.status(of: "HighlightTip") == .pending)
        #expect(try await engine.currentTip(group: "compass") == nil)
        let explanation = try await engine.explain("HighlightTip")
        #expect(explanation.reasons.first == .catalogDisabled)
        #expect(explanation.description.contains("catalog: disabled (kill switch)"))
    }

    @Test func statusUpdatesStream() async throws {
        let engine = try await sampleEngine()
        let updates = try await engine.statusUpdates(for: "ParameterRuleTip")
        let changes = await engine.statusChanges()
        try await engine.setParameter("isLoggedIn", to: .bool(true))
        try await engine.dismiss("ParameterRuleTip")
        var seen: [TipStatus] = []
        for await status in updates {
            seen.append(status)
            if seen.count == 3 { break }
        }
        #expect(seen == [.pending, .available, .invalidated(.tipClosed)])
        var all: [TipStatusChange] = []
        for await change in changes {
            all.append(change)
            if all.count == 2 { break }
        }
        // Setting isLoggedIn changes no other tip's status (the others stay pending).
        #expect(all.map(\.description) == [
            "ParameterRuleTip: pending → available", "ParameterRuleTip: available → invalidated(tipClosed)",
        ])
    }

    @Test func republishResetsChangedTipsWithResetPolicy() async throws {
        var catalog = sampleCatalog
        for index in catalog.tips.indices where catalog.tips[index].id == "ShowLocationTip" {
            catalog.tips[index].republish = .reset
        }
        let v1 = CatalogRevision(version: "1", contentHashes: ["NewTrailTip": "a", "ShowLocationTip": "s", "HighlightTip": "h"])
        let engine = try await sampleEngine(catalog: catalog, revision: v1)
        let trail = try await engine.register("NewTrailTip", parameters: [
            "trail": .record(["id": .string("butler-fork"), "name": .string("Butler Fork"), "region": .string("X")]),
        ])
        for tip in [trail, "ShowLocationTip", "HighlightTip"] { try await engine.dismiss(tip) }
        let v2 = CatalogRevision(version: "2", contentHashes: ["NewTrailTip": "b", "ShowLocationTip": "s", "HighlightTip": "h2"])
        let upgraded = TipEngine(catalog: catalog, revision: v2, store: await engine.stateStore)
        try await upgraded.configure(TipEngineConfiguration(clock: FixedClock(time("2026-01-02"))))
        #expect(try await upgraded.status(of: trail) == .pending)  // reset: content changed
        #expect(try await upgraded.status(of: "ShowLocationTip") == .invalidated(.tipClosed))  // reset, but unchanged
        #expect(try await upgraded.status(of: "HighlightTip") == .invalidated(.tipClosed))  // changed, but keep
    }

    @Test func environmentOverrides() async throws {
        let parsed = try TipOverrides.environment([
            "TIPCAT_SHOW_ALL_TIPS": "1", "TIPCAT_HIDE_TIPS": " A, B ,,", "TIPCAT_RESET_DATASTORE": "true", "PATH": "/bin",
        ])
        #expect(parsed.overrides == TipOverrides(showAllTips: true, hideTips: ["A", "B"]))
        #expect(parsed.resetDatastore)
        #expect(throws: TipEngineError.invalidEnvironment(variable: "TIPCAT_HIDE_ALL_TIPS", value: "maybe", reason: "expected 1, true, yes or on, or 0, false, no, off or empty")) {
            try TipOverrides.environment(["TIPCAT_HIDE_ALL_TIPS": "maybe"])
        }
        await #expect(throws: TipEngineError.invalidEnvironment(
            variable: "TIPCAT_SHOW_TIPS", value: "ShowLocatonTip", reason: "unknown tip 'ShowLocatonTip'; did you mean 'ShowLocationTip'?")) {
            try await sampleEngine(configuration: TipEngineConfiguration(environment: ["TIPCAT_SHOW_TIPS": "ShowLocatonTip"]))
        }
        // Custom IDs are accepted by their template's prefix.
        _ = try await sampleEngine(configuration: TipEngineConfiguration(environment: ["TIPCAT_HIDE_TIPS": "NewTrailTip-butler-fork"]))
        // TIPCAT_RESET_DATASTORE wipes the state.
        let engine = try await sampleEngine()
        try await engine.dismiss("HighlightTip")
        let reset = try await restart(engine, configuration: TipEngineConfiguration(environment: ["TIPCAT_RESET_DATASTORE": "1"]))
        #expect(try await reset.status(of: "HighlightTip") == .available)
    }

    @Test func overridePrecedence() async throws {
        let overrides = TipOverrides(showAllTips: true, hideAllTips: true, showTips: ["A", "C-1"], hideTips: ["A", "B"])
        #expect(overrides.decision(for: "A", of: "A") == .show(.showTips))
        #expect(overrides.decision(for: "B", of: "B") == .hide(.hideTips))
        #expect(overrides.decision(for: "C-1", of: "C") == .show(.showTips))
        #expect(overrides.decision(for: "C-2", of: "C") == .show(.showAllTips))
        #expect(TipOverrides(hideAllTips: true).decision(for: "D", of: "D") == .hide(.hideAllTips))
        #expect(TipOverrides().decision(for: "D", of: "D") == nil)
    }
}
