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

    let tip: Tip
    let field: ContentRule.Field
    let key: String
    let locale: LocaleID
    /// Whether this is the source text from the tip file (else a translation).
    let isSource: Bool
    let location: SourceLocation?
    /// The message text as written in the file, when the file holds it without escapes (columns inside it
    /// can then be computed); nil otherwise.
    let verbatimText: String?
    /// Each visible variant: one per plural or select branch.
    let variants: [[Segment]]

    /// How messages name the text: `the title of NewTrailTip`, `the 'de' translation of NewTrailTip.title`.
    var description: String {
        isSource ? "the \(field == .action ? "action title" : field.rawValue) of \(tip.id)" : "the '\(locale)' translation of \(key)"
    }

    /// The display width of a variant, placeholders counted as their example values.
    func width(of variant: [Segment]) -> Int {
        var total = 0
        for segment in variant {
            switch segment {
            case .text(let text): total += DisplayWidth.of(text)
            case .placeholder(let path): total += exampleValue(path).map { DisplayWidth.of($0.displayText) } ?? Self.placeholderWidth
            case .pound(let path): total += path.flatMap(exampleValue).map { DisplayWidth.of($0.displayText) } ?? Self.poundWidth
            }
        }
        return total
    }

    /// The tip's example value at a dotted path (`trail.name`).
    func exampleValue(_ path: String) -> Value? {
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
            case .placeholder(let path):
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
