import TipcatCore

/// The words of one literal piece of text, split once and shared by every word rule.
struct SegmentWords {
    let text: String
    let ranges: [Range<String.Index>]
    /// Each word lowercased, parallel to `ranges`.
    let folded: [String]

    init(_ text: String) {
        self.text = text
        ranges = WordScanner.words(in: text)
        folded = ranges.map { text[$0].lowercased() }
    }
}

/// Whole-word matching of the tokens of an existence rule or the patterns of a substitution rule.
///
/// Built once per rule: plain patterns go into a table keyed by their first word, so a text is scanned once
/// per rule with one dictionary lookup per word (no per-text compilation, nothing quadratic); regular
/// expressions are compiled here and run on each literal piece, keeping matches that are whole words.
struct PatternMatcher: @unchecked Sendable {
    // @unchecked: `Regex` is not declared Sendable. Each regex is lowered to its program here, by one match
    // before the matcher is shared (lowering is otherwise lazy, on first use); after that it is only read,
    // and each match keeps its own state.
    private struct Phrase {
        var words: [String]
        var index: Int
    }

    private let ignoreCase: Bool
    private let phrases: [String: [Phrase]]
    private let regexes: [(Regex<AnyRegexOutput>, Int)]

    /// Compiles `patterns` (as phrases, or as regular expressions when `regex`); invalid ones never match.
    init(patterns: [String], ignoreCase: Bool, regex: Bool) {
        self.ignoreCase = ignoreCase
        var phrases: [String: [Phrase]] = [:]
        var regexes: [(Regex<AnyRegexOutput>, Int)] = []
        for (index, pattern) in patterns.enumerated() {
            if regex {
                if let compiled = Self.compile(pattern, ignoreCase: ignoreCase) { regexes.append((compiled, index)) }
                continue
            }
            let words = WordScanner.words(in: pattern).map { ignoreCase ? pattern[$0].lowercased() : String(pattern[$0]) }
            guard let first = words.first else { continue }
            phrases[first, default: []].append(Phrase(words: words, index: index))
        }
        self.phrases = phrases
        self.regexes = regexes
    }

    private static func compile(_ pattern: String, ignoreCase: Bool) -> Regex<AnyRegexOutput>? {
        guard let regex = try? Regex(pattern) else { return nil }
        let configured = ignoreCase ? regex.ignoresCase() : regex
        _ = try? configured.firstMatch(in: "")  // compile the program now, not on first use from several threads
        return configured
    }

    /// Why `pattern` is not a regular expression, or nil when it compiles.
    static func compileError(_ pattern: String, ignoreCase: Bool) -> String? {
        do {
            _ = try Regex(pattern)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Calls `found` with the range and pattern index of each whole-word match in `segment`.
    func matches(in segment: SegmentWords, _ found: (Range<String.Index>, Int) -> Void) {
        if !phrases.isEmpty {
            let ranges = segment.ranges
            for start in ranges.indices {
                let key = ignoreCase ? segment.folded[start] : String(segment.text[ranges[start]])
                guard let candidates = phrases[key] else { continue }
                for phrase in candidates where start + phrase.words.count <= ranges.count {
                    var matched = true
                    for offset in 1..<max(1, phrase.words.count) {
                        let position = start + offset
                        let word = ignoreCase ? segment.folded[position] : String(segment.text[ranges[position]])
                        if word != phrase.words[offset] {
                            matched = false
                            break
                        }
                    }
                    if matched { found(ranges[start].lowerBound..<ranges[start + phrase.words.count - 1].upperBound, phrase.index) }
                }
            }
        }
        for (regex, index) in regexes {
            for match in segment.text.matches(of: regex) where WordScanner.isWholeWord(match.range, in: segment.text) {
                found(match.range, index)
            }
        }
    }
}
