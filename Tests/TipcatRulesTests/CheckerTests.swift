import Testing
import TipcatCore
@testable import TipcatRules

@Suite struct UnknownNameTests {
    @Test func unknownParameter() {
        let text = "$isLogedIn && $isPowerUser"
        #expect(check(text) == [error("unknown parameter '$isLogedIn'; did you mean '$isLoggedIn'?", "unknown-parameter", at: 0..<10)])
        #expect(check("$zzz") == [error("unknown parameter '$zzz'", "unknown-parameter", at: 0..<4)])
        #expect(check("$trail.id == \"x\"")
            == [error("unknown parameter '$trail'; 'trail' is a parameter of this tip: write it without '$'", "unknown-parameter", at: 0..<6)])
    }

    @Test func unknownEvent() {
        let text = "#didVisit.count > 0"
        #expect(check(text) == [error("unknown event '#didVisit'; did you mean '#visited-region'?", "unknown-event", at: 0..<9)])
        let camel = "#enteredBackyardDetailView.count > 0"
        #expect(check(camel) == [error("unknown event '#enteredBackyardDetailView'; did you mean '#entered-backyard-detail-view'?",
                                       "unknown-event", at: byteRange(of: "#enteredBackyardDetailView", in: camel))])
        #expect(check("#opened-mpa.count > 0") == [error("unknown event '#opened-mpa'; did you mean '#opened-map'?", "unknown-event", at: 0..<11)])
        #expect(check("#nothing-alike.count > 0") == [error("unknown event '#nothing-alike'", "unknown-event", at: 0..<14)])
    }

    @Test func unknownField() {
        let text = "#visited-region.where(regoin == \"x\").count > 0"
        #expect(check(text) == [error("unknown field 'regoin' of #visited-region; did you mean 'region'?", "unknown-field",
                                      at: byteRange(of: "regoin", in: text))])
        let distinct = "#viewed-food-detail.distinct(nam).count > 1"
        #expect(check(distinct) == [error("unknown field 'nam' of #viewed-food-detail; did you mean 'name'?", "unknown-field",
                                          at: byteRange(of: "nam", in: distinct))])
        let grouped = "#entered-backyard-detail-view.largestSubset(groupedBy: backyardId).count >= 3"
        #expect(check(grouped) == [error("unknown field 'backyardId' of #entered-backyard-detail-view; did you mean 'backyardID'?",
                                         "unknown-field", at: byteRange(of: "backyardId", in: grouped))])
        let none = "#opened-map.largestSubset(x).count > 1"
        #expect(check(none) == [error("unknown field 'x': #opened-map declares no fields", "unknown-field", at: byteRange(of: "x", in: none))])
        let notName = "#viewed-food-detail.distinct(\"name\").count > 1"
        #expect(check(notName) == [error("'distinct' needs a field name of #viewed-food-detail, as in '.distinct(isFavorite)'",
                                         "type-mismatch", at: byteRange(of: "\"name\"", in: notName))])
    }

    @Test func unknownBareName() {
        let text = "trial.region == \"x\""
        #expect(check(text) == [error("unknown name 'trial'; did you mean 'trail'?", "unknown-name", at: 0..<5)])
        #expect(check("isLoggedIn") == [error("unknown name 'isLoggedIn'; did you mean '$isLoggedIn'?", "unknown-name", at: 0..<10)])
        #expect(check("opened.count > 0") == [error("unknown name 'opened'; did you mean '#opened-map'?", "unknown-name", at: 0..<6)])
        #expect(check("visitedRegion.count > 0")
            == [error("unknown name 'visitedRegion'; did you mean '#visited-region'?", "unknown-name", at: 0..<13)])
        #expect(check("mapMode == \"x\"") == [error("unknown name 'mapMode'; did you mean '$mapMode'?", "unknown-name", at: 0..<7)])
        #expect(check("True") == [error("unknown name 'True'; did you mean 'true'?", "unknown-name", at: 0..<4)])
        // Outside `where`, event fields are not in scope.
        #expect(check("region == \"x\"")
            == [error("unknown name 'region'; 'region' is a field of #visited-region: use it inside #visited-region.where(…)", "unknown-name", at: 0..<6)])
        #expect(check("zzz") == [error("unknown name 'zzz'", "unknown-name", at: 0..<3)])
    }

    @Test func unknownTip() {
        let text = "tip(ShowLocatonTip).invalidated"
        #expect(check(text) == [error("unknown tip 'ShowLocatonTip'; did you mean 'ShowLocationTip'?", "unknown-tip",
                                      at: byteRange(of: "ShowLocatonTip", in: text))])
    }

    @Test func unknownMember() {
        let text = "#viewed-food-detail.cnt > 1"
        #expect(check(text) == [error("unknown member 'cnt' of events; did you mean 'count'?", "unknown-member",
                                      at: byteRange(of: "cnt", in: text))])
        let field = "#visited-region.region == \"x\""
        #expect(check(field) == [error(
            "unknown member 'region' of events; 'region' is a field of #visited-region: use it inside .where(…), as in .where(region == …)",
            "unknown-member", at: byteRange(of: "region", in: field, occurrence: 1))])
        #expect(check("trail.regoin == \"x\"") == [error("unknown member 'regoin' of 'trail'; did you mean 'region'?", "unknown-member", at: 6..<12)])
        #expect(check("$launchCount.count > 1") == [error("unknown member 'count' of int: an int has no members", "unknown-member", at: 13..<18)])
        #expect(check("tip(ShowLocationTip).invalidatd")
            == [error("unknown member 'invalidatd' of tip; did you mean 'invalidated'?", "unknown-member", at: 21..<31)])
        #expect(check("$favoritePlants.contain(\"Rose\")")
            == [error("unknown member 'contain' of set<string>; did you mean 'contains'?", "unknown-member", at: 16..<23)])
    }

    @Test func calendarMembers() {
        #expect(check("now.hour >= 18 && now.weekday != 1 && $firstLaunch.isToday && #opened-map.lastDonated.minute < 30").isEmpty)
        #expect(check("now.hours > 3") == [error("unknown member 'hours' of date; did you mean 'hour'?", "unknown-member", at: 4..<9)])
        #expect(check("now.isToday(3)").map(\.message) == ["'isToday' takes no arguments; write '.isToday'"])
        #expect(check("now.hour == \"x\"").first?.ruleID == "type-mismatch")
    }

    @Test func invalidationReasons() {
        #expect(check("tip(ShowLocationTip).invalidated(.actionPerformed) || tip(ShowLocationTip).invalidated(.tipClosed)").isEmpty)
        let window = "tip(ShowLocationTip).invalidated(.day)"
        #expect(check(window).map(\.message) == [
            "'invalidated' takes an invalidation reason (.actionPerformed, .tipClosed, .displayCountExceeded, .displayDurationExceeded), not '.day'",
        ])
        #expect(check("#opened-map.within(.tipClosed).count > 0").map(\.message) == ["unknown calendar window '.tipClosed' (use .minute, .hour, .day or .week)"])
        #expect(check("tip(ShowLocationTip).available(.tipClosed)").map(\.message) == ["'available' takes no arguments; write '.available'"])
    }

    @Test func argumentLabels() {
        let by = "#entered-backyard-detail-view.largestSubset(by: backyardID).count >= 3"
        #expect(check(by) == [error("unknown argument label 'by:' of 'largestSubset'; did you mean 'groupedBy:'?", "unknown-member", at: byteRange(of: "by", in: by))])
        let typo = "#entered-backyard-detail-view.smallestSubset(groupBy: backyardID).count >= 3"
        #expect(check(typo) == [error("unknown argument label 'groupBy:' of 'smallestSubset'; did you mean 'groupedBy:'?",
                                      "unknown-member", at: byteRange(of: "groupBy", in: typo))])
        let within = "#opened-map.within(last: 5d).count > 1"
        #expect(check(within) == [error("'within' takes no argument label; remove 'last:'", "unknown-member", at: byteRange(of: "last", in: within))])
    }

    @Test func ambiguousName() {
        var environment = sample
        environment.tipParameters["region"] = .string
        let text = "#visited-region.where(region == trail.region).count > 3"
        #expect(check(text, in: environment) == [error(
            "'region' is both a field of #visited-region and a parameter of this tip; rename one", "ambiguous-name",
            at: byteRange(of: "region", in: text, occurrence: 1))])
        // Outside `where` the same name is simply the tip parameter.
        #expect(check("region == \"Wasatch\"", in: environment).isEmpty)
    }
}

