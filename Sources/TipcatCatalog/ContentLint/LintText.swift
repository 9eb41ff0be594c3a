import TipcatCore
import TipcatLocalization
import TipcatText

/// One text a content rule reads: a tip field in one locale, expanded into what a user can see.
struct LintText {
    /// A piece of a visible variant of a message.
    enum Segment {
        case text(String)
        /// `{path}`: shown as the tip's example value, or as `LintText.placeholderWidth` columns.
        case placeholder(String)
        /// `#` in a plural branch of the argument at the path (nil when unknown).
        case pound(String?)
    }

    /// Columns a placeholder counts for when the tip has no example value for it.
    static let placeholderWidth = 10
    /// Columns `#` counts for when the tip has no example value for its plural argument.
    static let poundWidth = 2
    /// The most variants one message expands to (every plural and select branch, nested ones multiplied).
    static let maxVariants = 64

    let tipID: TipID
    /// Display widths of the tip's example values by placeholder path (`trail.name` → 11).
    let exampleWidths: [String: Int]
    let field: ContentRule.Field
    let key: String
    let locale: LocaleID
    /// `locale` and its parents (`de-CH`, `de`), for locale-scoped rules and limits.
    let localeChain: [LocaleID]
    /// Whether this is the source text from the tip file (else a translation).
    let isSource: Bool
    let location: SourceLocation?
    /// The message text as written in the file, when the file holds it without escapes (columns inside it
    /// can then be computed); nil otherwise.
    let verbatimText: String?
    /// Each visible variant: one per plural or select branch.
    let variants: [[Segment]]

    /// The device a text is for: a tip's `platforms` entry (source texts) or a String Catalog device variation
    /// (translations), by String Catalog device name (`mac`); nil for the text every device shows.
    var device: String? = nil

    /// How messages name the text: `the title of NewTrailTip`, `the mac title of NewTrailTip`, `the 'de'
    /// translation of NewTrailTip.title`, `the 'de' translation of NewTrailTip.title on mac`.
    var description: String {
        let name = field == .action ? "action title" : field.rawValue
        if isSource { return "the \(device.map { $0 + " " } ?? "")\(name) of \(tipID)" }
        return "the '\(locale)' translation of \(key)" + (device.map { " on \($0)" } ?? "")
    }

    /// The display width of a variant as a reader sees it: inline Markdown markup not counted (`**Save**` is 4
    /// columns, a link its label), placeholders counted as their example values.
    func width(of variant: [Segment]) -> Int {
        var total = 0
        var hasMarkup = false
        for segment in variant {
            switch segment {
            case .text(let text):
                if !InlineMarkup.isPlain(text) { hasMarkup = true }
                total += DisplayWidth.of(text)
            case .placeholder(let path): total += exampleWidths[path] ?? Self.placeholderWidth
            case .pound(let path): total += path.flatMap { exampleWidths[$0] } ?? Self.poundWidth
            }
        }
        guard hasMarkup else { return total }
        // Markup can span placeholders (`**{name}**`): parse the whole variant with each value as one object
        // replacement character, then count the visible text plus the values.
        var joined = ""
        var values = 0
        for segment in variant {
            switch segment {
            case .text(let text): joined += text
            case .placeholder(let path):
                joined.unicodeScalars.append(Self.valueMark)
                values += exampleWidths[path] ?? Self.placeholderWidth
            case .pound(let path):
                joined.unicodeScalars.append(Self.valueMark)
                values += path.flatMap { exampleWidths[$0] } ?? Self.poundWidth
            }
        }
        let visible = InlineMarkup.parse(joined).visibleText
        return DisplayWidth.of(String(visible.unicodeScalars.filter { $0 != Self.valueMark })) + values
    }

    /// Stands for a substituted value while a variant's markup is parsed.
    private static let valueMark: Unicode.Scalar = "\u{FFFC}"

    /// The display widths of `tip`'s example values for every placeholder of its texts (computed once per tip).
    static func exampleWidths(of tip: Tip) -> [String: Int] {
        guard tip.example != nil else { return [:] }
        var widths: [String: Int] = [:]
        for text in tip.localizableTexts {
            for placeholder in text.message?.placeholders ?? [] where widths[placeholder.path] == nil {
                if let value = exampleValue(placeholder.path, in: tip) { widths[placeholder.path] = DisplayWidth.of(value.displayText) }
            }
        }
        return widths
    }

