import TipcatLocalization

/// `length`: at most `max` display columns (wide characters count two), with per-locale limits.
///
/// Every plural and select branch is measured; placeholders count as the tip's example values, or as
/// `LintText.placeholderWidth` columns (`#` as `LintText.poundWidth`) when the tip has none. The widest
/// branch is reported.
struct LengthCheck: ContentCheck {
    let max: Int
    let maxByLocale: [LocaleID: Int]

    var readsWords: Bool { false }

    /// The limit for a locale chain (`de-CH`, `de`): the most specific `maxByLocale` entry, else `max`.
    func limit(for chain: [LocaleID]) -> Int {
        guard !maxByLocale.isEmpty else { return max }
        for candidate in chain {
            if let limit = maxByLocale[candidate] { return limit }
        }
        return max
    }

    func check(_ text: LintText, words: [[SegmentWords?]], report: (ContentFinding) -> Void) {
        let limit = limit(for: text.localeChain)
        guard let widest = text.variants.map(text.width(of:)).max(), widest > limit else { return }
        report(ContentFinding(
            defaultMessage: "\(text.description) is \(widest) columns wide; keep it within \(limit)",
            values: ["max": String(limit), "actual": String(widest)]))
    }
}