@Suite struct TypeErrorTests {
    @Test func incomparable() {
        #expect(check("$isLoggedIn > 3") == [error("'$isLoggedIn' is bool; it cannot be compared with 3 using '>'", "type-mismatch", at: 0..<15)])
        #expect(check("3 < $isLoggedIn") == [error("'$isLoggedIn' is bool; it cannot be compared with 3 using '<'", "type-mismatch", at: 0..<15)])
        #expect(check("$isLoggedIn > true") == [error("'$isLoggedIn' is bool; it can only be compared with '==' or '!='", "type-mismatch", at: 0..<18)])
        #expect(check("$mapMode == $launchCount")
            == [error("'$mapMode' is string; it cannot be compared with '$launchCount' (an int) using '=='", "type-mismatch", at: 0..<24)])
        #expect(check("#opened-map > 0")
            == [error("'#opened-map' is events; it cannot be compared with 0 using '>'; did you mean '#opened-map.count'?", "type-mismatch", at: 0..<15)])
        #expect(check("$favoritePlants == \"Rose\"")
            == [error("'$favoritePlants' is set<string>; it cannot be compared with \"Rose\" using '=='; compare its .count, or use .contains(…) or .isEmpty",
                      "type-mismatch", at: 0..<25)])
        #expect(check("tip(ShowLocationTip) == true")
            == [error("'tip(ShowLocationTip)' is tip; it cannot be compared with true using '=='; compare one of its members: .invalidated, .available, .pending or .displayCount",
                      "type-mismatch", at: 0..<28)])
        #expect(check("$firstLaunch < 3") == [error("'$firstLaunch' is date; it cannot be compared with 3 using '<'", "type-mismatch", at: 0..<16)])
    }

    /// An int compared with a decimal is widened and compared numerically; only equality can never hold.
    @Test func countWithNonInteger() {
        #expect(check("$launchCount > 2.5").isEmpty)
        #expect(check("-0.5 < $launchCount").isEmpty)
        #expect(check("#viewed-food-detail.count <= 1.5").isEmpty)
        let text = "#viewed-food-detail.count == 2.5"
        #expect(check(text) == [warning("this rule is always false: 'count' is an int and never equals 2.5", "always-false", at: 0..<text.utf8.count)])
        #expect(check("$launchCount != 0.5") == [warning("this rule is always true: '$launchCount' is an int and never equals 0.5", "always-true", at: 0..<19)])
        // A whole decimal is fine, and doubles mix with ints.
        #expect(check("#viewed-food-detail.count == 2.0").isEmpty)
    }

    /// A count of an event's donations above what the event keeps is always false, with a note at the limit.
    @Test func countAboveTheDonationLimit() {
        var environment = sample
        let limitAt = SourceLocation(file: "events.json", line: 9, column: 21)
        environment.donationLimits["opened-map"] = DonationCountLimit(maxCount: 10, isDeclared: true, location: limitAt)
        let text = "#opened-map.within(5d).count >= 11"
        let findings = check(text, in: environment)
        #expect(findings.map(\.message) == ["this rule is always false: #opened-map keeps at most 10 donations (its donationLimit.maxCount)"])
        #expect(findings.first?.ruleID == "always-false")
        #expect(findings.first?.range == 0..<text.utf8.count)
        #expect(findings.first?.notes == [Diagnostic.Note("#opened-map keeps at most 10 donations here", at: limitAt)])
        #expect(check("10 < #opened-map.count", in: environment).map(\.ruleID) == ["always-false"])
        #expect(check("#opened-map.count == 11", in: environment).map(\.ruleID) == ["always-false"])
        #expect(check("#opened-map.count >= 10", in: environment).isEmpty)
        #expect(check("#opened-map.count > 9", in: environment).isEmpty)
        #expect(check("#opened-map.count < 11", in: environment).isEmpty)
        // Without a declared limit the default of 1,000 applies.
        #expect(check("#visited-region.count > 1000").map(\.message)
            == ["this rule is always false: #visited-region keeps at most 1000 donations (the default donation limit; set donationLimit.maxCount in events.json to keep more)"])
        #expect(check("#visited-region.count >= 1000").isEmpty)
    }

    @Test func ruleMustBeCondition() {
        #expect(check("$launchCount") == [error("rule must be a condition (bool), but this is an int", "type-mismatch", at: 0..<12)])
        #expect(check("($mapMode)") == [error("rule must be a condition (bool), but this is a string", "type-mismatch", at: 0..<10)])
        #expect(check("#opened-map")
            == [error("rule must be a condition (bool), but this is a list of events; compare its count, as in '#opened-map.count >= 1'",
                      "type-mismatch", at: 0..<11)])
        let long = "#visited-region.within(.day).largestSubset(region)"
        #expect(check(long) == [error("rule must be a condition (bool), but this is a list of events; compare its count, as in '.count >= 1'",
                                      "type-mismatch", at: 0..<50)])
        #expect(check("now - 3d") == [error("rule must be a condition (bool), but this is a date", "type-mismatch", at: 0..<8)])
    }

    @Test func logicalOperands() {
        let text = "$isLoggedIn && $launchCount"
        #expect(check(text) == [error("'&&' needs conditions (bool) on both sides, but this is an int", "type-mismatch", at: 15..<27)])
        #expect(check("$mapMode || $isLoggedIn") == [error("'||' needs conditions (bool) on both sides, but this is a string", "type-mismatch", at: 0..<8)])
        #expect(check("!$launchCount") == [error("'!' needs a condition (bool), but this is an int", "type-mismatch", at: 1..<13)])
        let filter = "#viewed-food-detail.where(name).count > 1"
        #expect(check(filter) == [error("'where' needs a condition (bool), but this is a string", "type-mismatch", at: byteRange(of: "name", in: filter))])
    }

    @Test func arithmetic() {
        #expect(check("$firstLaunch < now - 3")
            == [error("'-' only adds a duration to a date or subtracts it (as in now - 3d), but this is date - int; did you mean '3d'?",
                      "type-mismatch", at: 15..<22)])
        #expect(check("$launchCount + 1 > 3")
            == [error("'+' only adds a duration to a date or subtracts it (as in now - 3d), but this is int + int", "type-mismatch", at: 0..<16)])
        #expect(check("$firstLaunch < 3d + now") == [error("'+' needs the date first, as in 'now + 3d'", "type-mismatch", at: 15..<23)])
        #expect(check("$firstLaunch + 1d + 2h < now").isEmpty)
    }

    @Test func memberArguments() {
        #expect(check("#opened-map.within(5).count > 1")
            == [error("'within' needs a duration such as 5d or a window such as .day, but this is an int; did you mean '5d'?", "type-mismatch", at: 19..<20)])
        #expect(check("#opened-map.within.count > 1") == [error("'within' needs an argument, as in '.within(5d)'", "type-mismatch", at: 12..<18)])
        #expect(check("#opened-map.within(1d, 2d).count > 1")
            == [error("'within' takes one argument, as in '.within(5d)', but has 2", "type-mismatch", at: 12..<26)])
        #expect(check("#opened-map.count() > 1") == [error("'count' takes no arguments; write '.count'", "type-mismatch", at: 12..<19)])
        #expect(check("$favoritePlants.contains(3)")
            == [error("'contains' checks whether this set<string> contains a string, but '3' is an int", "type-mismatch", at: 25..<26)])
        #expect(check("$mapMode.contains($isLoggedIn)")
            == [error("'contains' checks whether a string contains a string, but '$isLoggedIn' is a bool", "type-mismatch", at: 18..<29)])
        #expect(check("#opened-map.where(.hour).count > 1")
            == [error("a calendar window such as '.day' can only be the argument of 'within'", "type-mismatch", at: 18..<23)])
        #expect(check("trail.region() == \"x\"") == [error("'region' takes no arguments; write '.region'", "type-mismatch", at: 6..<14)])
    }

    @Test func errorsDoNotCascade() {
        // One error per mistake: the unknown parameter does not also make '&&' or '>' complain.
        #expect(check("$nope > 3 && $isLoggedIn").map(\.ruleID) == ["unknown-parameter"])
        #expect(check("#nope.within(5d).where(x == 1).count > 3").map(\.ruleID) == ["unknown-event"])
        #expect(check("!$nope.count").map(\.ruleID) == ["unknown-parameter"])
        // Independent mistakes are all reported.
        let text = "$isLogedIn && #didVisit.count > 0 && tip(Nope).pending"
        #expect(check(text).map(\.ruleID) == ["unknown-parameter", "unknown-event", "unknown-tip"])
        #expect(RuleChecker.check(text, in: sample).rule == nil)
    }
}

