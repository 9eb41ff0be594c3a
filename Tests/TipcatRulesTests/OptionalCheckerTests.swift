import Testing
import TipcatCore
@testable import TipcatRules

/// Optional tip parameters and record fields in rules: `nil`, comparisons, and located errors for misuse.
@Suite struct OptionalCheckerTests {
    static let environment: RuleEnvironment = {
        var environment = sample
        environment.tipParameters = [
            "nickname": .optional(.string), "rank": .optional(.int), "pinned": .optional(.bool), "count": .int,
            "trail": .record([.init("id", .string), .init("difficulty", .optional(.string))]),
            "place": .optional(.record([.init("name", .string)])),
        ]
        return environment
    }()

    func diagnostics(_ text: String) -> [RuleDiagnostic] { check(text, in: Self.environment) }

    @Test func nilComparesWithOptionals() throws {
        for text in [
            "nickname == nil", "nil != nickname", "rank != nil && rank > 2", "trail.difficulty == nil || trail.difficulty == \"easy\"",
            "pinned == true", "place != nil", "rank == count", "nickname < \"m\"", "#visited-region.where(region == nickname).count > 0",
        ] {
            #expect(diagnostics(text) == [], "\(text)")
        }
        let rule = try #require(RuleChecker.check("nickname == nil", in: Self.environment).rule)
        guard case .comparison(_, let left, let right, _) = rule.expression else {
            Issue.record("not a comparison")
            return
        }
        #expect(left.type == .optional(.string))
        #expect(right.type == .nilLiteral)
    }

    @Test func nilWithANonOptionalIsATypeMismatch() {
        let text = "count == nil"
        #expect(diagnostics(text) == [error(
            "'count' is int, which always has a value: only optional values (declared with a trailing '?', as \"string?\") can be compared with nil",
            "type-mismatch", at: 0..<12)])
        let app = "$launchCount != nil"
        #expect(diagnostics(app) == [error(
            "'$launchCount' is int, which always has a value: only optional values (declared with a trailing '?', as \"string?\") can be compared with nil",
            "type-mismatch", at: 0..<app.utf8.count)])
    }

    @Test func nilOnlyWithEqualityOperators() {
        let text = "rank < nil"
        #expect(diagnostics(text) == [error(
            "nil can only be compared with '==' or '!=': 'rank' is int?, and '<' with nil is never true", "type-mismatch", at: 0..<10)])
    }

    @Test func optionalsCompareAsTheirWrappedType() {
        let text = "nickname == 3"
        #expect(diagnostics(text) == [error("'nickname' is string?; it cannot be compared with 3 using '=='", "type-mismatch", at: 0..<13)])
    }

    @Test func anOptionalBoolIsNotACondition() {
        let text = "pinned && count > 1"
        #expect(diagnostics(text) == [error(
            "'&&' needs conditions (bool) on both sides, but this is an optional bool?; compare it, as in 'pinned == true' (false when it is nil)",
            "type-mismatch", at: 0..<6)])
        #expect(diagnostics("pinned") == [error(
            "rule must be a condition (bool), but this is an optional bool?; compare it, as in 'pinned == true' (false when it is nil)",
            "type-mismatch", at: 0..<6)])
    }

    @Test func membersOfAnOptionalAreAnError() {
        let text = "nickname.count > 3"
        #expect(diagnostics(text) == [error(
            "'nickname' is string? and may be nil, so it has no members here; compare it with nil or with a value instead",
            "type-mismatch", at: byteRange(of: "count", in: text))])
        let record = "place.name == \"x\""
        #expect(diagnostics(record) == [error(
            "'place' is record? and may be nil, so it has no members here; compare it with nil or with a value instead",
            "type-mismatch", at: byteRange(of: "name", in: record))])
    }

    @Test func nilIsAKeywordAndTwoNilsAreConstant() {
        #expect(diagnostics("nil == nil") == [warning("this rule is always true: it compares two constants", "always-true", at: 0..<10)])
        #expect(diagnostics("nil") == [error("rule must be a condition (bool), but this is a nil", "type-mismatch", at: 0..<3)])
        #expect(diagnostics("nickname == nill") == [error("unknown name 'nill'; did you mean 'nil'?", "unknown-name", at: 12..<16)])
    }
}
