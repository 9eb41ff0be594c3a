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

/// Parsing and rendering stay linear in the number of tags on one line: eight times the tags on a single line
/// take about eight times as long, far from the sixty-four times a rescan of the line per tag would take. The
/// bound compares two sizes in the same process (the fastest of three runs each), so a busy machine does not
/// fail it.
@Suite struct LongLineTests {
    static let shapes: [(String, String)] = [
        ("variables", "{{x}} "),
        ("sections", "{{#on}}{{x}}{{/on}} "),
        ("comments", "{{! note }} "),
        ("inverted", "{{^off}}.{{/off}}"),
        ("indented", "  {{x}}\t"),
    ]

    /// The fastest of three parses and renders of `count` copies of `piece` on one line.
    static func fastest(_ piece: String, count: Int) throws -> Duration {
        let source = String(repeating: piece, count: count)
        let clock = ContinuousClock()
        var best = Duration.seconds(3600)
        for _ in 0..<3 {
            let start = clock.now
            let template = try Template(source, name: "long")
            let output = try template.render(["x": "y", "on": true, "off": false])
            best = min(best, clock.now - start)
            #expect(!output.isEmpty || piece.hasPrefix("{{!"))
        }
        return best
    }

    @Test(arguments: shapes.map(\.0))
    func eightTimesTheTagsTakeAboutEightTimesAsLong(_ shape: String) throws {
        let piece = try #require(Self.shapes.first { $0.0 == shape }?.1)
        let small = try Self.fastest(piece, count: 1_000)
        let large = try Self.fastest(piece, count: 8_000)
        let ratio = large / max(small, .microseconds(50))
        #expect(ratio < 24, "\(shape): 1,000 tags \(small), 8,000 tags \(large): \(ratio)×")
    }
}
