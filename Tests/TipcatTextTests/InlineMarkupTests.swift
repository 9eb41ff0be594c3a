import Foundation
import Testing
import TipcatCore
import TipcatTestSupport
@testable import TipcatText

@Suite("Inline Markdown in texts")
struct InlineMarkupTests {
    typealias Node = InlineMarkup.Node

    @Test("the four kinds TipKit's Text shows, nested, with escapes", arguments: [
        ("Tap **Save**", [Node.text("Tap "), .strong([.text("Save")])]),
        ("an *easy* trail", [.text("an "), .emphasis([.text("easy")]), .text(" trail")]),
        ("an _easy_ trail", [.text("an "), .emphasis([.text("easy")]), .text(" trail")]),
        ("run `tipcat validate`", [.text("run "), .code("tipcat validate")]),
        ("see [the guide](https://example.com/guide)", [.text("see "), .link(destination: "https://example.com/guide", [.text("the guide")])]),
        ("**bold *and italic***", [.strong([.text("bold "), .emphasis([.text("and italic")])])]),
        ("[**bold** link](https://x.example)", [.link(destination: "https://x.example", [.strong([.text("bold")]), .text(" link")])]),
        (#"\*not emphasis\*"#, [.text("*not emphasis*")]),
        ("snake_case_name", [.text("snake_case_name")]),
        ("5 * 3 * 2", [.text("5 * 3 * 2")]),
        ("``a ` b``", [.code("a ` b")]),
        ("` spaced `", [.code("spaced")]),
        ("<https://example.com>", [.link(destination: "https://example.com", [.text("https://example.com")])]),
        ("a <b> c", [.text("a <b> c")]),
        ("&amp; stays", [.text("&amp; stays")]),
        ("[not a link] (x)", [.text("[not a link] (x)")]),
        ("*[a*](https://x.example)*", [.emphasis([.link(destination: "https://x.example", [.text("a*")])])]),
        ("[a `](b)` c", [.text("[a "), .code("](b)"), .text(" c")]),
    ])
    func parses(_ text: String, _ nodes: [Node]) {
        let parsed = InlineMarkup.parse(text)
        #expect(parsed.nodes == nodes)
        #expect(parsed.problems.isEmpty, "\(parsed.problems)")
    }

    @Test("markup that is probably a mistake is reported at its byte offset", arguments: [
        ("Tap **Save", 4, "'**' opens emphasis that is never closed; write '\\*' for a literal '*'"),
        ("use `code", 4, "'`' opens a code span that is never closed; write '\\`' for a literal backtick"),
        ("see [x](https://a.example", 6, "'](' starts a link destination that is not closed by ')' on this text; write '\\[' for a literal bracket"),
        ("![map](map.png)", 0, "a tip cannot show an image: only its alt text is shown"),
    ])
    func reportsMalformed(_ text: String, _ offset: Int, _ message: String) {
        let problems = InlineMarkup.parse(text).problems
        #expect(problems == [.init(kind: .malformed, message: message, offset: offset)])
    }

    @Test("links other than https, http and mailto are reported as unsafe")
    func unsafeLinks() {
        for (text, scheme) in [("[x](javascript:alert(1))", "javascript"), ("[x](file:///etc/passwd)", "file"), ("<data:text/html,x>", "data")] {
            let problems = InlineMarkup.parse(text).problems
            #expect(problems.map(\.kind) == [.unsafeLink(scheme)], "\(text)")
        }
        #expect(InlineMarkup.parse("[x](mailto:a@b.example) [y](HTTPS://b.example)").problems.isEmpty)
        #expect(InlineMarkup.parse("[x](relative/path)").problems.map(\.kind) == [.unsafeLink("")])
    }

    @Test("a text without delimiters, backticks, '](' or '<' cannot have a problem, so validate skips parsing it")
    func problemPrecheck() {
        for text in Self.fuzzTexts(count: 2000, seed: 23) + ["[fr] Later", "a ] ( b", "![x]", "x\\y"] where !InlineMarkup.mayHaveProblems(text) {
            #expect(InlineMarkup.parse(text).problems.isEmpty, "\(text)")
        }
        #expect(!InlineMarkup.mayHaveProblems("[fr] Later"))
        // The parser's own shortcut: a text that reads as itself is one text node, exactly as the full parse says.
        for text in Self.fuzzTexts(count: 2000, seed: 29) + ["[fr] Later", "[a] b] c [", "![x] !", ""] where InlineMarkup.readsAsItself(text) {
            var copy = text
            let full = copy.withUTF8 { InlineMarkup.parseForTesting($0) }
            #expect(full.nodes == (text.isEmpty ? [] : [.text(text)]), "\(text)")
        }
        #expect(InlineMarkup.mayHaveProblems("see [x](javascript:y)"))
        #expect(InlineMarkup.mayHaveProblems("<data:x>"))
    }

    /// The precheck skips plain text eight bytes at a time: it answers as a byte-by-byte scan does, with the
    /// bytes that matter at every position of a word and `](` split across two words.
    @Test func precheckAgreesWithAByteByByteScan() {
        func reference(_ text: String, countingEscapes: Bool) -> Bool {
            var previous: UInt8 = 0
            for byte in text.utf8 {
                if [UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "<")].contains(byte) { return true }
                if countingEscapes && byte == UInt8(ascii: "\\") { return true }
                if byte == UInt8(ascii: "(") && previous == UInt8(ascii: "]") { return true }
                previous = byte
            }
            return false
        }
        var texts = Self.fuzzTexts(count: 2000, seed: 31)
        for special in ["*", "_", "`", "<", "\\", "](", "(", "]", "] (", "日本"] {
            for position in 0..<20 {
                texts.append(String(repeating: "a", count: position) + special + String(repeating: "b", count: 19 - position))
            }
        }
        for text in texts {
            #expect(InlineMarkup.mayHaveProblems(text) == reference(text, countingEscapes: false), "\(text.debugDescription)")
            #expect(InlineMarkup.readsAsItself(text) == !reference(text, countingEscapes: true), "\(text.debugDescription)")
        }
    }

