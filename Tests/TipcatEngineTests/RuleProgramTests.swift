import Testing
import TipcatCore
import TipcatRules

/// `RuleProgram` (the engine's compiled rules) against `RuleEvaluator` (the tree evaluator): the same verdict
/// and the same `validBefore` for every rule shape programs cover, on random donation histories, parameters,
/// tip states and times; other shapes do not compile.
@Suite struct RuleProgramTests {
    static let environment: RuleEnvironment = {
        var environment = ruleEnvironment
        environment.tipIDs = ["ShowLocationTip", "Other"]
        return environment
    }()

    static let compiling = ValidityTests.rules.filter { !$0.contains("distinct") && !$0.contains("where(name") && !$0.contains("$firstLaunch") }
        + [
            "$isLoggedIn", "!$isLoggedIn", "$launchCount >= 2", "2 < $launchCount", "$ratio < 1.5", "$ratio == 2",
            "$firstLaunch < now - 3d", "now + 1h >= $firstLaunch", "now - 2d > $firstLaunch",
            "tip(ShowLocationTip).invalidated", "!tip(Other).available || tip(Other).pending",
            "tip(ShowLocationTip).displayCount >= 2", "true", "false || $isLoggedIn",
            "tip(ShowLocationTip).invalidated(.tipClosed)", "!tip(Other).invalidated(.actionPerformed) && tip(Other).invalidated",
            "#opened-map.count == 0 || $isLoggedIn", "#opened-map.within(.day).count < 3 && !$isLoggedIn",
            "#viewed-food-detail.where(name == \"a\").count >= 1 && #opened-map.lastDonated > now - 2h",
            "#viewed-food-detail.where(\"b\" != name).within(1d).largestSubset(isFavorite).count >= 2",
            "#entered-backyard-detail-view.where(backyardID != 2).within(2d).smallestSubset(backyardID).count > 1",
            "#entered-backyard-detail-view.where(backyardID >= 2).largestSubset(backyardID).count <= 3",
            "now - 1d > #opened-map.lastDonated", "#entered-backyard-detail-view.lastDonated <= now",
            "#viewed-food-detail.within(.hour).where(isFavorite == true).count > 1",
            "#opened-map.within(90m).count != #opened-map.within(3h).count",
            "$launchCount > 2.5", "#opened-map.count <= 1.5", "-0.5 < $launchCount",
        ]

    static let notCompiling = [
        "#viewed-food-detail.distinct(name).count > 1", "$favoritePlants.contains(\"Rose\")", "$mapMode == \"hybrid\"",
        "trail.region == \"Wasatch\"", "#viewed-food-detail.where(name == \"a\" || isFavorite).count > 0",
        "$firstLaunch + 1d < now", "#entered-backyard-detail-view.where(backyardID == $launchCount).count > 0",
    ]

