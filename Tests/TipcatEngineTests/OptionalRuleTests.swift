import Testing
import TipcatCore
import TipcatRules

/// Optional tip parameters in rules: an absent value is `nil`, compared as Swift compares optionals, in the
/// tree evaluator (explaining and fast) and the compiled programs, which do not take rules reading optionals.
@Suite struct OptionalRuleTests {
    let now = time("2026-01-10T12:00")

    static let environment: RuleEnvironment = {
        var environment = ruleEnvironment
        environment.tipParameters = [
            "nickname": .optional(.string), "rank": .optional(.int),
            "trail": .record([.init("id", .string), .init("difficulty", .optional(.string))]),
        ]
        return environment
    }()

    func holds(_ text: String, _ parameters: [String: Value]) throws -> Bool {
        let rule = try checkedRule(text, in: Self.environment)
        let context = RuleContext(now: now, tipParameters: parameters)
        let verdict = RuleEvaluator.evaluate(rule, in: context)
        #expect(RuleEvaluator.outcome(rule, in: context).holds == verdict.holds, "fast path disagrees on \(text)")
        #expect(RuleProgram(rule, events: [:], parameters: [:], tips: [:]) == nil, "\(text) should not compile")
        return verdict.holds
    }

    @Test func absentIsNil() throws {
        let absent: [String: Value] = ["trail": .record(["id": .string("a")])]
        #expect(try holds("nickname == nil", absent))
        #expect(try !holds("nickname != nil", absent))
        #expect(try holds("trail.difficulty == nil", absent))
        #expect(try !holds("trail.difficulty != nil", absent))
        // Compared with a present value: == and the orderings are false, != is true (as in Swift).
        #expect(try !holds("nickname == \"Sam\"", absent))
        #expect(try holds("nickname != \"Sam\"", absent))
        #expect(try !holds("rank < 3", absent))
        #expect(try !holds("rank >= 3", absent))
        #expect(try !holds("3 > rank", absent))
        #expect(try !holds("trail.difficulty == \"easy\"", absent))
        #expect(try holds("!(rank > 2)", absent))
    }

    @Test func presentValuesCompareAsTheirType() throws {
        let present: [String: Value] = [
            "nickname": .string("Sam"), "rank": .int(4), "trail": .record(["id": .string("a"), "difficulty": .string("easy")]),
        ]
        #expect(try !holds("nickname == nil", present))
        #expect(try holds("nickname != nil && nickname == \"Sam\"", present))
        #expect(try holds("rank >= 3 && rank < 4.5", present))
        #expect(try holds("trail.difficulty == \"easy\"", present))
        #expect(try !holds("trail.difficulty == nil", present))
    }

    @Test func donationFiltersCompareWithNil() throws {
        let visits = log(["region"], [("2026-01-10T09:00", [.string("Wasatch")]), ("2026-01-10T10:00", [.string("Uinta")])])
        func count(_ text: String, _ parameters: [String: Value]) throws -> Bool {
            let rule = try checkedRule(text, in: Self.environment)
            let context = RuleContext(now: now, tipParameters: parameters, donations: ["visited-region": visits])
            let verdict = RuleEvaluator.evaluate(rule, in: context)
            #expect(RuleEvaluator.outcome(rule, in: context).holds == verdict.holds, "fast path disagrees on \(text)")
            return verdict.holds
        }
        #expect(try count("#visited-region.where(region == nickname).count == 0", [:]))
        #expect(try count("#visited-region.where(region != nickname).count == 2", [:]))
        #expect(try count("#visited-region.where(region == nickname).count == 1", ["nickname": .string("Uinta")]))
        #expect(try count("#visited-region.where(region == trail.difficulty || region == \"Uinta\").count == 1", ["trail": .record(["id": .string("a")])]))
    }

    @Test func explanationsShowNil() throws {
        let rule = try checkedRule("nickname == \"Sam\"", in: Self.environment)
        let verdict = RuleEvaluator.evaluate(rule, in: RuleContext(now: now, tipParameters: [:]))
        #expect(verdict.conditions.map(\.summary) == ["nil == \"Sam\""])
    }
}
