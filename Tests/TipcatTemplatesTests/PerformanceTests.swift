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
