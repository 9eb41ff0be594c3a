/// `substitution`: preferred wording; a match of a swap's pattern is reported with the expected words.
struct SubstitutionCheck: ContentCheck {
    let swaps: [ContentRule.Swap]
    let matcher: PatternMatcher

    var readsWords: Bool { true }

    func check(_ text: LintText, words: [[SegmentWords?]], report: (ContentFinding) -> Void) {
        for variant in words {
            for case let segment? in variant {
                matcher.matches(in: segment) { range, index in
                    let match = String(segment.text[range])
                    let expected = swaps[index].expected
                    guard match != expected else { return }  // a swap that only fixes case matches its own fix
                    report(ContentFinding(
                        defaultMessage: "use '\(expected)' instead of '\(match)' in \(text.description)",
                        values: ["match": match, "expected": expected], anchor: .words(match)))
                }
            }
        }
    }
}
