import Synchronization
import Testing
import TipcatCore
import TipcatRules

/// The pure evaluator: TipKit's semantics for each construct, explanations, and time validity.
@Suite struct RuleEvaluatorTests {
    let now = time("2026-01-10T12:00")

    func verdict(_ text: String, _ context: RuleContext) throws -> RuleVerdict {
        let rule = try checkedRule(text)
        let verdict = RuleEvaluator.evaluate(rule, in: context)
        // The fast path must agree with the explaining one.
        let outcome = RuleEvaluator.outcome(rule, in: context)
        #expect(outcome.holds == verdict.holds, "fast path disagrees on \(text)")
        return verdict
    }

    @Test func calendarMembersReadTheUsersTimeZone() throws {
        // 2026-01-10 17:30 UTC is 19:30 on Saturday in UTC+02:00; 2026-01-09 23:00 UTC is already the 10th there.
        let evening = time("2026-01-10T17:30")
        let lateLastNight = Value.date(time("2026-01-09T23:00"))
        let paris = RuleContext(now: evening, appParameters: ["firstLaunch": lateLastNight], timeZone: .fixed(seconds: 7200))
        let utc = RuleContext(now: evening, appParameters: ["firstLaunch": lateLastNight])
        #expect(try verdict("now.hour == 19 && now.minute == 30 && now.weekday == 7", paris).holds)
        #expect(try verdict("now.hour == 17", utc).holds)
        #expect(try verdict("$firstLaunch.isToday", paris).holds)
        #expect(try !verdict("$firstLaunch.isToday", utc).holds)
        #expect(try verdict("$firstLaunch.weekday == 6", utc).holds)  // Friday in UTC
        // An evening rule stands until the next local hour starts (20:00 there, 18:00 UTC).
        #expect(try verdict("now.hour >= 18", paris).validBefore == time("2026-01-10T18:00"))
        // isToday changes at the next local midnight (22:00 UTC).
        #expect(try verdict("$firstLaunch.isToday", paris).validBefore == time("2026-01-10T22:00"))
        // No donation yet: lastDonated is missing, so isToday is false and its negation holds.
        #expect(try verdict("!#opened-map.lastDonated.isToday", paris).holds)
    }

    /// A zone named lazily (the machine's, which loads time zone data) is asked its name only when a message
    /// needs it, and its offset only when a calendar rule reads the time.
    @Test func aLazilyNamedZoneIsLookedUpOnlyWhenRead() throws {
        let asked = Mutex<[String]>([])
        let zone = RuleTimeZone(lazilyNamed: { asked.withLock { $0.append("name") }; return "Europe/Paris" },
                                offset: { _ in asked.withLock { $0.append("offset") }; return 7200 })
        let context = RuleContext(now: time("2026-01-10T17:30"), appParameters: ["isLoggedIn": .bool(true)], timeZone: zone)
        #expect(try verdict("$isLoggedIn", context).holds)
        #expect(asked.withLock { $0 }.isEmpty, "no calendar rule, nothing looked up")
        #expect(try verdict("now.hour == 19", context).holds)
        #expect(asked.withLock { $0 }.allSatisfy { $0 == "offset" } && !asked.withLock { $0 }.isEmpty)
        #expect(zone.identifier == "Europe/Paris" && zone.description == "Europe/Paris")
        #expect(asked.withLock { $0 }.contains("name"))
    }

    @Test func boolParameterExplainsItself() throws {
        var context = RuleContext(now: now, appParameters: ["isLoggedIn": .bool(false)])
        let no = try verdict("$isLoggedIn", context)
        #expect(!no.holds)
        #expect(no.conditions.map(\.summary) == ["$isLoggedIn is false"])
        #expect(no.validBefore == nil)
        context.appParameters["isLoggedIn"] = .bool(true)
        #expect(try verdict("$isLoggedIn", context).holds)
        #expect(try verdict("!$isLoggedIn", context).holds == false)
        #expect(try verdict("$isLoggedIn == true", context).holds)
    }

    /// An int parameter or count compared with a decimal is widened to a double.
    @Test func intComparedWithADecimal() throws {
        var context = RuleContext(now: now, appParameters: ["launchCount": .int(3)])
        #expect(try verdict("$launchCount > 2.5", context).holds)
        #expect(try verdict("$launchCount < 3.5", context).holds)
        #expect(try verdict("$launchCount >= 3.5", context).holds == false)
        context.appParameters["launchCount"] = .int(2)
        let two = try verdict("$launchCount > 2.5", context)
        #expect(!two.holds)
        #expect(two.conditions.map(\.summary) == ["2 > 2.5"])
    }

