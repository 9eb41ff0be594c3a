import Testing
import TipcatCore
@testable import TipcatRules

@Suite struct RobustnessTests {
    static let fragments = [
        "$isLoggedIn", "$launchCount", "$favoritePlants", "$firstLaunch", "$mapMode", "$", "$nope", "#opened-map",
        "#viewed-food-detail", "#visited-region", "#entered-backyard-detail-view", "#", "#x-", "trail", "region", "name",
        "isFavorite", "backyardID", "tip", "tip(ShowLocationTip)", "now", "true", "false", ".count", ".within(", ".where(",
        ".largestSubset(", "groupedBy:", ".distinct(", ".contains(", ".isEmpty", ".lastDonated", ".invalidated", ".hour",
        ".day", "3", "-2", "2.5", "5d", "1.5h", "30x", "99999999999999999999999", "\"Rose\"", "\"", "\"\\u", "\\", "'",
        "==", "!=", "<", "<=", ">", ">=", "&&", "||", "!", "&", "|", "=", "+", "-", ".", "(", ")", ",", ":", " ", "\n",
        "@", "é", "日", "🌹", "\u{0}", "\u{7F}", "\u{200B}",
    ]

    /// Every result is well-formed: ranges inside the text, errors exactly when there is no rule.
    func expectWellFormed(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let count = text.utf8.count
        let parsed = RuleParser.parse(text)
        #expect((parsed.expression == nil) == parsed.diagnostics.hasErrors, "\(text.debugDescription)", sourceLocation: sourceLocation)
        let (rule, diagnostics) = RuleChecker.check(text, in: sample)
        #expect((rule == nil) == diagnostics.hasErrors, "\(text.debugDescription)", sourceLocation: sourceLocation)
        for diagnostic in parsed.diagnostics + diagnostics {
            let inside = diagnostic.range.lowerBound >= 0 && diagnostic.range.upperBound <= count
            #expect(inside, "\(text.debugDescription): \(diagnostic)", sourceLocation: sourceLocation)
            #expect(!diagnostic.message.isEmpty, sourceLocation: sourceLocation)
        }
        if let rule {
            #expect(RuleTreeAudit.problems(in: rule.expression).isEmpty, "\(text.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    @Test func fuzzTokens() {
        var generator = SeededGenerator(seed: 0x7469_7063_6174)
        var accepted = 0
        for _ in 0..<5_000 {
            let length = Int.random(in: 1...12, using: &generator)
            var text = ""
            for _ in 0..<length {
                text += Self.fragments.randomElement(using: &generator) ?? ""
                if Bool.random(using: &generator) { text += " " }
            }
            expectWellFormed(text)
            if RuleChecker.check(text, in: sample).rule != nil { accepted += 1 }
        }
        // The fuzzer reaches valid rules too, not only the first syntax error.
        #expect(accepted > 0)
    }

    @Test func fuzzCharacters() {
        var generator = SeededGenerator(seed: 42)
        let alphabet = Array("$#.()!&|=<>+-,:\"\\'azAZ_09 \n\té🌹dhms")
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...24, using: &generator)
            let text = String((0..<length).compactMap { _ in alphabet.randomElement(using: &generator) })
            expectWellFormed(text)
        }
    }

    @Test func fuzzMutatedExamples() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2_000 {
            guard var bytes = ExampleTests.examples.randomElement(using: &generator).map({ Array($0.utf8) }) else { continue }
            for _ in 0..<Int.random(in: 1...3, using: &generator) where !bytes.isEmpty {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes.remove(at: index)
                case 1: bytes.insert(UInt8.random(in: 0x20...0x7E, using: &generator), at: index)
                default: bytes.swapAt(index, Int.random(in: 0..<bytes.count, using: &generator))
                }
            }
            expectWellFormed(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test func deepParentheses() {
        let text = String(repeating: "(", count: 10_000) + "$isLoggedIn" + String(repeating: ")", count: 10_000)
        let diagnostics = check(text)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message == "rule is nested too deeply (more than 256 levels)")
        #expect(diagnostics.first?.ruleID == "rule-syntax")
        // The error points at the first parenthesis past the limit.
        #expect(diagnostics.first?.range == 256..<257)
        let unclosed = String(repeating: "(", count: 10_000)
        #expect(check(unclosed).map(\.message) == ["rule is nested too deeply (more than 256 levels)"])
    }

    @Test func deepChains() {
        let tooDeep = "rule is nested too deeply (more than 256 levels)"
        let nots = String(repeating: "!", count: 10_000) + "$isLoggedIn"
        #expect(check(nots).map(\.message) == [tooDeep])
        let members = "$mapMode" + String(repeating: ".count", count: 10_000) + " > 1"
        #expect(check(members).map(\.message) == [tooDeep])
        let sums = "now" + String(repeating: " + 1d", count: 10_000) + " > now"
        #expect(check(sums).map(\.message) == [tooDeep])
        let calls = String(repeating: "#opened-map.where(", count: 5_000)
        #expect(check(calls).map(\.message) == [tooDeep])
    }

    @Test func longFlatRulesAreFine() {
        // `&&` / `||` chains are flat, so long ones are not "deep".
        let terms = Array(repeating: "$isLoggedIn", count: 5_000)
        #expect(check(terms.joined(separator: " || ")).isEmpty)
        #expect(check(terms.joined(separator: " && ")).isEmpty)
    }

    @Test func nestingJustUnderTheLimitWorks() {
        let depth = 200
        let parens = String(repeating: "(", count: depth) + "$isLoggedIn" + String(repeating: ")", count: depth)
        #expect(check(parens).isEmpty)
        let nested = String(repeating: "!(", count: 120) + "$isLoggedIn" + String(repeating: ")", count: 120)
        #expect(check(nested).isEmpty)
    }
}