@Suite struct StaticOutcomeTests {
    func expectWarning(_ text: String, _ expected: RuleDiagnostic, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let (rule, diagnostics) = RuleChecker.check(text, in: sample)
        #expect(diagnostics == [expected], sourceLocation: sourceLocation)
        // Warnings do not reject the rule.
        #expect(rule != nil, sourceLocation: sourceLocation)
    }

    @Test func countsAreNeverNegative() {
        let whole = { (text: String) in 0..<text.utf8.count }
        let never = "this rule is always false: a count is never negative"
        let always = "this rule is always true: a count is never negative"
        for text in ["#opened-map.count < 0", "#opened-map.count <= -1", "#opened-map.count == -2", "0 > #opened-map.count",
                     "$favoritePlants.count < 0", "tip(ShowLocationTip).displayCount < 0", "#opened-map.within(1d).count < -0.0"] {
            expectWarning(text, warning(never, "always-false", at: whole(text)))
        }
        for text in ["#opened-map.count >= 0", "#opened-map.count > -1", "#opened-map.count != -1", "0 <= #opened-map.count",
                     "$mapMode.count >= 0"] {
            expectWarning(text, warning(always, "always-true", at: whole(text)))
        }
        for text in ["#opened-map.count < 1", "#opened-map.count == 0", "#opened-map.count > 0", "#opened-map.count <= 0",
                     "$launchCount < 0"] {
            #expect(check(text).isEmpty, "\(text)")
        }
    }

