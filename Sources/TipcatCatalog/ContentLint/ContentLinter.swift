import TipcatCore
import TipcatLocalization

/// What a content check found in one text: the kind's default message and the values a rule's own
/// message may substitute (`match`, `expected`, `max`, `actual`).
struct ContentFinding {
    /// What in the text a finding points at, when the text is written verbatim in its file.
    enum Anchor {
        /// The one whole-word occurrence of these words.
        case words(String)
        /// The one occurrence of this text.
        case text(String)
        /// This ending of the text.
        case ending(String)
    }

    var defaultMessage: String
    var values: [String: String]
    var anchor: Anchor?
}

/// One rule kind's check over a text. One kind a file; `ContentLinter.compile` lists them.
protocol ContentCheck: Sendable {
    /// Whether the check reads words; texts are split into words once for all such checks.
    var readsWords: Bool { get }
    /// Reports what the check finds in `text`. `words` is parallel to `text.variants` and their segments
    /// (nil for placeholders, and everywhere when no rule reads words).
    func check(_ text: LintText, words: [[SegmentWords?]], report: (ContentFinding) -> Void)
}

/// Runs the enabled content rules of `lint.json` over every tip text: the source text of each field in
/// scope and each translation whose state is `translated`.
///
/// Rules are compiled once (phrase tables, regular expressions); tips are checked in parallel chunks.
struct ContentLinter: Sendable {
    private struct Compiled: Sendable {
        var rule: ContentRule
        var check: any ContentCheck
        /// The locales in scope (nil: all).
        var locales: [LocaleID]?
    }

    private struct ScopeKey: Hashable {
        var field: ContentRule.Field
        var locale: LocaleID
    }

    private let rules: [Compiled]
    private let readsWords: Bool

    init(rules: [ContentRule], sourceLanguage: LocaleID) {
        self.rules = rules.filter(\.enabled).map { rule in
            let check: any ContentCheck
            var locales = rule.scope.locales
            switch rule.kind {
            case .existence(let tokens, let ignoreCase, let regex):
                check = ExistenceCheck(matcher: PatternMatcher(patterns: tokens, ignoreCase: ignoreCase, regex: regex))
            case .substitution(let swaps, let ignoreCase, let regex):
                check = SubstitutionCheck(
                    swaps: swaps, matcher: PatternMatcher(patterns: swaps.map(\.pattern), ignoreCase: ignoreCase, regex: regex))
            case .capitalization(let style, let exceptions):
                check = CapitalizationCheck(style: style, exceptions: exceptions)
                // Case conventions belong to a language (German capitalizes nouns): the source language by default.
                if locales == nil { locales = [sourceLanguage] }
            case .length(let max, let maxByLocale):
                check = LengthCheck(max: max, maxByLocale: maxByLocale)
            case .punctuation(let forbidEnding, let forbid):
                check = PunctuationCheck(forbidEnding: forbidEnding, forbid: forbid)
            }
            return Compiled(rule: rule, check: check, locales: locales)
        }
        readsWords = self.rules.contains { $0.check.readsWords }
    }

    func check(_ catalog: Catalog) -> [Diagnostic] {
        guard !rules.isEmpty else { return [] }
        let tips = catalog.tips
        let chunks = concurrentChunks(count: tips.count, chunkSize: 128) { range in
            var cache = Cache()
            var findings: [Diagnostic] = []
            for tip in tips[range] {
                check(tip, in: catalog, cache: &cache, into: &findings)
            }
            return findings
        }
        return chunks.joinedArrays()
    }

    /// Per-chunk memo: the rules for a field and locale, and each locale's chain.
    private struct Cache {
        var rules: [ScopeKey: [Int]] = [:]
        var chains: [LocaleID: [LocaleID]] = [:]

        mutating func chain(_ locale: LocaleID) -> [LocaleID] {
            if let chain = chains[locale] { return chain }
            let chain = locale.fallbackChain(sourceLanguage: locale)
            chains[locale] = chain
            return chain
        }
    }