    /// The tip's example value at a dotted path (`trail.name`).
    static func exampleValue(_ path: String, in tip: Tip) -> Value? {
        guard let example = tip.example else { return nil }
        var parts = path.split(separator: ".")[...]
        guard let first = parts.popFirst(), var value = example[String(first)] else { return nil }
        for part in parts {
            guard case .record(let fields) = value, let next = fields[String(part)] else { return nil }
            value = next
        }
        return value
    }

    /// The visible variants of a message: one per combination of plural and select branches (capped).
    static func variants(of message: Message, poundPath: String? = nil) -> [[Segment]] {
        expand(message.parts, poundPath: poundPath)
    }

    private static func expand(_ parts: [MessagePart], poundPath: String?) -> [[Segment]] {
        var variants: [[Segment]] = [[]]
        for part in parts {
            switch part {
            case .text(let text):
                for index in variants.indices { variants[index].append(.text(text)) }
            case .placeholder(let path), .number(let path, _, _):
                for index in variants.indices { variants[index].append(.placeholder(path)) }
            case .pound:
                for index in variants.indices { variants[index].append(.pound(poundPath)) }
            case .plural(let path, _, let cases):
                variants = product(variants, cases.map { expand($0.parts, poundPath: path) })
            case .select(_, let cases):
                variants = product(variants, cases.map { expand($0.parts, poundPath: poundPath) })
            }
        }
        return variants
    }

    private static func product(_ prefixes: [[Segment]], _ branches: [[[Segment]]]) -> [[Segment]] {
        var result: [[Segment]] = []
        for prefix in prefixes {
            for branch in branches {
                for suffix in branch {
                    guard result.count < maxVariants else { return result }
                    result.append(prefix + suffix)
                }
            }
        }
        return result.isEmpty ? prefixes : result
    }
}

/// Splits text into words for whole-word matching.
///
/// A word is a run of letters, digits and marks, with `'`, `’` or `-` between two of them (`don't`,
/// `sign-in`). Wide letters (Han, kana) are one word each, so phrases in scripts without spaces match
/// character by character.
enum WordScanner {
    static func isWordCharacter(_ character: Character) -> Bool {
        if character.isLetter || character.isNumber { return true }
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    static func isWide(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first, scalar.value >= 0x1100 else { return false }
        return character.isLetter && DisplayWidth.of(character) == 2
    }

    private static func isJoiner(_ character: Character) -> Bool {
        character == "'" || character == "\u{2019}" || character == "-"
    }

    /// The ranges of the words of `text`, in order.
    static func words(in text: String) -> [Range<String.Index>] {
        if let ascii = asciiWords(in: text) { return ascii }
        var result: [Range<String.Index>] = []
        var start: String.Index?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if isWide(character) {
                if let wordStart = start { result.append(wordStart..<index) }
                start = nil
                result.append(index..<next)
            } else if isWordCharacter(character) {
                if start == nil { start = index }
            } else if start != nil, isJoiner(character), next < text.endIndex, isWordCharacter(text[next]), !isWide(text[next]) {
                // a joiner inside a word
            } else if let wordStart = start {
                result.append(wordStart..<index)
                start = nil
            }
            index = next
        }
        if let wordStart = start { result.append(wordStart..<text.endIndex) }
        return result
    }

    /// `words(in:)` for ASCII text, byte by byte; nil when the text is not ASCII.
    private static func asciiWords(in text: String) -> [Range<String.Index>]? {
        let utf8 = text.utf8
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }
        var result: [Range<String.Index>] = []
        var start: String.Index?
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            guard byte < 0x80 else { return nil }
            let next = utf8.index(after: index)
            if isWordByte(byte) {
                if start == nil { start = index }
            } else if start != nil, byte == UInt8(ascii: "'") || byte == UInt8(ascii: "-"), next != utf8.endIndex, isWordByte(utf8[next]) {
                // a joiner inside a word
            } else if let wordStart = start {
                result.append(wordStart..<index)
                start = nil
            }
            index = next
        }
        if let wordStart = start { result.append(wordStart..<text.endIndex) }
        return result
    }

    /// Whether the characters around `range` leave it a whole word.
    static func isWholeWord(_ range: Range<String.Index>, in text: String) -> Bool {
        guard !range.isEmpty else { return false }
        if range.lowerBound > text.startIndex {
            let before = text[text.index(before: range.lowerBound)]
            if isWordCharacter(before), !isWide(before), !isWide(text[range.lowerBound]) { return false }
        }
        if range.upperBound < text.endIndex {
            let after = text[range.upperBound]
            if isWordCharacter(after), !isWide(after), !isWide(text[text.index(before: range.upperBound)]) { return false }
        }
        return true
    }
}
