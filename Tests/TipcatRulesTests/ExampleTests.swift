import Testing
import TipcatCore
@testable import TipcatRules

@Suite struct ExampleTests {
    static let examples = [
        "$isLoggedIn",
        "$isLoggedIn == true",
        "!$hasSeenOnboarding",
        "$launchCount >= 10",
        "#entered-backyard-detail-view.count >= 3",
        "#entered-backyard-detail-view.within(5d).largestSubset(backyardID).count >= 3",
        "#entered-backyard-detail-view.within(5d).largestSubset(groupedBy: backyardID).count >= 3",
        "#viewed-food-detail.count >= 1",
        "#viewed-food-detail.distinct(name).count > 1",
        "#viewed-food-detail.within(.hour).where(isFavorite == true).count > 4",
        "#visited-region.where(region == trail.region).count > 3",
        "$favoritePlants.count >= 3 && $favoritePlants.contains(\"Rose\")",
        "tip(ShowLocationTip).invalidated || $isPowerUser",
        "$firstLaunch < now - 3d",
        "!(#opened-map.count == 0) && ($mapMode == \"satellite\" || $mapMode == \"hybrid\")",
    ]

    @Test(arguments: examples) func exampleChecksClean(_ text: String) throws {
        let parsed = RuleParser.parse(text)
        #expect(parsed.diagnostics.isEmpty)
        #expect(parsed.expression != nil)
        let (rule, diagnostics) = RuleChecker.check(text, in: sample)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let checked = try #require(rule)
        #expect(checked.source == text)
        #expect(checked.expression.type == .bool)
        #expect(checked.expression.range == 0..<text.utf8.count)
        #expect(RuleTreeAudit.problems(in: checked.expression).isEmpty, "\(RuleTreeAudit.problems(in: checked.expression))")
    }

