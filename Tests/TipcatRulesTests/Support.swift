import TipcatCore
@testable import TipcatRules

/// The sample declarations from RULES-GRAMMAR.md.
let sample = RuleEnvironment(
    appParameters: [
        "isLoggedIn": .bool, "hasSeenOnboarding": .bool, "launchCount": .int, "favoritePlants": .set(.string),
        "isPowerUser": .bool, "firstLaunch": .date, "mapMode": .string,
    ],
    events: [
        "entered-backyard-detail-view": ["backyardID": .int],
        "viewed-food-detail": ["name": .string, "isFavorite": .bool],
        "visited-region": ["region": .string],
        "opened-map": [:],
    ],
    tipParameters: ["trail": .record([.init("id", .string), .init("name", .string), .init("region", .string)])],
    tipIDs: ["ShowLocationTip"]
)

/// The byte range of the `occurrence`-th (0-based) match of `needle` in `text`.
func byteRange(of needle: String, in text: String, occurrence: Int = 0) -> Range<Int> {
    let haystack = Array(text.utf8)
    let pattern = Array(needle.utf8)
    var seen = 0
    var start = 0
    while start + pattern.count <= haystack.count {
        if Array(haystack[start..<start + pattern.count]) == pattern {
            if seen == occurrence { return start..<start + pattern.count }
            seen += 1
        }
        start += 1
    }
    return -1..<(-1)
}

/// The diagnostics of checking `text` against `environment` (the sample by default).
func check(_ text: String, in environment: RuleEnvironment = sample) -> [RuleDiagnostic] {
    RuleChecker.check(text, in: environment).diagnostics
}

/// The single diagnostic of `text`, or nil when there are none or several.
func only(_ text: String, in environment: RuleEnvironment = sample) -> RuleDiagnostic? {
    let diagnostics = check(text, in: environment)
    return diagnostics.count == 1 ? diagnostics[0] : nil
}

func error(_ message: String, _ rule: String = "rule-syntax", at range: Range<Int>) -> RuleDiagnostic {
    RuleDiagnostic(.error, message, rule: rule, range: range)
}

func warning(_ message: String, _ rule: String, at range: Range<Int>) -> RuleDiagnostic {
    RuleDiagnostic(.warning, message, rule: rule, range: range)
}
