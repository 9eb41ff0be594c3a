/// `punctuation`: endings a text must not have (`"."` on a title) and characters it must not contain (`"!"`).
///
/// A variant that ends with a placeholder has no ending of its own and is not checked for one.
struct PunctuationCheck: ContentCheck {
    let forbidEnding: [String]
    let forbid: [String]

    var readsWords: Bool { false }

    func check(_ text: LintText, words: [[SegmentWords?]], report: (ContentFinding) -> Void) {
        for variant in text.variants {
            for segment in variant {
                guard case .text(let string) = segment else { continue }
                for forbidden in forbid where string.contains(forbidden) {
                    report(ContentFinding(defaultMessage: "\(text.description) contains '\(forbidden)'", values: ["match": forbidden],
                                          anchor: .text(forbidden)))
                }
            }
            guard case .text(let last)? = variant.last(where: { segment in
                if case .text(let string) = segment { return !string.allSatisfy(\.isWhitespace) }
                return true
            }) else { continue }
            let trimmed = last.reversed().drop(while: \.isWhitespace)
            let ending = String(trimmed.reversed())
            for forbidden in forbidEnding where ending.hasSuffix(forbidden) {
                report(ContentFinding(defaultMessage: "\(text.description) ends with '\(forbidden)'", values: ["match": forbidden],
                                      anchor: .ending(forbidden)))
            }
        }
    }
}
