/// The pseudo-locales `en-XA` and `ar-XB`: not translations, but the source text transformed at display time so
/// that untranslated (hard-coded) strings, truncation and right-to-left layout problems stand out.
///
/// Only literal text is transformed. Argument names, plural and select syntax, `#`, and the values substituted for
/// placeholders stay as they are, and so does Markdown markup: emphasis markers are punctuation (never
/// changed), and code spans (`` `…` ``) and link destinations (`](…)`) are copied verbatim.
///
/// - `en-XA` (accented): every ASCII letter becomes an accented look-alike (`a → á`, `T → Ţ`); after formatting,
///   the text is padded by about 40% with `~` words and wrapped in `[` … `]`.
/// - `ar-XB` (right-to-left): every word of literal text is set between RIGHT-TO-LEFT MARKs (U+200F), and the
///   whole text starts with one, so it lays out right to left the way Android's `ar-XB` does. Marks rather than
///   the RLO…PDF override: the terminal escaper removes bidi overrides (Trojan Source), marks survive it.
public enum PseudoLocale: Sendable, Hashable, CaseIterable {
    /// `en-XA`: accented, about 40% longer, bracketed.
    case accented
    /// `ar-XB`: right-to-left.
    case bidi

    /// The pseudo-locale `locale` names (`en-XA`, `ar-XB`, in any case), or nil for every other locale.
    public init?(_ locale: LocaleID) {
        switch locale.identifier {
        case "en-XA": self = .accented
        case "ar-XB": self = .bidi
        default: return nil
        }
    }

    /// The locale identifier: `en-XA` or `ar-XB`.
    public var identifier: String {
        switch self {
        case .accented: "en-XA"
        case .bidi: "ar-XB"
        }
    }

    /// Whether text in this pseudo-locale lays out right to left.
    public var isRightToLeft: Bool { self == .bidi }

    /// The RIGHT-TO-LEFT MARK, U+200F.
    static let rlm: Character = "\u{200F}"

    /// `message` with every literal text part transformed, in plural and select branches too. Placeholders,
    /// selectors, offsets and `#` are unchanged, so the result formats with the same values. The result's `text`
    /// and `placeholders` still describe the source message.
    public func localize(_ message: Message) -> Message {
        Message(text: message.text, parts: localize(message.parts), placeholders: message.placeholders)
    }

    private func localize(_ parts: [MessagePart]) -> [MessagePart] {
        parts.map { part in
            switch part {
            case .text(let text): .text(localize(literal: text))
            case .placeholder, .pound, .number: part
            case .plural(let path, let offset, let cases):
                .plural(path: path, offset: offset, cases: cases.map { MessageCase(selector: $0.selector, parts: localize($0.parts)) })
            case .select(let path, let cases):
                .select(path: path, cases: cases.map { MessageCase(selector: $0.selector, parts: localize($0.parts)) })
            }
        }
    }

    /// One piece of literal text transformed, leaving Markdown code spans and link destinations as they are.
    public func localize(literal text: String) -> String {
        let segments = Self.segments(of: text)
        switch self {
        case .accented:
            return segments.map { $0.isVerbatim ? $0.text : String($0.text.map(Self.accented)) }.joined()
        case .bidi:
            guard !text.isEmpty else { return text }
            var output = ""
            for segment in segments {
                guard !segment.isVerbatim else {
                    output += segment.text
                    continue
                }
                var inSpace = false
                for character in segment.text {
                    if character.isWhitespace != inSpace, !output.isEmpty {
                        output.append(Self.rlm)  // a mark at every word edge
                    }
                    inSpace = character.isWhitespace
                    output.append(character)
                }
            }
            if text.first?.isWhitespace == false { output.insert(Self.rlm, at: output.startIndex) }
            if text.last?.isWhitespace == false { output.append(Self.rlm) }
            return output
        }
    }

    /// The formatted text, finished: `en-XA` pads it by about 40% (rounded up) with `~` words and brackets it;
    /// `ar-XB` makes sure it starts with a RIGHT-TO-LEFT MARK (the paragraph direction), even when it begins
    /// with a substituted value.
    public func finish(_ formatted: String) -> String {
        switch self {
        case .accented:
            guard !formatted.isEmpty else { return formatted }
            let extra = (formatted.count * 2 + 4) / 5
            var padding = ""
            while padding.count < extra { padding.append(padding.count % 5 == 0 ? " " : "~") }
            if padding.last == " " { padding.removeLast(); padding.append("~") }
            return "[" + formatted + padding + "]"
        case .bidi:
            return formatted.first == Self.rlm ? formatted : String(Self.rlm) + formatted
        }
    }

    // MARK: Letters

    private static let lowercase = Array("áƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýž")
    private static let uppercase = Array("ÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ")

    /// An ASCII letter's accented look-alike; any other character unchanged.
    static func accented(_ character: Character) -> Character {
        guard let ascii = character.asciiValue else { return character }
        switch ascii {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return lowercase[Int(ascii - UInt8(ascii: "a"))]
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return uppercase[Int(ascii - UInt8(ascii: "A"))]
        default: return character
        }
    }

    // MARK: Markdown

    /// A run of literal text; verbatim runs (code spans, link destinations) are not transformed.
    struct Segment: Equatable {
        var text: String
        var isVerbatim: Bool
    }

    /// `text` cut into transformable runs and verbatim ones: a code span from a run of backticks to the next run
    /// of the same length, and a link destination from the `(` right after `]` to its matching `)`. An opener
    /// without its closer is ordinary text.
    static func segments(of text: String) -> [Segment] {
        let characters = Array(text)
        var segments: [Segment] = []
        var plain = ""
        func verbatim(_ range: Range<Int>) {
            if !plain.isEmpty { segments.append(Segment(text: plain, isVerbatim: false)) }
            plain = ""
            segments.append(Segment(text: String(characters[range]), isVerbatim: true))
        }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "`" {
                var run = index
                while run < characters.count, characters[run] == "`" { run += 1 }
                let length = run - index
                if let close = closingBackticks(in: characters, from: run, length: length) {
                    verbatim(index..<close + length)
                    index = close + length
                    continue
                }
                plain += String(characters[index..<run])
                index = run
                continue
            }
            if character == "(", index > 0, characters[index - 1] == "]", let close = closingParenthesis(in: characters, from: index) {
                verbatim(index..<close + 1)
                index = close + 1
                continue
            }
            plain.append(character)
            index += 1
        }
        if !plain.isEmpty { segments.append(Segment(text: plain, isVerbatim: false)) }
        return segments
    }

    /// The start of the next run of exactly `length` backticks at or after `start`.
    private static func closingBackticks(in characters: [Character], from start: Int, length: Int) -> Int? {
        var index = start
        while index < characters.count {
            guard characters[index] == "`" else {
                index += 1
                continue
            }
            var run = index
            while run < characters.count, characters[run] == "`" { run += 1 }
            if run - index == length { return index }
            index = run
        }
        return nil
    }

    /// The `)` that closes the `(` at `open`, counting nested parentheses.
    private static func closingParenthesis(in characters: [Character], from open: Int) -> Int? {
        var depth = 0
        for index in open..<characters.count {
            switch characters[index] {
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return index }
            case " ", "\n", "\t": return nil  // a destination with a space is not a link destination
            default: continue
            }
        }
        return nil
    }
}
