import Testing
import TipcatCatalog
import TipcatCore
import TipcatEngine

/// The sample catalog.
private let catalog: Catalog = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    parts.removeLast(3)  // Tests/TipcatGeneratedSwiftTests/GeneratedAccessorTests.swift
    return CatalogLoader().load(directory: parts.joined(separator: "/") + "/Catalog").catalog
}()

private let start = Timestamp(iso8601: "2026-01-01T09:00:00Z") ?? Timestamp(secondsSince1970: 0)

/// `TipCatalog.swift` (the output of `tipcat generate swift` for the sample catalog, kept current by the plugin
/// tests) compiles against the engine library, and its methods drive the engine.
@Suite struct GeneratedAccessorTests {
    @Test func sessionAccessorsSetDonateAndRegister() throws {
        var session = try TipEngineSession(catalog: catalog, store: InMemoryTipStateStore(),
                                           configuration: TipEngineConfiguration(clock: FixedClock(start)))
        #expect(TipCatalog.TipIDs.all.count == catalog.tips.count)
        #expect(TipCatalog.TipIDs.comExampleTrailsPlanTomorrow == "com.example.trails.plan-tomorrow")
        try session.setIsLoggedIn(true)
        try session.setFavoritePlants(["Rose", "Tulip", "Fern"])
        #expect(try session.parameter(TipCatalog.ParameterNames.favoritePlants) == .set([.string("Rose"), .string("Tulip"), .string("Fern")]))
        for _ in 0..<3 { try session.donateEnteredBackyardDetailView(backyardID: 3) }
        try session.donateViewedFoodDetail(name: "Apple", isFavorite: true, at: start)
        #expect(try session.status(of: TipInstanceID(TipCatalog.TipIDs.favoriteBackyardTip.rawValue)) == .available)
        let instance = try session.registerNewTrailTip(trail: TipCatalog.NewTrailTipTrail(id: "butler-fork", name: "Butler Fork", region: "Wasatch"))
        #expect(instance == "NewTrailTip-butler-fork")
        let trailhead = try session.registerFindTrailheadTip(count: 2)
        #expect(try session.instance(trailhead).parameters == ["count": .int(2)])
        try session.performAction(TipInstanceID(TipCatalog.TipIDs.favoriteBackyardTip.rawValue),
                                  action: TipCatalog.ActionIDs.FavoriteBackyardTip.learnMore)
        #expect(try session.status(of: "FavoriteBackyardTip") == .invalidated(.actionPerformed))
        #expect(throws: TipEngineError.self) { try session.donateEnteredBackyardList(at: start + TimeSpan(seconds: 60)) }
    }

    @Test func actorAccessors() async throws {
        let engine = TipEngine(catalog: catalog)
        try await engine.configure(TipEngineConfiguration(clock: FixedClock(start)))
        try await engine.setIsMapVisible(true)
        #expect(try await engine.currentTip(group: TipCatalog.GroupIDs.compass) == "ShowLocationTip")
        try await engine.setLaunchCount(10)
        try await engine.donateOpenedMap()
        #expect(try await engine.parameter(TipCatalog.ParameterNames.launchCount) == .int(10))
    }
}
