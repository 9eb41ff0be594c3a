import Testing
import TipcatCore
@testable import TipcatText

private let esc = "\u{1B}"

@Suite("Wrapping")
struct TextWrapperTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var label: String
        var text: String
        var width: Int
        var lines: [String]
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "words", text: "the quick brown fox", width: 10, lines: ["the quick", "brown fox"]),
        Case(label: "exact fit", text: "the quick", width: 9, lines: ["the quick"]),
        Case(label: "long word broken between clusters", text: "abcdefghij", width: 4, lines: ["abcd", "efgh", "ij"]),
        Case(label: "long word after a short one", text: "a abcdefgh", width: 4, lines: ["a", "abcd", "efgh"]),
        Case(label: "inner runs of spaces kept, trailing dropped", text: "a   b   ", width: 10, lines: ["a   b"]),
        Case(label: "spaces at a break dropped", text: "hello     world", width: 7, lines: ["hello", "world"]),
        Case(label: "leading indentation kept on the first line only", text: "  hello world", width: 8, lines: ["  hello", "world"]),
        Case(label: "spaces only", text: "     ", width: 3, lines: [""]),
        Case(label: "empty", text: "", width: 5, lines: [""]),
        Case(label: "existing newlines", text: "a\n\nb", width: 5, lines: ["a", "", "b"]),
        Case(label: "trailing newline", text: "a\n", width: 5, lines: ["a", ""]),
        Case(label: "CR LF", text: "one two\r\nthree", width: 5, lines: ["one", "two", "three"]),
        Case(label: "width 0 counts as 1", text: "ab", width: 0, lines: ["a", "b"]),
        Case(label: "negative width counts as 1", text: "ab", width: -3, lines: ["a", "b"]),
        Case(label: "a wide cluster alone when the width is 1", text: "日本", width: 1, lines: ["日", "本"]),
        Case(label: "CJK breaks between characters", text: "日本語のテキストです", width: 6, lines: ["日本語", "のテキ", "ストで", "す"]),
        Case(label: "odd width with CJK", text: "日本語", width: 5, lines: ["日本", "語"]),
        Case(label: "closing punctuation kept off the line start", text: "これは、テスト。", width: 6, lines: ["これ", "は、テ", "スト。"]),
        Case(label: "opening bracket kept off the line end", text: "あいう「えお」", width: 8, lines: ["あいう", "「えお」"]),
        Case(label: "Latin then CJK", text: "Tip: 日本語", width: 7, lines: ["Tip: 日", "本語"]),
        Case(label: "zero-width space is a break opportunity", text: "abc\u{200B}def", width: 4, lines: ["abc\u{200B}", "def"]),
        Case(label: "ZWJ families never split", text: "👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", width: 3, lines: ["👨‍👩‍👧", "👨‍👩‍👧", "👨‍👩‍👧"]),
        Case(label: "flags never split", text: "🇯🇵🇫🇷🇩🇪", width: 4, lines: ["🇯🇵🇫🇷", "🇩🇪"]),
        Case(label: "flags at width 1", text: "🇯🇵🇫🇷", width: 1, lines: ["🇯🇵", "🇫🇷"]),
        Case(label: "skin tones stay on their base", text: "👍🏽👍🏿", width: 3, lines: ["👍🏽", "👍🏿"]),
        Case(label: "decomposed accents stay on their base", text: "e\u{301}e\u{301}e\u{301}", width: 2, lines: ["e\u{301}e\u{301}", "e\u{301}"]),
        Case(label: "Arabic stays in logical order", text: "مرحبا بالعالم", width: 8, lines: ["مرحبا", "بالعالم"]),
        Case(label: "Hebrew with points", text: "שָׁלוֹם עוֹלָם", width: 5, lines: ["שָׁלוֹם", "עוֹלָם"]),
        Case(label: "escape sequences are never split and move with the text after them",
             text: "\(esc)[1mabcdef\(esc)[0m", width: 3, lines: ["\(esc)[1mabc", "def\(esc)[0m"]),
        Case(label: "an escape before a broken cluster moves with it",
             text: "abc\(esc)[31mdef", width: 3, lines: ["abc", "\(esc)[31mdef"]),
        Case(label: "an escape among spaces at a break stays at the line end",
             text: "foo \(esc)[1m bar", width: 4, lines: ["foo\(esc)[1m", "bar"]),
        Case(label: "OSC 8 hyperlink is zero columns",
             text: "see \(esc)]8;;https://example.com/a/long/path\(esc)\\docs\(esc)]8;;\(esc)\\ now", width: 8,
             lines: ["see \(esc)]8;;https://example.com/a/long/path\(esc)\\docs\(esc)]8;;\(esc)\\", "now"]),
    ]

    @Test("examples", arguments: cases)
    func example(_ example: Case) {
        #expect(TextWrapper.wrap(example.text, width: example.width) == example.lines)
    }

    // MARK: - Properties over seeded random text

    static let words = [
        "tip", "catalog", "Kompass", "na\u{EF}ve", "nai\u{308}ve", "supercalifragilisticexpialidocious", "x",
        "日本語", "テキスト", "、", "。", "「引用」", "（注）", "中文字符", "한국어", "\u{1112}\u{1161}\u{11AB}",
        "مَرْحَبًا", "שָׁלוֹם", "नमस्ते", "👍", "👍🏽", "👨\u{200D}👩\u{200D}👧", "🇯🇵", "🇫", "❤\u{FE0F}", "❤", "1\u{FE0F}\u{20E3}",
        "e\u{301}", "\u{301}", "ｱｲｳ", "ＦＵＬＬ", "\u{200B}", "\u{200D}", "a,b.c", "(x)", "100%",
    ]
    static let escapes = [
        "\(esc)[1m", "\(esc)[0m", "\(esc)[m", "\(esc)[38;2;255;0;0m", "\(esc)[48;5;208m",
        "\(esc)]8;;https://example.com\(esc)\\", "\(esc)]8;;\(esc)\\", "\(esc)]52;c;SGVsbG8=\u{7}",
        "\u{9B}4m", "\(esc)(B", "\(esc)7",
    ]

    static func randomText(_ random: inout SeededGenerator) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...40, using: &random) {
            let roll = Int.random(in: 0..<100, using: &random)
            switch roll {
            case 0..<22: text += String(repeating: " ", count: Int.random(in: 1...3, using: &random))
            case 22..<25: text += "\n"
            case 25..<40: text += escapes.randomElement(using: &random) ?? ""
            default: text += words.randomElement(using: &random) ?? ""
            }
        }
        return text
    }

    /// Characters other than a lone space or newline, counted without re-segmenting anything.
    static func visibleCharacterCount(_ text: String) -> Int {
        text.reduce(0) { $1 == " " || $1 == "\n" || $1 == "\r\n" ? $0 : $0 + 1 }
    }

    static func occurrences(of needle: String, in text: String) -> Int {
        var count = 0
        var rest = Substring(text)
        while let range = rest.range(of: needle) {
            count += 1
            rest = rest[range.upperBound...]
        }
        return count
    }

    @Test("wrapMeasured: the same lines as wrap, each with its DisplayWidth", arguments: [UInt64(4), 5])
    func measuredWidthsAreDisplayWidths(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<1500 {
            let text = Self.randomText(&random)
            let width = Int.random(in: 1...24, using: &random)
            let (lines, widths) = TextWrapper.wrapMeasured(text, width: width)
            let context = Comment(rawValue: "width \(width), text \(text.debugDescription)")
            #expect(lines == TextWrapper.wrap(text, width: width), context)
            #expect(widths == lines.map { DisplayWidth.of($0) }, context)
        }
        // Indentation kept on a first line, escapes at a line's ends, wide text.
        for text in ["  indented text that wraps", "\u{1B}[1mbold words here\u{1B}[0m next", "日本語のテキストです", "a\u{301} b\u{301}"] {
            let (lines, widths) = TextWrapper.wrapMeasured(text, width: 6)
            #expect(widths == lines.map { DisplayWidth.of($0) }, "\(text.debugDescription)")
        }
    }

    @Test("random mixed-script text: width, content, clusters and escapes", arguments: [UInt64(1), 2, 3])
    func randomText(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<1500 {
            let text = Self.randomText(&random)
            let width = Int.random(in: 2...24, using: &random)
            let lines = TextWrapper.wrap(text, width: width)
            let context = Comment(rawValue: "width \(width), text \(text.debugDescription), lines \(lines.debugDescription)")

            // No line is wider than the width, and none ends with a space.
            for line in lines {
                #expect(DisplayWidth.of(line) <= width, context)
                #expect(ANSI.strip(line).last != " ", context)
                #expect(!line.contains("\n"), context)
            }
            // Existing newlines are kept as line boundaries.
            #expect(lines.count >= text.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }, context)
            // Nothing but spaces is lost, and the order is kept, scalar for scalar.
            let kept = lines.joined().unicodeScalars.filter { $0 != " " }
            let expected = text.unicodeScalars.filter { $0 != " " && $0 != "\n" }
            #expect(Array(kept) == Array(expected), context)
            // No grapheme cluster is split: splitting one would add Characters.
            #expect(lines.reduce(0) { $0 + Self.visibleCharacterCount($1) } == Self.visibleCharacterCount(text), context)
            // No escape sequence is split.
            for escape in Self.escapes {
                let inLines = lines.reduce(0) { $0 + Self.occurrences(of: escape, in: $1) }
                #expect(inLines == Self.occurrences(of: escape, in: text), context)
            }
        }
    }

    @Test("width 1: only a single two-column cluster may exceed it")
    func widthOne() {
        var random = SeededGenerator(seed: 42)
        for _ in 0..<500 {
            let text = Self.randomText(&random)
            for line in TextWrapper.wrap(text, width: 1) where DisplayWidth.of(line) > 1 {
                let visible = ANSI.strip(line).filter { DisplayWidth.of($0) > 0 }
                #expect(visible.count == 1 && DisplayWidth.of(visible) == 2, "\(line.debugDescription) in \(text.debugDescription)")
            }
        }
    }

    @Test("text that fits comes back unchanged")
    func fits() {
        let text = "Tap \(esc)[1m★\(esc)[0m to save 日本語 👨‍👩‍👧"
        #expect(TextWrapper.wrap(text, width: DisplayWidth.of(text)) == [text])
        #expect(TextWrapper.wrap(text, width: DisplayWidth.of(text) - 1) != [text])
    }
}

