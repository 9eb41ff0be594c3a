/// `capitalization`: title case or sentence case.
///
/// Words are the space-separated pieces of the visible text with surrounding punctuation removed. Left as
/// written: words in `exceptions`, words whose first letter has no case (Han, kana, Arabic, digits…), acronyms
/// and mixed-case names (an upper-case letter after the first: `FAQ`, `iPhone`), placeholders and the text
/// glued to them (`{name}'s`). Title case capitalizes every word except the small ones (articles,
/// coordinating conjunctions, prepositions of four letters or fewer) unless first, last or after a colon or
/// sentence end. Sentence case capitalizes the first word of each sentence and lower-cases the others; the
/// word after a colon may be either, and so may `I`.
struct CapitalizationCheck: ContentCheck {
    let style: ContentRule.CapitalizationStyle
    let exceptions: Set<String>

    static let smallWords: Set<String> = [
        "a", "an", "the", "and", "but", "or", "nor", "for", "so", "yet", "as", "at", "by", "from", "in", "into", "of",
        "off", "on", "onto", "over", "per", "to", "up", "upon", "via", "vs", "with",
    ]

    var readsWords: Bool { false }

    private struct Token {
        /// nil for a placeholder or text glued to one.
        var word: Substring?
        var last: Character?
    }

    private static func tokens(_ variant: [LintText.Segment]) -> [Token] {
        var tokens: [Token] = []
        var afterPlaceholder = false
        var previousEndedInSpace = true
        for segment in variant {
            guard case .text(let text) = segment else {
                // Text right before a placeholder is part of the same word (`re{x}`): not checked.
                if !previousEndedInSpace, !tokens.isEmpty { tokens[tokens.count - 1].word = nil }
                tokens.append(Token(word: nil, last: nil))
                afterPlaceholder = true
                previousEndedInSpace = true
                continue
            }
            guard let first = text.first, let last = text.last else { continue }
            for (index, piece) in text.split(whereSeparator: \.isWhitespace).enumerated() {
                if index == 0, afterPlaceholder, !first.isWhitespace, !tokens.isEmpty {
                    tokens[tokens.count - 1].last = piece.last  // glued to the placeholder (`{name}'s`, `{name}:`)
                } else {
                    tokens.append(Token(word: piece, last: piece.last))
                }
            }
            afterPlaceholder = false
            previousEndedInSpace = last.isWhitespace
        }
        return tokens
    }

    private static func isAlphanumeric(_ character: Character) -> Bool { character.isLetter || character.isNumber }

    func check(_ text: LintText, words: [[SegmentWords?]], report: (ContentFinding) -> Void) {
        for variant in text.variants {
            let tokens = Self.tokens(variant)
            var startsSentence = true
            var afterColon = false
            for (index, token) in tokens.enumerated() {
                defer {
                    startsSentence = token.last.map { ".!?".contains($0) } ?? false
                    afterColon = token.last == ":"
                }
                guard let word = token.word else { continue }
                let core = word.drop { !Self.isAlphanumeric($0) }.reversed().drop { !Self.isAlphanumeric($0) }.reversed()
                let coreText = String(core)
                guard let initial = coreText.first, initial.isCased, !exceptions.contains(coreText),
                      !coreText.contains(where: \.isNumber), !coreText.dropFirst().contains(where: \.isUppercase)
                else { continue }
                let isFirst = index == 0 || startsSentence
                let expected: String?
                switch style {
                case .title:
                    let small = Self.smallWords.contains(coreText.lowercased()) && !isFirst && !afterColon && index != tokens.count - 1
                    expected = small
                        ? (initial.isUppercase ? initial.lowercased() + coreText.dropFirst() : nil)
                        : (initial.isLowercase ? initial.uppercased() + coreText.dropFirst() : nil)
                case .sentence:
                    if isFirst {
                        expected = initial.isLowercase ? initial.uppercased() + coreText.dropFirst() : nil
                    } else if afterColon || coreText == "I" || coreText.hasPrefix("I'") || coreText.hasPrefix("I\u{2019}") {
                        expected = nil
                    } else {
                        expected = initial.isUppercase ? initial.lowercased() + coreText.dropFirst() : nil
                    }
                }
                guard let expected else { continue }
                report(ContentFinding(
                    defaultMessage: "'\(coreText)' should be '\(expected)' in \(text.description) (\(style.rawValue) case)",
                    values: ["match": coreText, "expected": expected], anchor: .words(coreText)))
            }
        }
    }
}
