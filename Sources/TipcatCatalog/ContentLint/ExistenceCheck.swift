/// `existence`: banned words and phrases, matched as whole words.
struct ExistenceCheck: ContentCheck {
    let matcher: PatternMatcher

    var readsWords: Bool { true }

    func check(_ text: LintText, words: [[SegmentWords?]], report: (ContentFinding) -> Void) {
        for variant in words {
            for case let segment? in variant {
                matcher.matches(in: segment) { range, _ in
                    let match = String(segment.text[range])
                    report(ContentFinding(defaultMessage: "avoid '\(match)' in \(text.description)", values: ["match": match], anchor: .words(match)))
                }
            }
        }
    }
}