@Suite("Padding and truncation")
struct FittingTests {
    @Test("pad by display width")
    func pad() {
        #expect(TextWrapper.pad("ab", to: 5) == "ab   ")
        #expect(TextWrapper.pad("日本", to: 5) == "日本 ")
        #expect(TextWrapper.pad("日本", to: 5, alignment: .trailing) == " 日本")
        #expect(TextWrapper.pad("ab", to: 7, alignment: .center) == "  ab   ")
        #expect(TextWrapper.pad("\(esc)[1mab\(esc)[0m", to: 4) == "\(esc)[1mab\(esc)[0m  ")
        #expect(TextWrapper.pad("abcdef", to: 3) == "abcdef")
        #expect(TextWrapper.pad("👨‍👩‍👧", to: 3) == "👨‍👩‍👧 ")
    }

    @Test("truncate by display width")
    func truncate() {
        #expect(TextWrapper.truncate("hello world", to: 20) == "hello world")
        #expect(TextWrapper.truncate("hello world", to: 8) == "hello w…")
        #expect(TextWrapper.truncate("hello world", to: 7) == "hello…")
        #expect(TextWrapper.truncate("abcdef", to: 4) == "abc…")
        #expect(TextWrapper.truncate("日本語テキスト", to: 6) == "日本…")
        #expect(TextWrapper.truncate("日本語テキスト", to: 5) == "日本…")
        #expect(TextWrapper.truncate("👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", to: 4) == "👨‍👩‍👧…")
        #expect(TextWrapper.truncate("e\u{301}e\u{301}e\u{301}", to: 2) == "e\u{301}…")
        #expect(TextWrapper.truncate("abcdef", to: 3, ellipsis: "...") == "...")
        #expect(TextWrapper.truncate("abcdef", to: 2, ellipsis: "...") == "ab")
        #expect(TextWrapper.truncate("abcdef", to: 0) == "")
        #expect(TextWrapper.truncate("abcdef", to: -1) == "")
        // Escape sequences of the cut part are kept, so the reset is not lost.
        #expect(TextWrapper.truncate("\(esc)[1mabcdef\(esc)[0m", to: 4) == "\(esc)[1mabc…\(esc)[0m")
        #expect(TextWrapper.truncate("ab \(esc)[0m cdef", to: 4) == "ab…\(esc)[0m")
    }

