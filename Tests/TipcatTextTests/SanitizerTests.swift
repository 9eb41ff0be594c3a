import Foundation
import Testing
import TipcatTestSupport
import TipcatCore
@testable import TipcatText

private let esc = "\u{1B}"

@Suite("Sanitizer: terminal")
struct TerminalSafeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var label: String
        var input: String
        var output: String
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "OSC 52 clipboard write", input: "a\(esc)]52;c;ZXZpbA==\u{7}b", output: "a]52;c;ZXZpbA==b"),
        Case(label: "clear screen", input: "\(esc)[2Jtext", output: "[2Jtext"),
        Case(label: "8-bit CSI U+009B", input: "\u{9B}31mred", output: "31mred"),
        Case(label: "right-to-left override U+202E", input: "invoice\u{202E}fdp.exe", output: "invoicefdp.exe"),
        Case(label: "all embeddings, overrides and isolates",
             input: "\u{202A}a\u{202B}b\u{202C}c\u{202D}d\u{202E}e\u{2066}f\u{2067}g\u{2068}h\u{2069}i", output: "abcdefghi"),
        Case(label: "carriage return", input: "done\rEVIL\r\n", output: "doneEVIL\n"),
        Case(label: "tab becomes four spaces", input: "a\tb", output: "a    b"),
        Case(label: "other C0 controls", input: "\u{0}\u{7}\u{8}x\u{B}\u{C}\u{1F}", output: "x"),
        Case(label: "DEL", input: "a\u{7F}b", output: "ab"),
        Case(label: "C1 controls", input: "\u{80}a\u{85}b\u{9C}c\u{9F}", output: "abc"),
        Case(label: "newlines kept", input: "one\ntwo\n", output: "one\ntwo\n"),
        Case(label: "ZWJ sequence and VS16 kept", input: "👨\u{200D}👩\u{200D}👧 ❤\u{FE0F}", output: "👨\u{200D}👩\u{200D}👧 ❤\u{FE0F}"),
        Case(label: "LRM, RLM, ALM kept", input: "a\u{200E}b\u{200F}c\u{61C}", output: "a\u{200E}b\u{200F}c\u{61C}"),
        Case(label: "neighbours of removed ranges kept", input: "\u{A0}\u{2029}\u{202F}\u{2065}\u{206A}€", output: "\u{A0}\u{2029}\u{202F}\u{2065}\u{206A}€"),
        Case(label: "Arabic and Hebrew untouched", input: "مَرْحَبًا שָׁלוֹם", output: "مَرْحَبًا שָׁלוֹם"),
        Case(label: "empty", input: "", output: ""),
    ]

    @Test("examples", arguments: cases)
    func example(_ example: Case) {
        let result = Sanitizer.terminalSafe(example.input)
        #expect(Array(result.unicodeScalars) == Array(example.output.unicodeScalars))
    }

    static func isRemoved(_ value: UInt32) -> Bool {
        (value < 0x20 && value != 0x0A && value != 0x09) || (0x7F...0x9F).contains(value)
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    @Test("every code point: removed exactly when listed, otherwise kept as is")
    func everyScalar() {
        var mismatches: [String] = []
        var value: UInt32 = 0
        while value <= 0x10FFFF {
            if let scalar = Unicode.Scalar(value) {
                let input = "x" + String(Character(scalar)) + "y"
                let expected = value == 0x09 ? "x    y" : Self.isRemoved(value) ? "xy" : input
                if Array(Sanitizer.terminalSafe(input).unicodeScalars) != Array(expected.unicodeScalars) {
                    mismatches.append(String(value, radix: 16))
                }
            }
            // Every code point up to U+3000, then a sample of the rest.
            value += value < 0x3000 ? 1 : 0x3F
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test("random input never keeps a forbidden scalar and keeps everything else in order")
    func randomInput() {
        var random = SeededGenerator(seed: 52)
        let pool: [UInt32] = [0x1B, 0x07, 0x0D, 0x0A, 0x09, 0x7F, 0x85, 0x9B, 0x9C, 0x202A, 0x202E, 0x2066, 0x2069,
                              0x41, 0x5B, 0x3B, 0x200D, 0xFE0F, 0x65E5, 0x1F44D, 0xE9, 0x301, 0x5D0, 0x627]
        for _ in 0..<2000 {
            var input = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...60, using: &random) {
                if let value = pool.randomElement(using: &random), let scalar = Unicode.Scalar(value) { input.append(scalar) }
            }
            let text = String(input)
            let safe = Sanitizer.terminalSafe(text)
            #expect(!safe.unicodeScalars.contains { Self.isRemoved($0.value) || $0 == "\t" }, "\(text.debugDescription)")
            let expected = text.unicodeScalars.flatMap { scalar -> [Unicode.Scalar] in
                scalar == "\t" ? Array("    ".unicodeScalars) : Self.isRemoved(scalar.value) ? [] : [scalar]
            }
            #expect(Array(safe.unicodeScalars) == expected)
        }
    }

    @Test("safe text is returned as is")
    func unchanged() {
        let text = "Plain text, 日本語, 👍🏽 and\nnewlines"
        #expect(Sanitizer.terminalSafe(text) == text)
    }
}

@Suite("Sanitizer: Markdown")
struct MarkdownLiteralTests {
    @Test("punctuation is backslash-escaped")
    func escapes() {
        #expect(Sanitizer.markdownLiteral("[x](javascript:alert(1))") == ##"\[x\]\(javascript\:alert\(1\)\)"##)
        #expect(Sanitizer.markdownLiteral("<img src=x onerror=alert(1)>") == ##"\<img src\=x onerror\=alert\(1\)\>"##)
        #expect(Sanitizer.markdownLiteral("# heading") == ##"\# heading"##)
        #expect(Sanitizer.markdownLiteral("`code`") == ##"\`code\`"##)
        #expect(Sanitizer.markdownLiteral(##"!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"##)
            == ##"\!\"\#\$\%\&\'\(\)\*\+\,\-\.\/\:\;\<\=\>\?\@\[\\\]\^\_\`\{\|\}\~"##)
        #expect(Sanitizer.markdownLiteral("Café 日本語 👍") == "Café 日本語 👍")
    }

    @Test("newlines become hard line breaks; trailing ones are dropped")
    func newlines() {
        #expect(Sanitizer.markdownLiteral("a\nb") == "a\\\nb")
        #expect(Sanitizer.markdownLiteral("a\n\nb") == "a\\\n\\\nb")
        #expect(Sanitizer.markdownLiteral("a\r\n") == "a")
        #expect(Sanitizer.markdownLiteral("\n\n") == "")
    }

    @Test("spaces that start a line or end the value become character references")
    func edgeSpaces() {
        #expect(Sanitizer.markdownLiteral("    code") == "&#32;   code")
        #expect(Sanitizer.markdownLiteral("\tcode") == "&#32;   code")
        #expect(Sanitizer.markdownLiteral("a \n b ") == "a \\\n&#32;b&#32;")
        #expect(Sanitizer.markdownLiteral("\u{A0}x\u{3000}") == "&#160;x&#12288;")
        #expect(Sanitizer.markdownLiteral("a b") == "a b")
    }

    @Test("terminal controls are removed first")
    func controls() {
        #expect(Sanitizer.markdownLiteral("\(esc)[2Jx\u{202E}") == ##"\[2Jx"##)
    }

    // MARK: - Rendering with a real CommonMark implementation

    static let hostile: [String] = [
        "[x](javascript:alert(1))", "<img src=x onerror=alert(1)>", "# heading", "- item", "> quote", "`code`",
        "**bold** and _em_ and *em*", "![img](x.png)", "<https://evil.example>", "<script>alert(1)</script>",
        "&lt;b&gt; &#60;b&#62; &amp;", "1. one", "1) one", "---", "===", "***", "| a | b |\n|---|---|",
        "    indented", "line\n# heading", "line\n\n- item", "line\n    code", "line\n===", "line\n---", "\\",
        "trailing backslash\\", "<!-- comment -->", "[ref]: https://example.com\n[ref]", "[x]: <javascript:alert(1)>",
        "~~~\ncode\n~~~", "```\ncode", "+ plus", "* star", "a\(esc)]52;c;payload\u{7}b", "a\tb", "*", "_", "\\*",
        "<div>\nhtml block\n</div>", "\n\nleading newlines", "a\n\n\nb", "[link]\n\n[link]: /url", "<a href=x>x</a>",
        "[x](<javascript:alert(1)>)", "[x][y]\n\n[y]: javascript:alert(1)", "x<br>y", "  spaced  ", "\u{A0}nbsp",
        "~~strike~~", "- [ ] task", "[^1]\n\n[^1]: note", "$$ math $$", "{{mustache}}", "a  \nb",
    ]

    /// Renders every value with the CommonMark implementations installed for Python (nil when none is).
    static func render(_ documents: [String]) throws -> [String: [String]]? {
        try CommonMarkReference.render(documents)
    }

    /// The HTML's tags other than `allowed`, in order.
    static func unexpectedTags(in html: String, allowed: Set<String>) -> [String] {
        var tags: [String] = []
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            let close = rest[open...].firstIndex(of: ">") ?? rest.endIndex
            let tag = String(rest[open..<min(rest.index(after: close), rest.endIndex)])
            if !allowed.contains(tag) { tags.append(tag) }
            rest = close < rest.endIndex ? rest[rest.index(after: close)...] : ""
        }
        return tags
    }

    /// Text content of the HTML: tags dropped, the five entities CommonMark renderers emit decoded, whitespace removed.
    static func textContent(_ html: String) -> String {
        var text = ""
        var inTag = false
        for character in html {
            if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag { text.append(character) }
        }
        for (entity, value) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: value)
        }
        return text.filter { !$0.isWhitespace }
    }

    static func fuzzValues() -> [String] {
        var random = SeededGenerator(seed: 2024)
        let alphabet = Array(##"!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~ abc123"##).map(String.init)
            + ["\n", "\t", "javascript:", "http://", "<a ", "](", "&#", "日"]
        return (0..<300).map { _ in
            (0..<Int.random(in: 1...24, using: &random)).map { _ in String(alphabet.randomElement(using: &random) ?? " ") }.joined()
        }
    }

    @Test("escaped values render as literal text under CommonMark (skipped without python3 + commonmark / markdown-it-py)")
    func renderedByCommonMark() throws {
        let values = Self.hostile + Self.fuzzValues()
        let escaped = values.map(Sanitizer.markdownLiteral)
        // Each value alone, and inside a blockquote line as the Markdown style's GitHub alert would hold it.
        let documents = escaped + escaped.map { "> [!TIP]\n> **\($0)**" }
        guard let rendered = try Self.render(documents) else { return }
        for (renderer, htmls) in rendered {
            try #require(htmls.count == documents.count)
            for (index, value) in values.enumerated() {
                let expectedText = Sanitizer.terminalSafe(value).filter { !$0.isWhitespace }
                let context = "\(renderer): \(value.debugDescription) → \(escaped[index].debugDescription)"

                let alone = htmls[index]
                #expect(Self.unexpectedTags(in: alone, allowed: ["<p>", "</p>", "<br />"]).isEmpty, "\(alone.debugDescription) \(context)")
                #expect(Self.textContent(alone) == expectedText, "\(alone.debugDescription) \(context)")

                let quoted = htmls[values.count + index]
                let allowed: Set<String> = ["<blockquote>", "</blockquote>", "<p>", "</p>", "<br />", "<strong>", "</strong>"]
                #expect(Self.unexpectedTags(in: quoted, allowed: allowed).isEmpty, "\(quoted.debugDescription) \(context)")
                #expect(quoted.hasPrefix("<blockquote>") && quoted.hasSuffix("</blockquote>\n"), "\(quoted.debugDescription) \(context)")
                #expect(Self.textContent(quoted) == "[!TIP]" + expectedText, "\(quoted.debugDescription) \(context)")
            }
        }
    }
}
