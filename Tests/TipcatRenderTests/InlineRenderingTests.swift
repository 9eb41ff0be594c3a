import Foundation
import Testing
import TipcatCatalog
import TipcatCore
import TipcatLocalization
import TipcatTestSupport
import TipcatText
@testable import TipcatRender

/// Texts are inline Markdown: each style shows the markup its own way, and substituted values never become markup.
@Suite struct InlineRenderingTests {
    static let esc = "\u{1B}"

    /// A one-tip catalog whose message is `message` (with a string parameter `name`).
    static func catalog(message: String) throws -> Catalog {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tipcat-inline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("tips"), withIntermediateDirectories: true)
        try Data(CatalogExample.catalogJSON.utf8).write(to: directory.appendingPathComponent("catalog.json"))
        let messageJSON = String(decoding: try JSONSerialization.data(withJSONObject: [message], options: [.fragmentsAllowed]), as: UTF8.self)
        let tip = #"{"id": "A", "title": "Tap **Save**", "parameters": {"name": "string"}, "message": "# + "\(messageJSON.dropFirst().dropLast())" + "}"
        try Data(tip.utf8).write(to: directory.appendingPathComponent("tips/A.json"))
        let result = CatalogLoader().load(directory: directory.path)
        try #require(!result.diagnostics.contains { $0.severity == .error }, "\(result.diagnostics)")
        return result.catalog
    }

    static func render(_ message: String, name: String = "Ann", style: String, depth: ColorDepth = .none,
                       hyperlinks: Bool = false, width: Int = 200) throws -> String {
        let catalog = try catalog(message: message)
        let tip = try #require(catalog.tip(TipID("A")))
        let resolved = try TipResolver(catalog: catalog).resolve(tip, locale: try #require(LocaleID("en")), parameters: ["name": .string(name)])
        let settings = RenderSettings(width: width, colorDepth: depth, hyperlinks: hyperlinks)
        return try TipRenderer(style: try GoldenTests.registry.style(named: style), settings: settings).render(resolved)
    }

    static let message = "Hi {name}: tap **Save**, then *share* `it` via [the site](https://example.com/a)."

    @Test("plain text drops the markup")
    func plain() throws {
        #expect(try Self.render(Self.message, style: "plain") == "Tap Save\nHi Ann: tap Save, then share it via the site.\n")
    }

    @Test("Markdown keeps the markup, with everything else escaped")
    func markdown() throws {
        let output = try Self.render(Self.message, style: "markdown")
        #expect(output == "> [!TIP]\n> **Tap **Save****\n>\n> Hi Ann\\: tap **Save**\\, then *share* `it` via [the site](<https://example.com/a>)\\.\n")
    }

    @Test("ANSI: bold, italic, underline; OSC 8 only where hyperlinks are supported; nothing without colour")
    func ansi() throws {
        let colored = try Self.render(Self.message, style: "ansi", depth: .ansi16)
        #expect(colored.contains("\(Self.esc)[1mSave\(Self.esc)[0m"))
        #expect(colored.contains("\(Self.esc)[3mshare\(Self.esc)[0m"))
        #expect(colored.contains("\(Self.esc)[4mthe site\(Self.esc)[0m"))
        #expect(colored.contains("(https://example.com/a)"))
        #expect(!colored.contains("\(Self.esc)]8;"))

        let linked = try Self.render(Self.message, style: "ansi", depth: .ansi16, hyperlinks: true)
        #expect(linked.contains("\(Self.esc)]8;;https://example.com/a\(Self.esc)\\\(Self.esc)[4mthe site\(Self.esc)[0m\(Self.esc)]8;;\(Self.esc)\\"))

        let none = try Self.render(Self.message, style: "ansi", depth: .none, hyperlinks: true)
        #expect(!none.contains(Self.esc))
        #expect(none.contains("Hi Ann: tap Save, then share it via the site."))
    }

    @Test("a hyperlink wrapped onto two lines is closed at the line's end and reopened on the next")
    func hyperlinkAcrossLines() throws {
        let output = try Self.render("[a link whose label is long](https://example.com/x)", style: "ansi", depth: .ansi16, hyperlinks: true, width: 24)
        let lines = output.split(separator: "\n").filter { $0.contains("]8;;https") }
        #expect(lines.count == 2, "\(output.debugDescription)")
        for line in lines {
            #expect(line.components(separatedBy: "\(Self.esc)]8;;https://example.com/x").count - 1 == 1)
            #expect(line.contains("\(Self.esc)]8;;\(Self.esc)\\"), "\(line.debugDescription)")
        }
    }

    @Test("a value with markup characters stays literal text in every style", arguments: ["plain", "markdown", "ansi"])
    func valuesStayLiteral(_ style: String) throws {
        let hostile = "**x** [y](javascript:alert(1)) `z` <https://evil.example>"
        let output = try Self.render("Hi {name}", name: hostile, style: style, depth: style == "ansi" ? .ansi16 : .none, hyperlinks: true)
        #expect(!output.contains("\(Self.esc)]8;"))
        #expect(!output.contains("\(Self.esc)[1mx"))
        if style == "markdown" {
            let rendered = try CommonMarkReference.render([output])
            for html in rendered?.values.flatMap({ $0 }) ?? [] {
                #expect(!html.contains("<a ") && !html.contains("<code>") && html.contains("**x**") || html.contains("<strong>Tap"), "\(html)")
                #expect(!html.contains("<strong>x</strong>") && !html.contains("href"), "\(html)")
            }
        } else {
            #expect(ANSI.strip(output).contains("Hi " + hostile), "\(output.debugDescription)")
        }
    }

    @Test("the html style: values and markup escaped, links only to safe addresses, dir for right-to-left locales")
    func htmlStyle() throws {
        let hostile = #"<img src=x onerror="alert(1)"> & [x](javascript:alert(1))"#
        // (A javascript: link in the message itself is an unsafe-link error at validate; its rendering as the bare
        // label is tested on InlineRendering directly.)
        let output = try Self.render("Hi {name}, see [docs](https://example.com/d)", name: hostile, style: "html")
        #expect(output.contains(#"Hi &lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; [x](javascript:alert(1)), see <a href="https://example.com/d">docs</a>"#),
                "\(output)")
        #expect(!output.contains("<img") && !output.contains("href=\"javascript"))
        #expect(output.hasPrefix(#"<article class="tipcat-tip" lang="en" dir="ltr" data-tip="A">"#), "\(output)")
        #expect(output.contains(#"<h3 class="tipcat-title">Tap <strong>Save</strong></h3>"#))
        for (identifier, dir) in [("ar", "rtl"), ("he", "rtl"), ("fa-IR", "rtl"), ("ar-XB", "rtl"), ("az-Latn", "ltr"), ("ja", "ltr"), ("ur-Arab", "rtl")] {
            #expect(try #require(LocaleID(identifier)).isRightToLeft == (dir == "rtl"), "\(identifier)")
        }
    }

    @Test("a value cannot close a bracket the message opened")
    func valueCannotCloseTheMessagesBracket() throws {
        let output = try Self.render("See [{name}", name: "x](javascript:alert(1))", style: "markdown")
        #expect(!output.contains("](<javascript"), "\(output)")
        let rendered = try CommonMarkReference.render([output])
        for html in rendered?.values.flatMap({ $0 }) ?? [] { #expect(!html.contains("href"), "\(html)") }
        #expect(try Self.render("See [{name}", name: "x](https://e.example)", style: "plain").contains("See [x](https://e.example)"))
    }

    @Test("links other than https, http and mailto show only their label")
    func unsafeLinksShowTheirLabel() {
        let markup = InlineMarkup.parse("[x](javascript:alert(1)) [y](file:///etc/passwd)")
        #expect(InlineRendering.markdown.render(markup) == "x y")
        #expect(InlineRendering.html.render(markup) == "x y")
        #expect(InlineRendering.ansi(.ansi16, hyperlinks: true).render(markup) == "x y")
    }

    @Test("HTML: tags for the markup, everything else escaped")
    func html() {
        let markup = InlineMarkup.parse("a <b> **c** *d* `<e>` [f](https://g.example/?h=1&i=2)")
        #expect(InlineRendering.html.render(markup)
            == "a &lt;b&gt; <strong>c</strong> <em>d</em> <code>&lt;e&gt;</code> <a href=\"https://g.example/?h=1&amp;i=2\">f</a>")
    }

    @Test("Markdown output reads, under CommonMark, as the markup it came from, or as its plain text (skipped without python3 + markdown-it-py / commonmark)")
    func markdownRoundTrip() throws {
        var random = SeededGenerator(seed: 11)
        let alphabet = ["**", "*", "_", "`", "[", "]", "](https://x.example)", "a", "b", " ", "\\", "!", ".", "(", ")", "-", "é"]
        let texts = (0..<1500).map { _ in
            "x " + (0..<Int.random(in: 1...14, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" }.joined() + " y"
        }
        let parsed = texts.map(InlineMarkup.parse)
        let markdown = parsed.map(InlineRendering.markdown.render)
        guard let rendered = try CommonMarkReference.render(markdown) else {
            print("skipped: python3 with markdown-it-py or commonmark is not installed")
            return
        }
        var mismatches: [String] = []
        var plain = 0
        for (index, markup) in parsed.enumerated() {
            let faithful = "<p>" + CommonMarkReference.html(InlineRendering.kept(markup.nodes)) + "</p>\n"
            let fallback = "<p>" + CommonMarkReference.html([.text(markup.visibleText)]) + "</p>\n"
            let references = rendered.mapValues { $0[index].removingPercentEncoding ?? $0[index] }
            if references.values.contains(faithful) { continue }
            if references.values.contains(fallback) {
                plain += 1
                continue
            }
            if mismatches.count < 10 {
                mismatches.append("\(texts[index].debugDescription) → \(markdown[index].debugDescription)\n  them: \(references)\n  want: \(faithful)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        // Falling back to plain text is for delimiters that cannot be written apart, not the common case.
        #expect(plain < texts.count / 20, "\(plain) of \(texts.count) texts fell back to plain text")
    }
}