    @Test("truncated text never exceeds the width")
    func truncateProperty() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<1000 {
            let text = TextWrapperTests.randomText(&random).replacingNewlines()
            let width = Int.random(in: 0...20, using: &random)
            let cut = TextWrapper.truncate(text, to: width)
            #expect(DisplayWidth.of(cut) <= max(width, 0), "\(text.debugDescription) → \(cut.debugDescription)")
        }
    }
}

private extension String {
    func replacingNewlines() -> String { String(map { $0 == "\n" ? " " : $0 }) }
}

/// The fast paths (one line, or every line, fitting unchanged) give exactly what the full wrapper gives.
@Suite struct TextWrapperFastPathTests {
    static let texts = [
        "fits", "fits\non two lines", "a\n\nb\n", "\n", "", "line one\n  indented line", "trailing space \nnext",
        "one line that is far too long to fit\nshort", "short\none line that is far too long to fit", "a\r\nb",
        "tab\there", "日本語\nab", "\u{1B}[1mbold\u{1B}[0m\nplain", "x\n\u{85}y", " lead\nok", "שלום  \u{200F}", "ok \u{200B}\nab",
    ]

    @Test(arguments: texts)
    func sameAsTheFullWrapper(_ text: String) {
        for width in [1, 4, 12, 40] {
            let full = TextWrapper.wrapWithoutFastPaths(text, width: width)
            #expect(TextWrapper.wrap(text, width: width) == full, "\(text.debugDescription) at \(width)")
            if let fast = TextWrapper.linesThatFitUnchanged(text, width: width) {
                #expect(fast == full, "\(text.debugDescription) at \(width)")
            }
        }
    }

