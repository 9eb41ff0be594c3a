public import TipcatLocalization

/// How far a catalog's texts are translated: per supported locale, how many of the tips' localizable texts have
/// a translation in each String Catalog state, how many have none, and which String Catalog keys match no text.
///
/// A text is counted for a locale by that locale's own entry only (no `fr-CA → fr` fallback): the figures say
/// what the translators of that locale still have to do. The source language and pseudo-locales (`en-XA`,
/// `ar-XB`, derived at render time) are not counted.
public struct TranslationCoverage: Sendable, Hashable {
    /// The catalog's source language.
    public var sourceLanguage: LocaleID
    /// The String Catalog keys of every tip's title, message and action titles, in catalog order, without repeats.
    public var keys: [String]
    /// One entry per counted locale, in `supportedLocales` order.
    public var locales: [LocaleCoverage]
    /// The String Catalog keys that match no tip text, sorted.
    public var orphanKeys: [String]

    /// The counts of one locale.
    public struct LocaleCoverage: Sendable, Hashable {
        public var locale: LocaleID
        /// Texts with a translation marked `translated`: the only ones shown at run time.
        public var translated: Int
        /// Texts with a translation marked `needs_review`.
        public var needsReview: Int
        /// Texts with a translation marked `new`.
        public var new: Int
        /// Texts with a translation marked `stale`.
        public var stale: Int
        /// Texts with no String Catalog entry, or an entry without this locale.
        public var missing: Int

        /// Counts for `locale`; every count defaults to zero.
        public init(locale: LocaleID, translated: Int = 0, needsReview: Int = 0, new: Int = 0, stale: Int = 0, missing: Int = 0) {
            self.locale = locale
            self.translated = translated
            self.needsReview = needsReview
            self.new = new
            self.stale = stale
            self.missing = missing
        }

        /// Every counted text: the sum of the five counts.
        public var total: Int { translated + needsReview + new + stale + missing }

        /// `translated / total` in tenths of a percent, rounded half up (`875` is 87.5%); 1000 when there is
        /// nothing to translate.
        public var percentTenths: Int { Self.tenths(translated, of: total) }

        /// `percentTenths` as text with one decimal: `87.5`, `100.0`.
        public var percentText: String { Self.text(tenths: percentTenths) }

        /// Whether the exact share of translated texts is below `percent` (0–100).
        public func isBelow(_ percent: Double) -> Bool {
            total > 0 && Double(translated) * 100 < percent * Double(total)
        }

        static func tenths(_ part: Int, of whole: Int) -> Int {
            whole == 0 ? 1000 : (part * 2000 + whole) / (2 * whole)
        }

        static func text(tenths: Int) -> String { "\(tenths / 10).\(tenths % 10)" }
    }

    /// Counts `catalog`'s texts for every supported locale except the source language and pseudo-locales.
    public init(catalog: Catalog) {
        let table = catalog.localizations
        sourceLanguage = catalog.settings.sourceLanguage
        var seen = Set<String>()
        keys = catalog.tips.flatMap { $0.localizableTexts.map(\.key) }.filter { seen.insert($0).inserted }
        var counted = Set<LocaleID>()
        let targets = catalog.settings.supportedLocales.filter {
            $0 != catalog.settings.sourceLanguage && PseudoLocale($0) == nil && counted.insert($0).inserted
        }
        locales = targets.map { [keys] locale in
            var coverage = LocaleCoverage(locale: locale)
            for key in keys {
                switch table.entries[key]?.state(for: locale) {
                case .translated?: coverage.translated += 1
                case .needsReview?: coverage.needsReview += 1
                case .new?: coverage.new += 1
                case .stale?: coverage.stale += 1
                case nil: coverage.missing += 1
                }
            }
            return coverage
        }
        orphanKeys = table.entries.keys.filter { !seen.contains($0) }.sorted()
    }

    /// The sums over every counted locale (its `locale` is the source language).
    public var total: LocaleCoverage {
        locales.reduce(into: LocaleCoverage(locale: sourceLanguage)) { sum, item in
            sum.translated += item.translated
            sum.needsReview += item.needsReview
            sum.new += item.new
            sum.stale += item.stale
            sum.missing += item.missing
        }
    }
}