    private func check(_ tip: Tip, in catalog: Catalog, cache: inout Cache, into findings: inout [Diagnostic]) {
        let source = catalog.settings.sourceLanguage
        let widths = LintText.exampleWidths(of: tip)
        // The tip's texts, then each platform's own (a platform's texts are its device's source texts).
        var fields: [(ContentRule.Field, LocalizedText, String?)] = [(.title, tip.title, nil)]
        if let message = tip.message { fields.append((.message, message, nil)) }
        for action in tip.actions { fields.append((.action, action.title, nil)) }
        for device in Device.allCases {
            guard let content = tip.platforms[device] else { continue }
            if let title = content.title { fields.append((.title, title, device.catalogName)) }
            if let message = content.message { fields.append((.message, message, device.catalogName)) }
            for action in content.actions ?? [] { fields.append((.action, action.title, device.catalogName)) }
        }
        for (field, text, platform) in fields {
            // Texts no rule reads are not expanded at all.
            if let message = text.message, !rules(for: ScopeKey(field: field, locale: source), chain: cache.chain(source), cache: &cache).isEmpty {
                var lintText = LintText(tipID: tip.id, exampleWidths: widths, field: field, key: text.key, locale: source,
                                        localeChain: cache.chain(source), isSource: true, location: text.location,
                                        verbatimText: text.isVerbatim ? text.source : nil, variants: LintText.variants(of: message))
                lintText.device = platform
                run(lintText, cache: &cache, into: &findings)
            }
            guard let entry = catalog.localizations.entries[text.key] else { continue }
            // Each locale's plain translation, then its device variations (by device name).
            var translations: [(LocaleID, Translation, String?)] = entry.translations.map { ($0.key, $0.value, nil) }
            for (locale, variations) in entry.devices {
                for (name, variation) in variations.sorted(by: { $0.key < $1.key }) { translations.append((locale, variation, name)) }
            }
            for (locale, translation, device) in translations where translation.state == .translated {
                guard !rules(for: ScopeKey(field: field, locale: locale), chain: cache.chain(locale), cache: &cache).isEmpty else { continue }
                let variants: [[LintText.Segment]]
                var verbatimText: String?
                switch translation.content {
                case .message(let message):
                    variants = LintText.variants(of: message)
                    if translation.isVerbatim { verbatimText = message.text }
                case .plural(let argument, let forms):
                    variants = forms.keys.sorted().flatMap { forms[$0].map { LintText.variants(of: $0, poundPath: argument) } ?? [] }
                }
                var lintText = LintText(tipID: tip.id, exampleWidths: widths, field: field, key: text.key, locale: locale,
                                        localeChain: cache.chain(locale), isSource: false,
                                        location: translation.location, verbatimText: verbatimText, variants: variants)
                lintText.device = device
                run(lintText, cache: &cache, into: &findings)
            }
        }
    }

    private func rules(for key: ScopeKey, chain: [LocaleID], cache: inout Cache) -> [Int] {
        if let cached = cache.rules[key] { return cached }
        let indices = rules.indices.filter { index in
            let rule = rules[index]
            guard rule.rule.scope.fields.contains(key.field) else { return false }
            guard let locales = rule.locales else { return true }
            return chain.contains { locales.contains($0) }
        }
        cache.rules[key] = indices
        return indices
    }

    private func run(_ text: LintText, cache: inout Cache, into findings: inout [Diagnostic]) {
        let indices = rules(for: ScopeKey(field: text.field, locale: text.locale), chain: text.localeChain, cache: &cache)
        guard !indices.isEmpty else { return }
        var words: [[SegmentWords?]] = []
        if readsWords, indices.contains(where: { rules[$0].check.readsWords }) {
            words = text.variants.map { variant in
                variant.map { segment in
                    if case .text(let string) = segment { return SegmentWords(string) }
                    return nil
                }
            }
        }
        for index in indices {
            let rule = rules[index].rule
            var reported = Set<String>()
            rules[index].check.check(text, words: words) { finding in
                let message = rule.message.map { Self.substitute($0, finding.values, text: text) } ?? finding.defaultMessage
                guard reported.insert(message).inserted else { return }
                findings.append(Diagnostic(rule.severity, message, rule: rule.id, at: Self.location(of: finding.anchor, in: text)))
            }
        }
    }

    /// The column of the anchor inside the text when the text is verbatim in its file and the anchor is
    /// unambiguous; else the text's own location (its opening quote).
    static func location(of anchor: ContentFinding.Anchor?, in text: LintText) -> SourceLocation? {
        guard let anchor, let raw = text.verbatimText, let base = text.location else { return text.location }
        var offset: String.Index?
        switch anchor {
        case .words(let words):
            let ranges = raw.ranges(of: words).filter { WordScanner.isWholeWord($0, in: raw) }
            if ranges.count == 1 { offset = ranges[0].lowerBound }
        case .text(let needle):
            let ranges = raw.ranges(of: needle)
            if ranges.count == 1 { offset = ranges[0].lowerBound }
        case .ending(let ending):
            let trimmed = raw[..<(raw.lastIndex { !$0.isWhitespace }.map { raw.index(after: $0) } ?? raw.startIndex)]
            if trimmed.hasSuffix(ending) { offset = trimmed.index(trimmed.endIndex, offsetBy: -ending.count, limitedBy: trimmed.startIndex) }
        }
        guard let offset else { return base }
        let column = base.column + 1 + raw.unicodeScalars[..<offset].count
        return SourceLocation(file: base.file, line: base.line, column: column)
    }

    /// `template` with `{match}`, `{expected}`, `{max}`, `{actual}` and `{text}` replaced; other braces kept.
    static func substitute(_ template: String, _ values: [String: String], text: LintText) -> String {
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            if let value = name == "text" ? text.description : values[name] {
                result += value
            } else {
                result += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        return result
    }
}