    @Test func programsDecideAsTheTreeEvaluator() throws {
        let events = ["opened-map": [String](), "entered-backyard-detail-view": ["backyardID"], "viewed-food-detail": ["name", "isFavorite"]]
        let eventNames = events.keys.sorted()
        let eventSlots = Dictionary(uniqueKeysWithValues: eventNames.enumerated().map { ($1, (slot: $0, fields: events[$1] ?? [])) })
        let parameterNames = ["isLoggedIn", "launchCount", "ratio", "firstLaunch", "mapMode", "favoritePlants"]
        let parameterSlots = Dictionary(uniqueKeysWithValues: parameterNames.enumerated().map { ($1, $0) })
        let tipNames = ["Other", "ShowLocationTip"]
        let tipSlots = Dictionary(uniqueKeysWithValues: tipNames.enumerated().map { ($1, $0) })
        func program(_ text: String) throws -> (CheckedRule, RuleProgram?) {
            let rule = try checkedRule(text, in: Self.environment)
            return (rule, RuleProgram(rule, events: eventSlots, parameters: parameterSlots, tips: tipSlots))
        }
        for text in Self.notCompiling { #expect(try program(text).1 == nil, "\(text) should not compile") }
        let rules = try Self.compiling.map { text in
            let (rule, compiled) = try program(text)
            return (text, rule, try #require(compiled, "\(text) should compile"))
        }

        // The same programs written as bytes and read back decide the same. Each was compiled into a table of its
        // own; they are written as one table (magic, version, then the number of tables), every index moved.
        let fieldCounts = eventNames.map { events[$0]?.count ?? 0 }
        let encoded = RuleProgram.encode(rules.map(\.2))
        #expect(encoded.count > 5 && encoded[5] == 1, "one table for \(rules.count) programs")
        let decoded = try RuleProgram.decode(encoded, eventFieldCounts: fieldCounts)
        #expect(decoded.count == rules.count)

        var random = SeededGenerator(seed: 0x5EED)
        let base = time("2026-01-10T00:00").secondsSince1970
        func minutes(_ range: ClosedRange<Int>) -> Double { Double(Int.random(in: range, using: &random) * 60) }
        var compared = 0
        for _ in 0..<150 {
            var logs: [String: DonationLog] = [:]
            for name in eventNames {
                let maxAge: TimeSpan? = Int.random(in: 0..<3, using: &random) == 0 ? TimeSpan(seconds: minutes(300...5000)) : nil
                var log = DonationLog(fields: events[name] ?? [], maxCount: [3, 10, 1000][Int.random(in: 0..<3, using: &random)], maxAge: maxAge)
                for _ in 0..<Int.random(in: 0...40, using: &random) {
                    let values: [Value] = switch name {
                    case "entered-backyard-detail-view": [.int(Int.random(in: 1...4, using: &random))]
                    case "viewed-food-detail": [.string(["a", "b"][Int.random(in: 0..<2, using: &random)]), .bool(Bool.random(using: &random))]
                    default: []
                    }
                    log.append(at: Timestamp(secondsSince1970: base + minutes(-6000...600)), values: values)
                }
                logs[name] = log
            }
            var parameters: [String: Value] = [:]
            if Bool.random(using: &random) { parameters["isLoggedIn"] = .bool(Bool.random(using: &random)) }
            if Bool.random(using: &random) { parameters["launchCount"] = .int(Int.random(in: 0...4, using: &random)) }
            if Bool.random(using: &random) { parameters["ratio"] = .double([0.5, 1.5, 2][Int.random(in: 0..<3, using: &random)]) }
            if Bool.random(using: &random) { parameters["firstLaunch"] = .date(Timestamp(secondsSince1970: base + minutes(-6000...3000))) }
            let statuses = RuleTipState.Status.allCases
            let tips = tipNames.map { _ in
                let status = statuses[Int.random(in: 0..<statuses.count, using: &random)]
                let reasons = status == .invalidated
                    ? Set(RuleInvalidationReason.allCases.filter { _ in Bool.random(using: &random) }) : []
                return RuleTipState(status: status, displayCount: Int.random(in: 0...3, using: &random), invalidationReasons: reasons)
            }
            let now = Timestamp(secondsSince1970: base + minutes(-1000...1000))
            let context = RuleContext(now: now, appParameters: parameters, donations: logs,
                                      tips: Dictionary(uniqueKeysWithValues: zip(tipNames, tips)))
            let inputs = RuleProgram.Inputs(now: now, logs: eventNames.map { logs[$0] }, parameters: parameterNames.map { parameters[$0] })
            for ((text, rule, compiled), read) in zip(rules, decoded) {
                let expected = RuleEvaluator.outcome(rule, in: context)
                let actual = compiled.outcome(inputs, tips: tips)
                #expect(actual == expected, "\(text) at \(now)")
                #expect(read.outcome(inputs, tips: tips) == expected, "\(text) read back, at \(now)")
                compared += 1
            }
        }
        #expect(compared == 150 * rules.count)
    }

    /// Damaged program bytes never trap: each is refused, or reads back as programs whose every index is in
    /// range (they evaluate without trapping). Another encoding version, truncation and trailing bytes are refused.
    @Test func damagedProgramBytesAreRefusedOrSafe() throws {
        let events = ["opened-map": [String](), "entered-backyard-detail-view": ["backyardID"], "viewed-food-detail": ["name", "isFavorite"]]
        let eventNames = events.keys.sorted()
        let eventSlots = Dictionary(uniqueKeysWithValues: eventNames.enumerated().map { ($1, (slot: $0, fields: events[$1] ?? [])) })
        let parameterNames = ["isLoggedIn", "launchCount", "ratio", "firstLaunch", "mapMode", "favoritePlants"]
        let parameterSlots = Dictionary(uniqueKeysWithValues: parameterNames.enumerated().map { ($1, $0) })
        let tipSlots = ["Other": 0, "ShowLocationTip": 1]
        // One table for all, as the engine compiles a chunk of tips.
        var builder = RuleProgram.Builder()
        var roots: [Int] = []
        for text in Self.compiling {
            let rule = try checkedRule(text, in: Self.environment)
            let root = builder.add(rule, events: eventSlots, parameters: parameterSlots, tips: tipSlots)
            roots.append(try #require(root, "\(text) should compile"))
        }
        let good = RuleProgram.encode(builder.programs(roots))
        let fieldCounts = eventNames.map { events[$0]?.count ?? 0 }
        #expect(try RuleProgram.decode(good, eventFieldCounts: fieldCounts).count == roots.count)
        #expect(throws: RuleProgram.DecodingError.self) { try RuleProgram.decode(Array(good.dropLast()), eventFieldCounts: fieldCounts) }
        #expect(throws: RuleProgram.DecodingError.self) { try RuleProgram.decode(good + [0], eventFieldCounts: fieldCounts) }
        var otherVersion = good
        otherVersion[4] &+= 1
        #expect(throws: RuleProgram.DecodingError.self) { try RuleProgram.decode(otherVersion, eventFieldCounts: fieldCounts) }
        // Fewer fields than the chains read.
        #expect(throws: RuleProgram.DecodingError.self) { try RuleProgram.decode(good, eventFieldCounts: fieldCounts.map { _ in 0 }) }

        var random = SeededGenerator(seed: 0xF1195)
        let now = time("2026-01-10T00:00")
        var logs: [DonationLog?] = []
        for name in eventNames {
            var log = DonationLog(fields: events[name] ?? [], maxCount: 100, maxAge: nil)
            for minute in 0..<5 {
                let values: [Value] = switch name {
                case "entered-backyard-detail-view": [.int(minute % 3)]
                case "viewed-food-detail": [.string(minute % 2 == 0 ? "a" : "b"), .bool(minute % 2 == 0)]
                default: []
                }
                log.append(at: Timestamp(secondsSince1970: now.secondsSince1970 - Double(minute * 600)), values: values)
            }
            logs.append(log)
        }
        let inputs = RuleProgram.Inputs(now: now, logs: logs, parameters: [.bool(true), .int(2), .double(1.5), .date(now), nil, nil])
        let tips = [RuleTipState(status: .available, displayCount: 1), RuleTipState(status: .invalidated, invalidationReasons: [.tipClosed])]
        var refused = 0
        var evaluated = 0
        for round in 0..<400 {
            var damaged = good
            for _ in 0..<(1 + round % 3) {
                let index = Int.random(in: 0..<damaged.count, using: &random)
                damaged[index] ^= UInt8.random(in: 1...255, using: &random)
            }
            if round % 10 == 0 { damaged = Array(damaged.prefix(Int.random(in: 0..<damaged.count, using: &random))) }
            guard let programs = try? RuleProgram.decode(damaged, eventFieldCounts: fieldCounts) else {
                refused += 1
                continue
            }
            for program in programs {
                _ = program.outcome(inputs, tips: tips)
                _ = program.outcome(inputs, tips: [])
                evaluated += 1
            }
        }
        #expect(refused > 200, "\(refused) of 400 damaged encodings refused")
        #expect(refused < 400 || evaluated == 0)
    }
}
