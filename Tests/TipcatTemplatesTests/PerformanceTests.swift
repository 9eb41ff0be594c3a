import Testing
import TipcatTemplates

/// Throughput of the parse-once, render-many path. The release target is 200,000 renders a second for a
/// template of about ten tags (`swift test -c release --filter PerformanceTests`); debug builds are
/// several times slower, so they only guard against a collapse.
@Suite struct PerformanceTests {
    static let source = """
        Hello {{name}}, you have {{count}} new {{#many}}messages{{/many}}{{^many}}message{{/many}} \
        from {{sender.name}} <{{sender.email}}>: {{{preview}}} [{{#tags}}{{.}} {{/tags}}]
        """

    static let data: TemplateValue = [
        "name": "Ada", "count": 3, "many": true,
        "sender": ["name": "Grace", "email": "grace@example.com"],
        "preview": "Meet at <noon>", "tags": ["work", "urgent"],
    ]

    #if DEBUG
    static let minimumRate = 20_000.0
    #else
    static let minimumRate = 200_000.0
    #endif

    @Test func smallTemplateRendersFast() throws {
        let template = try Template(Self.source)
        let expected = "Hello Ada, you have 3 new messages from Grace <grace@example.com>: Meet at <noon> [work urgent ]"
        #expect(try template.render(Self.data) == expected)
        let iterations = 20_000
        var best = Duration.seconds(1_000)
        for _ in 0..<3 {
            let start = ContinuousClock.now
            for _ in 0..<iterations {
                _ = try template.render(Self.data)
            }
            best = min(best, ContinuousClock.now - start)
        }
        let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
        let rate = Double(iterations) / seconds
        #expect(rate >= Self.minimumRate, "\(Int(rate)) renders/s")
    }
}