    @Test("visible text drops markup and keeps what a reader sees")
    func visibleText() {
        #expect(InlineMarkup.parse("Tap **Save**, then *share* `it` via [mail](mailto:a@b.example)").visibleText
            == "Tap Save, then share it via mail")
        #expect(InlineMarkup.parse(#"a \* b"#).visibleText == "a * b")
    }

    @Test("an escaped value parses back to exactly itself", arguments: [
        "**x**", "[a](https://b.example)", "`c`", "a\\b", "_under_", "<https://x.example>", "![i](s)", "plain", "",
    ])
    func escapeRoundTrips(_ value: String) {
        let parsed = InlineMarkup.parse(InlineMarkup.escape(value))
        #expect(parsed.visibleText == value)
        #expect(parsed.nodes.allSatisfy { if case .text = $0 { true } else { false } })
    }

    @Test("hostile inputs parse in linear time")
    func linear() {
        let cases = [
            String(repeating: "[a](", count: 50_000),
            String(repeating: "*a _b ", count: 50_000),
            String(repeating: "`", count: 1) + String(repeating: "``a", count: 30_000),
            String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
            String(repeating: "**a", count: 50_000) + String(repeating: "a**", count: 50_000),
            String(repeating: "<ab", count: 50_000),
            String(repeating: "[", count: 20_000) + String(repeating: "](https://x.example)", count: 20_000),
            String(repeating: "*", count: 50_000) + "a" + String(repeating: "*", count: 50_000),
        ]
        for text in cases {
            let start = ContinuousClock.now
            _ = InlineMarkup.parse(text)
            let elapsed = ContinuousClock.now - start
            // Linear takes well under a second each (debug build); quadratic would take minutes.
            #expect(elapsed < .seconds(10), "\(text.prefix(12))… took \(elapsed)")
        }
    }

    // MARK: Against CommonMark

    /// Random inline Markdown over the characters that matter: delimiters, brackets, backticks, escapes, links.
    static func fuzzTexts(count: Int, seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        let alphabet = ["*", "**", "_", "__", "`", "``", "[", "]", "(", ")", "](", "a", "b", "c", " ", "\\", "\\*", "!", "![",
                        "http://x.y", ":", ".", ",", "-", "日", "é", "](http://q.r)", "***", "_a_", "*b*"]
        return (0..<count).map { _ in
            let body = (0..<Int.random(in: 1...16, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" }.joined()
            return "x " + body + " y"
        }
    }

    @Test("parses like CommonMark on thousands of random texts (skipped without python3 + markdown-it-py / commonmark)")
    func matchesCommonMark() throws {
        let texts = Self.fuzzTexts(count: 3000, seed: 7) + [
            "x *a **b** c* y", "x **a *b* c** y", "x *a**b*c** y", "x __a_b__ y", "x a*\"b\"* y", "x ***a** b* y",
            "x [a [b](http://c.d) e](http://f.g) y", "x ![a [b](http://c.d) e](http://f.g) y", "x `a``b` y", "x _a*b_c* y",
        ]
        guard let rendered = try CommonMarkReference.render(texts) else {
            print("skipped: python3 with markdown-it-py or commonmark is not installed")
            return
        }
        // Renderers percent-encode link destinations and drop titles; the parse is what is compared.
        let title = try Regex(#" title="[^"]*""#)
        func normalized(_ html: String) -> String {
            html.replacing(title, with: "").removingPercentEncoding ?? html
        }
        for renderer in rendered.values { try #require(renderer.count == texts.count) }
        var mismatches: [String] = []
        for (index, text) in texts.enumerated() {
            let ours = "<p>" + CommonMarkReference.html(InlineMarkup.parse(text).nodes) + "</p>\n"
            // Both renderers implement the spec; a few renderer quirks (markdown-it's image alt text) differ between
            // them, so agreeing with one of them is agreeing with the spec.
            let references = rendered.mapValues { normalized($0[index]) }
            if !references.values.contains(normalized(ours)), mismatches.count < 20 {
                mismatches.append("\(text.debugDescription)\n  them: \(references)\n  us:   \(ours)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }
}
