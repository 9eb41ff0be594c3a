import Testing
import TipcatBenchSupport
import TipcatCatalog
import TipcatCore
import TipcatEngine
import TipcatRules

/// Caching is only as good as `validBefore`: randomized checks that verdicts really stand that long, and that
/// the caching engine decides exactly as a freshly started one.
@Suite struct ValidityTests {
    static let rules = [
        "#opened-map.count >= 3", "#opened-map.within(1d).count >= 2", "#opened-map.within(1d).count < 2",
        "#opened-map.within(2d).count == 1", "#opened-map.within(2d).count != 1", "#opened-map.within(.hour).count > 0",
        "#entered-backyard-detail-view.within(5d).largestSubset(backyardID).count >= 3",
        "#entered-backyard-detail-view.within(5d).largestSubset(backyardID).count < 2",
        "#entered-backyard-detail-view.within(3d).smallestSubset(backyardID).count > 1",
        "#entered-backyard-detail-view.largestSubset(backyardID).within(2d).count >= 1",
        "#entered-backyard-detail-view.within(2d).distinct(backyardID).count >= 2",
        "#viewed-food-detail.within(.hour).where(isFavorite == true).count > 1",
        "#viewed-food-detail.distinct(name).count > 1", "#viewed-food-detail.within(1d).distinct(name).count <= 1",
        "#viewed-food-detail.where(name == \"a\").within(1d).count >= 2",
        "#opened-map.lastDonated > now - 1d", "#opened-map.lastDonated <= now - 12h", "$firstLaunch < now - 3d",
        "now - 2d > $firstLaunch", "#opened-map.within(1d).count >= 1 || $firstLaunch > now - 1d",
        "!(#opened-map.within(6h).count > 0)", "#opened-map.within(1d).count > #entered-backyard-detail-view.within(1d).count",
        "$launchCount <= #opened-map.within(2d).count",
    ]

    /// Calendar rules, read in a time zone 5½ hours east of UTC (the tree evaluator only: programs do not compile them).
    static let calendarRules = [
        "now.hour >= 18", "now.hour < 9 || now.hour >= 21", "$firstLaunch.isToday", "!#opened-map.lastDonated.isToday",
        "(now - 1d).weekday == 7", "now.weekday == 1 && now.minute < 30", "$firstLaunch.hour == now.hour",
        "(now + 90m).isToday",
    ]

    @Test func verdictsStandUntilValidBefore() throws {
        let texts = Self.rules + Self.calendarRules
        let checked = try texts.map { try checkedRule($0) }
        var random = SeededGenerator(seed: 0xC0FFEE)
        let base = time("2026-01-10T00:00").secondsSince1970
        func minutes(_ range: ClosedRange<Int>) -> Double { Double(Int.random(in: range, using: &random) * 60) }
        var checks = 0
        for _ in 0..<200 {
            let maxAge: TimeSpan? = Bool.random(using: &random) ? TimeSpan(seconds: minutes(600...5000)) : nil
            var map = DonationLog(fields: [], maxAge: maxAge)
            var yards = DonationLog(fields: ["backyardID"], maxCount: Int.random(in: 3...40, using: &random))
            var food = DonationLog(fields: ["name", "isFavorite"])
            for _ in 0..<Int.random(in: 0...25, using: &random) {
                map.append(at: Timestamp(secondsSince1970: base + minutes(-8000...2000)), values: [])
            }
            for _ in 0..<Int.random(in: 0...30, using: &random) {
                yards.append(at: Timestamp(secondsSince1970: base + minutes(-8000...2000)), values: [.int(Int.random(in: 1...4, using: &random))])
            }
            for _ in 0..<Int.random(in: 0...20, using: &random) {
                food.append(at: Timestamp(secondsSince1970: base + minutes(-3000...600)),
                            values: [.string(["a", "b"].randomElement(using: &random) ?? "a"), .bool(Bool.random(using: &random))])
            }
            let firstLaunch = Value.date(Timestamp(secondsSince1970: base + minutes(-6000...3000)))
            let launchCount = Value.int(Int.random(in: 0...3, using: &random))
            func fixedContext(_ at: Double) -> RuleContext {
                RuleContext(
                    now: Timestamp(secondsSince1970: at), appParameters: ["firstLaunch": firstLaunch, "launchCount": launchCount],
                    donations: ["opened-map": map, "entered-backyard-detail-view": yards, "viewed-food-detail": food],
                    timeZone: .fixed(seconds: 19_800))
            }
            let start = base + minutes(-1000...1000)
            for (rule, text) in zip(checked, texts) {
                let first = RuleEvaluator.outcome(rule, in: fixedContext(start))
                let until = first.validBefore?.secondsSince1970 ?? start + 20 * 86_400
                var samples = (0..<12).map { _ in start + Double.random(in: 0...(until - start), using: &random) }
                samples.append(until - 0.002)
                for moment in samples where moment >= start && moment < until {
                    let later = RuleEvaluator.outcome(rule, in: fixedContext(moment))
                    #expect(later.holds == first.holds, "\(text): \(first.holds) at \(Timestamp(secondsSince1970: start)), \(later.holds) at \(Timestamp(secondsSince1970: moment)), valid before \(String(describing: first.validBefore))")
                    checks += 1
                }
            }
        }
        #expect(checks > 10_000)
    }