    @Test func observedDonationsUseTheRightNumber() {
        #expect(RuleObservedValue.donations(count: 1).description == "1 donation")
        #expect(RuleObservedValue.donations(count: 0).description == "0 donations")
        #expect(RuleObservedValue.donations(count: 2).description == "2 donations")
    }

    @Test func countsWithEveryOperator() throws {
        let visits = log([], [("2026-01-01T00:00", []), ("2026-01-02T00:00", []), ("2026-01-03T00:00", [])])
        let context = RuleContext(now: now, donations: ["opened-map": visits])
        let cases: [(String, Bool)] = [
            ("#opened-map.count >= 3", true), ("#opened-map.count > 3", false), ("#opened-map.count == 3", true),
            ("#opened-map.count == 0", false), ("#opened-map.count < 1", false), ("#opened-map.count <= 3", true),
            ("#opened-map.count != 3", false), ("#visited-region.count == 0", true), ("#visited-region.count < 1", true),
        ]
        for (text, expected) in cases {
            #expect(try verdict(text, context).holds == expected, "\(text)")
        }
        let failed = try verdict("#opened-map.count >= 4", context)
        #expect(failed.conditions.first?.summary == "3 of 4")
        #expect(failed.description == "✗ #opened-map.count >= 4 — 3 of 4")
    }

    @Test func windowIsSlidingAndInclusive() throws {
        let visits = log([], [("2026-01-05T11:59", []), ("2026-01-05T12:00", []), ("2026-01-10T11:00", [])])
        let context = RuleContext(now: now, donations: ["opened-map": visits])
        // 5 days before 2026-01-10T12:00 is 2026-01-05T12:00: that donation counts, the one a minute earlier not.
        let five = try verdict("#opened-map.within(5d).count == 2", context)
        #expect(five.holds)
        // It changes just after the oldest donation in the window leaves it.
        #expect(five.validBefore == Timestamp(secondsSince1970: (time("2026-01-05T12:00") + days(5)).secondsSince1970.nextUp))
        // `.day` is the last 24 hours, not the calendar day: 11:00 today counts, and so would yesterday 12:00.
        #expect(try verdict("#opened-map.within(.day).count == 1", context).holds)
        #expect(try verdict("#opened-map.within(.hour).count == 1", context).holds)
        #expect(try verdict("#opened-map.within(.minute).count == 0", context).holds)
        #expect(try verdict("#opened-map.within(1w).count == 3", context).holds)
        #expect(try verdict("#opened-map.within(30m).count == 0", context).holds)
    }

    @Test func largestSubsetCountsTheSameBackyard() throws {
        let rule = "#entered-backyard-detail-view.within(5d).largestSubset(backyardID).count >= 3"
        let empty = try verdict(rule, RuleContext(now: now))
        #expect(!empty.holds)
        #expect(empty.conditions.first?.summary == "0 of 3")
        guard case .comparison(.greaterOrEqual, .value(.int(0)), .value(.int(3)))? = empty.conditions.first?.kind else {
            Issue.record("expected a comparison 0 >= 3, got \(String(describing: empty.conditions.first?.kind))")
            return
        }
        let visits = log(["backyardID"], [
            ("2026-01-04T09:00", [.int(3)]),  // outside the 5-day window
            ("2026-01-06T09:00", [.int(3)]), ("2026-01-07T09:00", [.int(4)]), ("2026-01-08T09:00", [.int(3)]),
        ])
        var context = RuleContext(now: now, donations: ["entered-backyard-detail-view": visits])
        let two = try verdict(rule, context)
        #expect(!two.holds)
        #expect(two.conditions.first?.summary == "2 of 3 (largest of 2 groups: backyardID = 3)")
        var more = visits
        more.append(at: time("2026-01-09T09:00"), values: [.int(3)])
        context.donations["entered-backyard-detail-view"] = more
        #expect(try verdict(rule, context).holds)
        // `groupedBy:` spelling, and the smallest group.
        #expect(try verdict("#entered-backyard-detail-view.largestSubset(groupedBy: backyardID).count == 4", context).holds)
        #expect(try verdict("#entered-backyard-detail-view.smallestSubset(backyardID).count == 1", context).holds)
        #expect(try verdict("#entered-backyard-detail-view.within(1d).smallestSubset(backyardID).count == 0", context).holds)
    }