    @Test func groupedByTree() throws {
        let text = "#entered-backyard-detail-view.within(5d).largestSubset(groupedBy: backyardID).count >= 3"
        let rule = try #require(RuleChecker.check(text, in: sample).rule)
        guard case .comparison(.greaterOrEqual, let count, .int(3, let three), _) = rule.expression,
              case .member(let subset, let countMember, _) = count,
              case .member(let within, let subsetMember, _) = subset,
              case .member(.event("entered-backyard-detail-view", _), let withinMember, _) = within
        else {
            Issue.record("unexpected tree \(rule.expression)")
            return
        }
        #expect(three.range == byteRange(of: "3", in: text))
        #expect(countMember.kind == .count)
        #expect(subsetMember.kind == .largestSubset)
        #expect(subsetMember.arguments?.first?.label == "groupedBy")
        #expect(subsetMember.arguments?.first?.labelRange == byteRange(of: "groupedBy", in: text))
        #expect(subsetMember.arguments?.first?.value
            == .eventField("backyardID", event: "entered-backyard-detail-view",
                           RuleNodeInfo(byteRange(of: "backyardID", in: text), type: .int)))
        #expect(withinMember.kind == .within)
        #expect(withinMember.arguments?.first?.value == .duration(TimeSpan(seconds: 432_000), RuleNodeInfo(byteRange(of: "5d", in: text), type: .duration)))
        #expect(subset.type == .donations(event: "entered-backyard-detail-view"))
        #expect(rule.referencedEvents == ["entered-backyard-detail-view"])
        #expect(rule.referencedAppParameters.isEmpty)
    }

    @Test func whereResolvesFieldsAndTipParameters() throws {
        let text = "#visited-region.where(region == trail.region).count > 3"
        let rule = try #require(RuleChecker.check(text, in: sample).rule)
        guard case .comparison(_, .member(.member(_, let whereMember, _), _, _), _, _) = rule.expression,
              let predicate = whereMember.arguments?.first?.value,
              case .comparison(.equal, let field, .member(let trail, let regionMember, let regionInfo), _) = predicate
        else {
            Issue.record("unexpected tree \(rule.expression)")
            return
        }
        #expect(whereMember.kind == .where)
        #expect(field == .eventField("region", event: "visited-region", RuleNodeInfo(byteRange(of: "region", in: text, occurrence: 1), type: .string)))
        #expect(trail == .tipParameter("trail", RuleNodeInfo(byteRange(of: "trail", in: text), type: sample.tipParameters["trail"].map(RuleType.init))))
        #expect(regionMember.kind == .field)
        #expect(regionInfo.type == .string)
        #expect(rule.referencedTipParameters == ["trail"])
        #expect(rule.referencedEvents == ["visited-region"])
    }

    @Test func referencedNames() throws {
        let text = "!(#opened-map.count == 0) && ($mapMode == \"satellite\" || tip(ShowLocationTip).pending)"
        let rule = try #require(RuleChecker.check(text, in: sample).rule)
        #expect(rule.referencedAppParameters == ["mapMode"])
        #expect(rule.referencedEvents == ["opened-map"])
        #expect(rule.referencedTips == ["ShowLocationTip"])
        #expect(rule.referencedTipParameters.isEmpty)
        guard case .and(let operands, _) = rule.expression else {
            Issue.record("expected &&")
            return
        }
        #expect(operands.count == 2)
        // Parentheses widen the node's range to include them.
        #expect(operands[1].range == byteRange(of: "($mapMode == \"satellite\" || tip(ShowLocationTip).pending)", in: text))
    }

    @Test func literalsAndTypes() throws {
        let rule = try #require(RuleChecker.check("$firstLaunch < now - 1.5h", in: sample).rule)
        guard case .comparison(.less, let parameter, .arithmetic(.minus, .now, .duration(let span, _), let info), _) = rule.expression else {
            Issue.record("unexpected tree \(rule.expression)")
            return
        }
        #expect(parameter.type == .date)
        #expect(span == TimeSpan(seconds: 5400))
        #expect(info.type == .date)
        #expect(RuleParser.parse("$launchCount > -2").expression
            == .comparison(.greater, .appParameter("launchCount", RuleNodeInfo(0..<12)), .int(-2, RuleNodeInfo(15..<17)), RuleNodeInfo(0..<17)))
        let string = RuleParser.parse("\"a\\\"\\u00e9\\ud83c\\udf39\\n\" == x").expression
        guard case .comparison(_, .string(let value, _), _, _) = string else {
            Issue.record("unexpected tree \(String(describing: string))")
            return
        }
        #expect(value == "a\"é🌹\n")
    }

    @Test func moreCoverage() {
        let clean = [
            "#viewed-food-detail.smallestSubset(name).count > 1",
            "#viewed-food-detail.within(.minute).count == 0",
            "#viewed-food-detail.within(.day).count < 1",
            "#viewed-food-detail.within(.week).count <= 3",
            "#visited-region.within(1w).count >= 2",
            "#viewed-food-detail.distinct(name).contains(\"Rose\")",
            "#viewed-food-detail.lastDonated > now - 30m",
            "$favoritePlants.isEmpty || !$favoritePlants.contains(\"Fern\")",
            "$mapMode.contains(\"sat\") && $mapMode.count > 3",
            "tip(ShowLocationTip).displayCount < 2 && tip(ShowLocationTip).available",
            "$launchCount > 2.0 && $launchCount != 7.0 && 3 < $launchCount",
            "trail.region == \"Wasatch\"",
            "#visited-region.where(region == \"Wasatch\" || region == trail.name).within(2h).count > 0",
        ]
        for text in clean {
            #expect(check(text).isEmpty, "\(text): \(check(text))")
        }
    }
}

/// Walks a checked tree and lists what an evaluator could not rely on: unresolved names, missing types or kinds.
enum RuleTreeAudit {
    static func problems(in expression: RuleExpression) -> [String] {
        var problems: [String] = []
        if expression.type == nil { problems.append("untyped node at \(expression.range)") }
        switch expression {
        case .name(let name, _):
            problems.append("unresolved name \(name)")
        case .not(let operand, _):
            problems += Self.problems(in: operand)
        case .and(let operands, _), .or(let operands, _):
            for operand in operands { problems += Self.problems(in: operand) }
        case .comparison(_, let lhs, let rhs, _), .arithmetic(_, let lhs, let rhs, _):
            problems += Self.problems(in: lhs) + Self.problems(in: rhs)
        case .member(let base, let member, _):
            if member.kind == nil { problems.append("unresolved member \(member.name)") }
            problems += Self.problems(in: base)
            for argument in member.arguments ?? [] { problems += Self.problems(in: argument.value) }
        default:
            break
        }
        return problems
    }
}