    /// Random operations on a synthetic catalog; after each, the engine (with its caches) and a new engine
    /// started from the same state must agree on next() and every status.
    @Test func cachedDecisionsMatchAFreshStart() async throws {
        let synthetic = SyntheticEngineCatalog(tips: 120, events: 6, groups: 6, tipReferences: 4, seed: 3)
        var random = SeededGenerator(seed: 11)
        var now = time("2026-01-01T00:00")
        let engine = TipEngine(catalog: synthetic.catalog)
        try await engine.configure(TipEngineConfiguration(clock: FixedClock(now)))
        let history = synthetic.donations(3000, endingAt: now, over: days(10))
        for donation in history { try await engine.donate(donation.event, donation.values, at: donation.timestamp) }
        var disagreements: [String] = []
        for step in 0..<120 {
            switch Int.random(in: 0..<8, using: &random) {
            case 0, 1:
                let event = synthetic.eventIDs[Int.random(in: 0..<synthetic.eventIDs.count, using: &random)]
                try await engine.donate(event, ["item": .int(Int.random(in: 0..<20, using: &random))])
            case 2:
                now = now + TimeSpan(seconds: Double(Int.random(in: 1...2000, using: &random) * 60))
                await engine.setClock(FixedClock(now))
            case 3:
                let flag = synthetic.flagNames[Int.random(in: 0..<synthetic.flagNames.count, using: &random)]
                try await engine.setParameter(flag, to: .bool(Bool.random(using: &random)))
            case 4:
                if let next = try await engine.next() {
                    try await engine.displayed(next)
                    if Bool.random(using: &random) { try await engine.hidden(next) }
                }
            case 5:
                if let next = try await engine.next() { try await engine.dismiss(next) }
                let summaries = try await engine.tips()
                if let any = summaries.randomElement(using: &random) { try await engine.dismiss(any.instance) }
            case 6:
                let level = synthetic.levelNames[Int.random(in: 0..<synthetic.levelNames.count, using: &random)]
                try await engine.setParameter(level, to: .int(Int.random(in: 0...6, using: &random)))
            default:
                now = now + TimeSpan(seconds: Double(Int.random(in: 1...90, using: &random)))
                await engine.setClock(FixedClock(now))
            }
            let fresh = TipEngine(catalog: synthetic.catalog, store: await engine.stateStore)
            try await fresh.configure(TipEngineConfiguration(clock: FixedClock(now)))
            let cached = try await engine.tips().map { "\($0.instance) \($0.status)" }
            let cold = try await fresh.tips().map { "\($0.instance) \($0.status)" }
            if cached != cold {
                disagreements.append("step \(step): " + zip(cached, cold).filter { $0 != $1 }.map { "\($0) vs \($1)" }.joined(separator: ", "))
            }
            let cachedNext = try await engine.next()
            let coldNext = try await fresh.next()
            if cachedNext != coldNext { disagreements.append("step \(step): next \(String(describing: cachedNext)) vs \(String(describing: coldNext))") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }
}