    @Test func theMultiLineFastPathTakesFittingLinesOnly() {
        #expect(TextWrapper.linesThatFitUnchanged("ab\n\ncd", width: 2) == ["ab", "", "cd"])
        #expect(TextWrapper.linesThatFitUnchanged("ab\nabc", width: 2) == nil)
        #expect(TextWrapper.linesThatFitUnchanged("ab \ncd", width: 9) == nil)
        #expect(TextWrapper.linesThatFitUnchanged("ab\r\ncd", width: 9) == nil)
    }
}

/// The one-pass wrapper for plain text (`TextWrapper.plainLines`) gives exactly the full wrapper's lines and widths,
/// and refuses any other text.
@Suite struct PlainTextWrapperTests {
    /// Spaces, newlines and visible clusters: ASCII, Latin (a decomposed accent too), Cyrillic, Arabic, kana (small
    /// ones too), ideographs, Hangul, CJK and Western punctuation that must not start or end a line, a no-break
    /// space, emoji (with VS16, a ZWJ sequence, a flag, a skin tone), Devanagari with its marks.
    static let alphabet: [String] = [
        " ", " ", " ", "  ", "\n", "a", "b", "Word", "é", "e\u{301}", "ß", "Ж", "ж", "م", "ع", "あ", "ぁ", "ッ", "ー", "日", "本",
        "語", "한", "、", "。", "「", "」", "（", "）", "!", ",", ".", "(", "[", "\u{A0}", "😀", "🚀", "🏔\u{FE0F}", "👨‍👩‍👧", "🇯🇵", "👍🏽",
        "！", "ｱ", "—", "…", "“", "”", "नमस्ते",
        // Clusters that start or end with a space byte (a mark after a space; Arabic's number sign, which prepends to
        // what follows), and a joiner: plain where they join something, refused where they stand alone.
        " \u{301}", "\u{600}", "\u{200D}",
    ]

    static func randomPlainText(_ random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...40, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "" }.joined()
    }

    @Test func plainTextWrapsAsTheFullWrapperWrapsIt() {
        var random = SeededGenerator(seed: 36)
        var refused = 0
        for _ in 0..<3000 {
            let text = Self.randomPlainText(&random)
            for width in [1, 2, 3, 5, 8, 13, 30] {
                let full = TextWrapper.wrapWithoutFastPaths(text, width: width)
                #expect(TextWrapper.wrapJoined(text, width: width) == full.joined(separator: "\n"), "\(text.debugDescription) at \(width)")
                guard let plain = TextWrapper.plainLines(text, width: width) else {
                    refused += 1
                    continue
                }
                #expect(plain.lines == full, "\(text.debugDescription) at \(width)")
                #expect(plain.widths == full.map { DisplayWidth.of($0) }, "\(text.debugDescription) at \(width)")
            }
        }
        // Only texts with a lone joiner or number sign are refused.
        #expect(refused > 0 && refused < 3000 * 7 / 5, "\(refused) refused")
    }

    @Test func examples() {
        #expect(TextWrapper.plainLines("Tap the compass to see where you are", width: 12)?.lines == ["Tap the", "compass to", "see where", "you are"])
        #expect(TextWrapper.plainLines("  indented text here", width: 10)?.lines == ["  indented", "text here"])
        #expect(TextWrapper.plainLines("日本語のテキスト。", width: 6)?.lines == ["日本語", "のテキ", "スト。"])
        #expect(TextWrapper.plainLines("日本語のテキスト。", width: 6)?.widths == [6, 6, 6])
        #expect(TextWrapper.plainLines("Wege 🏔\u{FE0F} hier", width: 7)?.lines == ["Wege 🏔\u{FE0F}", "hier"])
        #expect(TextWrapper.wrapJoined("abc def\n\nghi", width: 3) == "abc\ndef\n\nghi")
    }

    /// Anything but spaces, newlines and visible clusters sends the text to the full wrapper.
    @Test(arguments: ["tab\there", "a\r\nb", "\u{1B}[1mbold", "soft\u{AD}hyphen", "x\u{85}y", "\u{200B}zero", "a\u{7F}", "\u{301}lone mark"])
    func otherTextIsRefused(_ text: String) {
        #expect(TextWrapper.plainLines(text, width: 4) == nil)
        #expect(TextWrapper.wrapJoined(text, width: 4) == TextWrapper.wrapWithoutFastPaths(text, width: 4).joined(separator: "\n"))
    }
}