    @Test func foodEventRules() throws {
        var donations: [(String, [Value])] = []
        for minute in 0..<5 { donations.append(("2026-01-10T11:1\(minute)", [.string("Apple"), .bool(true)])) }
        var food = log(["name", "isFavorite"], donations)
        var context = RuleContext(now: now, donations: ["viewed-food-detail": food])
        let favorites = "#viewed-food-detail.within(.hour).where(isFavorite == true).count > 4"
        let distinct = "#viewed-food-detail.distinct(name).count > 1"
        #expect(try verdict(favorites, context).holds)
        #expect(try !verdict(distinct, context).holds)
        food.append(at: time("2026-01-10T11:30"), values: [.string("Pear"), .bool(false)])
        context.donations["viewed-food-detail"] = food
        #expect(try verdict(distinct, context).holds)
        #expect(try verdict("#viewed-food-detail.where(isFavorite == false).count == 1", context).holds)
        // A predicate over two fields is evaluated per donation.
        #expect(try verdict("#viewed-food-detail.where(isFavorite && name == \"Apple\").count == 5", context).holds)
        #expect(try verdict("#viewed-food-detail.where(name.count > 4).count == 5", context).holds)
        // An hour later the favorites are out of the window.
        context.now = time("2026-01-10T12:11")
        #expect(try !verdict(favorites, context).holds)
    }

    @Test func tipParameterInFilter() throws {
        let visits = log(["region"], (0..<4).map { ("2026-01-0\($0 + 1)T10:00", [.string($0 < 3 ? "Wasatch" : "Uinta")]) })
        let rule = "#visited-region.where(region == trail.region).count > 2"
        let wasatch = Value.record(["id": .string("a"), "name": .string("A"), "region": .string("Wasatch")])
        let uinta = Value.record(["id": .string("b"), "name": .string("B"), "region": .string("Uinta")])
        #expect(try verdict(rule, RuleContext(now: now, tipParameters: ["trail": wasatch], donations: ["visited-region": visits])).holds)
        #expect(try !verdict(rule, RuleContext(now: now, tipParameters: ["trail": uinta], donations: ["visited-region": visits])).holds)
        let missing = try verdict(rule, RuleContext(now: now, donations: ["visited-region": visits]))
        #expect(!missing.holds)
    }

    @Test func lastDonatedWithoutDonationsIsFalseBothWays() throws {
        let context = RuleContext(now: now)
        let after = try verdict("#opened-map.lastDonated > now - 1d", context)
        #expect(!after.holds)
        #expect(after.conditions.first?.summary == "no donations of #opened-map")
        #expect(try !verdict("#opened-map.lastDonated <= now - 1d", context).holds)
        #expect(try verdict("!(#opened-map.lastDonated > now - 1d)", context).holds)
        let visits = log([], [("2026-01-10T00:00", [])])
        let recent = try verdict("#opened-map.lastDonated > now - 1d", RuleContext(now: now, donations: ["opened-map": visits]))
        #expect(recent.holds)
        // It flips when the last donation is a day old (a millisecond of margin for rounding).
        #expect(recent.validBefore == Timestamp(secondsSince1970: time("2026-01-11T00:00").secondsSince1970 - 0.001))
        // `now` used outside a comparison with a fixed date: good only for this instant.
        let moving = try verdict("now - 1d < now", RuleContext(now: now))
        #expect(moving.validBefore == Timestamp(secondsSince1970: now.secondsSince1970.nextUp))
    }

    @Test func donationLimitHidesOldDonations() throws {
        let donations = (1...9).map { ("2026-01-0\($0)T10:00", [Value]()) }
        let capped = log([], donations, maxCount: 3)
        #expect(try verdict("#opened-map.count == 3", RuleContext(now: now, donations: ["opened-map": capped])).holds)
        let aged = log([], donations, maxAge: days(3))
        // Only 2026-01-08T10:00 and 2026-01-09T10:00 are within 3 days of 2026-01-10T12:00.
        let verdict = try verdict("#opened-map.count == 2", RuleContext(now: now, donations: ["opened-map": aged]))
        #expect(verdict.holds)
        #expect(verdict.validBefore == Timestamp(secondsSince1970: (time("2026-01-08T10:00") + days(3)).secondsSince1970.nextUp))
    }

