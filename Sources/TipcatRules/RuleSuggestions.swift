import TipcatCore

/// Did-you-mean for rule names: `Suggestions.closest` (typos) first, then abbreviations (`cnt` → `count`),
/// then shared words (`#didVisit` → `#visited-region`, `#enteredBackyardDetailView` → `#entered-backyard-detail-view`).
public enum RuleSuggestions {
    /// The candidate that `word` most plausibly meant, if any.
    public static func closest<S: Sequence>(to word: String, in candidates: S) -> String? where S.Element == String {
        let sorted = candidates.sorted()
        if let typo = Suggestions.closest(to: word, in: sorted) { return typo }
        if let abbreviated = abbreviation(word, in: sorted) { return abbreviated }
        let wanted = words(of: word)
        guard !wanted.isEmpty else { return nil }
        var best: (name: String, score: Int)?
        var tie = false
        for candidate in sorted where candidate != word {
            let have = words(of: candidate)
            let score = wanted.filter { target in have.contains { related(target, $0) } }.count
            // At least half of the typed words must reappear (by word or by a shared stem of 4+ letters).
            guard score > 0, score * 2 >= wanted.count else { continue }
            if score > (best?.score ?? 0) {
                best = (candidate, score)
                tie = false
            } else if score == best?.score {
                tie = true
            }
        }
        return tie ? nil : best?.name
    }

    /// `; did you mean 'x'?` or the empty string, ready to append to a message.
    public static func didYouMean<S: Sequence>(_ word: String, in candidates: S) -> String where S.Element == String {
        closest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The one candidate that `word` abbreviates: same first letter, the letters of `word` in order,
    /// and at least half as long (`cnt` → `count`, `lastDon` → `lastDonated`).
    static func abbreviation(_ word: String, in candidates: [String]) -> String? {
        let short = Array(word.lowercased().unicodeScalars)
        guard short.count >= 3 else { return nil }
        var found: [String] = []
        for candidate in candidates where candidate != word {
            let long = Array(candidate.lowercased().unicodeScalars)
            guard long.count > short.count, short.count * 2 >= long.count, long.first == short.first else { continue }
            var index = 0
            for scalar in long where index < short.count && scalar == short[index] { index += 1 }
            if index == short.count { found.append(candidate) }
        }
        return found.count == 1 ? found[0] : nil
    }

    /// Lowercased words of a kebab-, snake- or camel-case name, ignoring sigils: `#didVisit` → did, visit.
    static func words(of name: String) -> [String] {
        var result: [String] = []
        var word = ""
        var previousLower = false
        for character in name {
            if !(character.isLetter || character.isNumber) {
                if !word.isEmpty { result.append(word) }
                word = ""
                previousLower = false
                continue
            }
            if character.isUppercase, previousLower, !word.isEmpty {
                result.append(word)
                word = ""
            }
            word += character.lowercased()
            previousLower = character.isLowercase || character.isNumber
        }
        if !word.isEmpty { result.append(word) }
        return result
    }

    /// Same word, or one is a prefix of the other and the shorter has at least 4 letters (visit / visited).
    static func related(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        return short.count >= 4 && long.hasPrefix(short)
    }
}
