import Testing
@testable import TipcatText

@Suite("Display width")
struct DisplayWidthTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var label: String
        var text: String
        var width: Int
        var testDescription: String { label }
    }

    static let clusters: [Case] = [
        Case(label: "ASCII letter", text: "a", width: 1),
        Case(label: "é composed (U+00E9)", text: "\u{E9}", width: 1),
        Case(label: "é decomposed (e + U+0301)", text: "e\u{301}", width: 1),
        Case(label: "日 (Wide)", text: "日", width: 2),
        Case(label: "ｱ halfwidth katakana (H)", text: "\u{FF71}", width: 1),
        Case(label: "Ｆ fullwidth (F)", text: "\u{FF26}", width: 2),
        Case(label: "± ambiguous (A)", text: "±", width: 1),
        Case(label: "👍", text: "👍", width: 2),
        Case(label: "👍🏽 skin tone", text: "👍🏽", width: 2),
        Case(label: "👨‍👩‍👧 ZWJ family", text: "👨\u{200D}👩\u{200D}👧", width: 2),
        Case(label: "🇯🇵 flag", text: "🇯🇵", width: 2),
        Case(label: "lone regional indicator", text: "\u{1F1EF}", width: 2),
        Case(label: "❤️ with VS16", text: "\u{2764}\u{FE0F}", width: 2),
        Case(label: "❤ without VS16", text: "\u{2764}", width: 1),
        Case(label: "☺ text presentation", text: "\u{263A}", width: 1),
        Case(label: "keycap 1️⃣", text: "1\u{FE0F}\u{20E3}", width: 2),
        Case(label: "VS16 after a non-emoji", text: "a\u{FE0F}", width: 1),
        Case(label: "ZWJ alone", text: "\u{200D}", width: 0),
        Case(label: "zero-width space", text: "\u{200B}", width: 0),
        Case(label: "combining mark alone", text: "\u{301}", width: 0),
        Case(label: "RLM", text: "\u{200F}", width: 0),
        Case(label: "variation selector alone", text: "\u{FE0F}", width: 0),
        Case(label: "soft hyphen", text: "\u{AD}", width: 0),
        Case(label: "BEL", text: "\u{7}", width: 0),
        Case(label: "DEL", text: "\u{7F}", width: 0),
        Case(label: "C1 NEL", text: "\u{85}", width: 0),
        Case(label: "CR LF", text: "\r\n", width: 0),
        Case(label: "Arabic beh + fatha", text: "\u{628}\u{64E}", width: 1),
        Case(label: "Hebrew shin + qamats + shin dot", text: "\u{5E9}\u{5B8}\u{5C1}", width: 1),
        Case(label: "Hangul syllable 한", text: "한", width: 2),
        Case(label: "Hangul jamo L+V+T", text: "\u{1112}\u{1161}\u{11AB}", width: 2),
        Case(label: "Devanagari क + virama + ष", text: "\u{915}\u{94D}\u{937}", width: 1),
        Case(label: "unassigned CJK Extension A code point defaults to W", text: "\u{4DBF}", width: 2),
        Case(label: "CJK Extension B 𠀋", text: "\u{2000B}", width: 2),
    ]

    @Test("one grapheme cluster", arguments: clusters)
    func cluster(_ example: Case) throws {
        #expect(example.text.count == 1, "the example must be one Character")
        let character = try #require(example.text.first)
        #expect(DisplayWidth.of(character) == example.width)
        #expect(DisplayWidth.of(example.text) == example.width)
    }

    static let texts: [Case] = [
        Case(label: "empty", text: "", width: 0),
        Case(label: "ASCII", text: "Hello, world!", width: 13),
        Case(label: "日本語", text: "日本語", width: 6),
        Case(label: "mixed", text: "abc日本語ｱｲｳ", width: 12),
        Case(label: "Arabic with harakat", text: "مَرْحَبًا", width: 5),
        Case(label: "Hebrew with points", text: "שָׁלוֹם", width: 4),
        Case(label: "Hangul", text: "한국어", width: 6),
        Case(label: "emoji run", text: "👍🏽👨‍👩‍👧🇯🇵❤️", width: 8),
        Case(label: "tab and newline count zero", text: "a\tb\nc", width: 3),
        Case(label: "SGR", text: "\u{1B}[1;38;5;208mbold\u{1B}[0m", width: 4),
        Case(label: "SGR reset without parameters", text: "x\u{1B}[my", width: 2),
        Case(label: "OSC 8 hyperlink with ST", text: "\u{1B}]8;;https://example.com\u{1B}\\link\u{1B}]8;;\u{1B}\\", width: 4),
        Case(label: "OSC title with BEL", text: "\u{1B}]0;title\u{7}ok", width: 2),
        Case(label: "OSC with non-ASCII payload", text: "\u{1B}]0;日本\u{7}日", width: 2),
        Case(label: "8-bit CSI", text: "\u{9B}31mred", width: 3),
        Case(label: "two-byte escape", text: "\u{1B}7x\u{1B}8", width: 1),
        Case(label: "charset designation", text: "\u{1B}(Bx", width: 1),
        Case(label: "unterminated OSC swallows the rest", text: "ab\u{1B}]0;never ends", width: 2),
        Case(label: "CSI aborted by a non-ASCII byte", text: "\u{1B}[3é", width: 1),
        Case(label: "mark right after an escape's final byte", text: "\u{1B}[31m\u{301}x", width: 1),
        Case(label: "lone ESC at the end", text: "ab\u{1B}", width: 2),
        Case(label: "ASCII followed by a combining mark", text: "#\u{FE0F}\u{20E3}a", width: 3),
        Case(label: "space with a combining mark", text: " \u{301}", width: 1),
    ]

    @Test("text", arguments: texts)
    func text(_ example: Case) {
        #expect(DisplayWidth.of(example.text) == example.width)
        #expect(DisplayWidth.of(example.text[...]) == example.width, "Substring")
    }

    @Test("literals: a one-character literal is measured as text, a Character as a cluster")
    func literals() {
        #expect(DisplayWidth.of("日本") == 4)
        #expect(DisplayWidth.of("日") == 2)
        #expect(DisplayWidth.of(Character("日")) == 2)
    }

    @Test("a Substring is measured within its own bounds")
    func substringBounds() throws {
        let text = "ab日本cd"
        let start = try #require(text.firstIndex(of: "日"))
        let end = try #require(text.firstIndex(of: "c"))
        #expect(DisplayWidth.of(text[start..<end]) == 4)
    }
}