    @Test func futureDonationsAreNotSeenUntilTheirTime() throws {
        let visits = log([], [("2026-01-09T10:00", []), ("2026-01-11T10:00", [])])
        let verdict = try verdict("#opened-map.count == 1", RuleContext(now: now, donations: ["opened-map": visits]))
        #expect(verdict.holds)
        #expect(verdict.validBefore == time("2026-01-11T10:00"))
        #expect(try self.verdict("#opened-map.count == 2", RuleContext(now: time("2026-01-11T10:00"), donations: ["opened-map": visits])).holds)
    }

    @Test func collectionsAndStrings() throws {
        let context = RuleContext(now: now, appParameters: [
            "favoritePlants": .set([.string("Rose"), .string("Tulip"), .string("Fern")]),
            "mapMode": .string("satellite"), "scores": .list([.int(1), .int(2)]), "ratio": .double(0.5), "launchCount": .int(10),
        ])
        #expect(try verdict("$favoritePlants.count >= 3 && $favoritePlants.contains(\"Rose\")", context).holds)
        #expect(try !verdict("$favoritePlants.contains(\"Daisy\")", context).holds)
        #expect(try verdict("$mapMode.contains(\"sat\") && $mapMode.count == 9 && !$mapMode.isEmpty", context).holds)
        #expect(try verdict("$scores.contains(2.0)", context).holds)
        #expect(try verdict("$ratio < 1 && $launchCount >= 10.0 && $launchCount > $ratio", context).holds)
        #expect(try verdict("$mapMode == \"satellite\" || $mapMode == \"hybrid\"", context).holds)
        #expect(try verdict("$mapMode > \"hybrid\"", context).holds)
    }

    @Test func datesAgainstNow() throws {
        let rule = "$firstLaunch < now - 3d"
        #expect(try verdict(rule, RuleContext(now: now, appParameters: ["firstLaunch": .date(time("2026-01-01"))])).holds)
        #expect(try !verdict(rule, RuleContext(now: now, appParameters: ["firstLaunch": .date(time("2100-01-01"))])).holds)
    }

    @Test func otherTipsState() throws {
        let context = RuleContext(now: now, tips: ["ShowLocationTip": RuleTipState(status: .invalidated, displayCount: 2)])
        #expect(try verdict("tip(ShowLocationTip).invalidated", context).holds)
        #expect(try verdict("tip(ShowLocationTip).displayCount == 2 && !tip(ShowLocationTip).available", context).holds)
        #expect(try !verdict("tip(ShowLocationTip).pending", RuleContext(now: now)).holds)
    }

    @Test func explainingRecordsEveryConditionInOrder() throws {
        let context = RuleContext(now: now, appParameters: ["isLoggedIn": .bool(false), "mapMode": .string("standard")])
        let verdict = try verdict("$isLoggedIn || ($mapMode == \"satellite\" && #opened-map.count > 0)", context)
        #expect(!verdict.holds)
        #expect(verdict.conditions.map(\.text) == ["$isLoggedIn", "$mapMode == \"satellite\"", "#opened-map.count > 0"])
        #expect(verdict.conditions.map(\.holds) == [false, false, false])
        #expect(verdict.conditions[1].summary == "\"standard\" == \"satellite\"")
        // Conditions inside a `where` are per donation and not listed.
        let visits = log(["region"], [("2026-01-09T10:00", [.string("Uinta")])])
        let filtered = try self.verdict("#visited-region.where(region == \"Wasatch\").count > 0",
                                        RuleContext(now: now, donations: ["visited-region": visits]))
        #expect(filtered.conditions.map(\.text) == ["#visited-region.where(region == \"Wasatch\").count > 0"])
    }

    @Test func absurdDurationsExplainWithoutTrapping() throws {
        let verdict = try verdict("$firstLaunch > now - 99999999999999999999d && 1d < 99999999999999999999d",
                                  RuleContext(now: now, appParameters: ["firstLaunch": .date(now)]))
        #expect(verdict.holds)
        #expect(verdict.conditions.map(\.summary) == [
            "2026-01-10T12:00:00Z > -8.639999999999997e+24 seconds since 1970", "1d < 8.64e+24 seconds",
        ])
    }

    @Test func missingParameterIsFalse() throws {
        let verdict = try verdict("$launchCount >= 0 || $launchCount < 0", RuleContext(now: now))
        #expect(!verdict.holds)
        #expect(verdict.conditions.first?.summary == "no value for $launchCount")
    }
}