    @Test func insideALargerRule() {
        let text = "$isLoggedIn || #opened-map.count >= 0"
        expectWarning(text, warning("this condition is always true: a count is never negative", "always-true",
                                    at: byteRange(of: "#opened-map.count >= 0", in: text)))
    }

    @Test func constants() {
        expectWarning("3 > 2", warning("this rule is always true: it compares two constants", "always-true", at: 0..<5))
        expectWarning("\"a\" == \"b\"", warning("this rule is always false: it compares two constants", "always-false", at: 0..<10))
        expectWarning("1d < 2h", warning("this rule is always false: it compares two constants", "always-false", at: 0..<7))
        expectWarning("2 == 2.0", warning("this rule is always true: it compares two constants", "always-true", at: 0..<8))
        expectWarning("true != false", warning("this rule is always true: it compares two constants", "always-true", at: 0..<13))
        expectWarning("true", warning("this rule is always true", "always-true", at: 0..<4))
        expectWarning("(false)", warning("this rule is always false", "always-false", at: 0..<7))
    }
}

@Suite struct SuggestionTests {
    @Test func typosAbbreviationsAndWords() {
        #expect(RuleSuggestions.closest(to: "cnt", in: RuleCheckerState.donationMembers) == "count")
        #expect(RuleSuggestions.closest(to: "lastDon", in: RuleCheckerState.donationMembers) == "lastDonated")
        #expect(RuleSuggestions.closest(to: "largestSubst", in: RuleCheckerState.donationMembers) == "largestSubset")
        #expect(RuleSuggestions.closest(to: "#didVisit", in: ["#visited-region", "#opened-map"]) == "#visited-region")
        // Ambiguous word matches suggest nothing rather than a coin toss.
        #expect(RuleSuggestions.closest(to: "#map", in: ["#opened-map", "#closed-map"]) == nil)
        #expect(RuleSuggestions.closest(to: "xyz", in: ["count", "within"]) == nil)
        #expect(RuleSuggestions.words(of: "#enteredBackyard-detail_view2") == ["entered", "backyard", "detail", "view2"])
    }
}
