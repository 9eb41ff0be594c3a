import Testing
import TipcatTemplates

/// Random templates built from Mustache's own punctuation: parsing and rendering may fail, never crash.
@Suite struct RobustnessTests {
    /// A small deterministic generator (64-bit LCG), so failures reproduce.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    static let pieces = [
        "{{", "}}", "{{{", "}}}", "#", "^", "/", "!", ">", "<", "$", "=", "&", "*", ".", " ", "\t", "\n", "\r\n",
        "a", "b", "p", "x.y", "<%", "%>", "|", "{{#a}}", "{{/a}}", "{{>p}}", "{{<p}}", "{{/p}}", "{{$b}}", "{{/b}}",
        "{{=<% %>=}}", "{{.}}", "{{>*x}}", "é", "日",
    ]

    @Test func randomTemplatesNeverCrash() throws {
        var random = Generator(state: 2024)
        let partials = try DictionaryPartialResolver(sources: [
            "p": "[{{$b}}B{{/b}}{{>p}}]", "q": "  {{a}}\n{{#a}}{{>q}}{{/a}}\n",
        ])
        let data: TemplateValue = [
            "a": [1, ["a": false], "s"], "b": true, "x": ["y": "q"], "p": .lambda { context in .template(context.sectionText ?? "{{a}}") },
        ]
        var parsed = 0
        var rendered = 0
        for _ in 0..<3_000 {
            var source = ""
            for _ in 0..<Int.random(in: 1...24, using: &random) {
                source += Self.pieces.randomElement(using: &random) ?? ""
            }
            guard let template = try? Template(source) else { continue }
            parsed += 1
            var options = RenderOptions()
            options.maxDepth = 40
            if (try? template.render(data, partials: partials, options: options)) != nil { rendered += 1 }
        }
        // The generator must exercise both paths, or the test proves nothing.
        #expect(parsed > 300)
        #expect(rendered > 300)
    }

    @Test func invalidUTF8IsRenderedWithReplacementCharacters() throws {
        let template = try Template(bytes: [0x61, 0xFF, 0x7B, 0x7B, 0x78, 0x7D, 0x7D], name: "bytes")
        #expect(try template.render(["x": "!"]) == "a\u{FFFD}!")
    }
}
