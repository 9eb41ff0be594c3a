import Testing
import TipcatTemplates

/// The template `make bench` times (renders/s lives there, not in unit tests): here only its output is checked,
/// and that rendering it many times gives the same text each time (no state leaks between renders).
@Suite struct RepeatedRenderTests {
    static let source = """
        Hello {{name}}, you have {{count}} new {{#many}}messages{{/many}}{{^many}}message{{/many}} \
        from {{sender.name}} <{{sender.email}}>: {{{preview}}} [{{#tags}}{{.}} {{/tags}}]
        """

    static let data: TemplateValue = [
        "name": "Ada", "count": 3, "many": true,
        "sender": ["name": "Grace", "email": "grace@example.com"],
        "preview": "Meet at <noon>", "tags": ["work", "urgent"],
    ]

    @Test func repeatedRendersAreIdentical() throws {
        let template = try Template(Self.source)
        let expected = "Hello Ada, you have 3 new messages from Grace <grace@example.com>: Meet at <noon> [work urgent ]"
        for _ in 0..<1_000 {
            #expect(try template.render(Self.data) == expected)
        }
    }
}

/// `renderSection()` (pre-parsed nodes) gives what rendering the raw section text gives.
@Suite struct RenderSectionTests {
    @Test func matchesRenderingTheRawText() throws {
        let viaText: TemplateValue = .lambda { context in .text("<" + (try context.render(context.sectionText ?? "")) + ">") }
        let viaNodes: TemplateValue = .lambda { context in .text("<" + (try context.renderSection()) + ">") }
        let template = try Template("{{#wrap}}Hi {{name}}{{#items}}, {{.}}{{/items}}!{{/wrap}}")
        let data: [String: TemplateValue] = ["name": "Ada", "items": ["a", "b"]]
        var withText = data
        withText["wrap"] = viaText
        var withNodes = data
        withNodes["wrap"] = viaNodes
        #expect(try template.render(.object(withNodes)) == "<Hi Ada, a, b!>")
        #expect(try template.render(.object(withNodes)) == (try template.render(.object(withText))))
        let interpolation: TemplateValue = .lambda { context in .text(try context.renderSection()) }
        #expect(try Template("[{{x}}]").render(["x": interpolation]) == "[]")
    }
}

/// Parsing and rendering stay linear in the number of tags on one line: 10,000 tags of each kind on a single
/// line parse and render well within a generous bound (a rescan of the line per tag takes many seconds).
@Suite struct LongLineTests {
    static let shapes: [(String, String)] = [
        ("variables", "{{x}} "),
        ("sections", "{{#on}}{{x}}{{/on}} "),
        ("comments", "{{! note }} "),
        ("inverted", "{{^off}}.{{/off}}"),
        ("indented", "  {{x}}\t"),
    ]

    @Test(arguments: shapes.map(\.0))
    func tenThousandTagsOnOneLine(_ shape: String) throws {
        let piece = try #require(Self.shapes.first { $0.0 == shape }?.1)
        let source = String(repeating: piece, count: 10_000)
        let clock = ContinuousClock()
        let start = clock.now
        let template = try Template(source, name: "long")
        let output = try template.render(["x": "y", "on": true, "off": false])
        let elapsed = clock.now - start
        #expect(elapsed < .seconds(2), "\(shape): \(elapsed)")
        #expect(!output.isEmpty || shape == "comments")
    }
}
