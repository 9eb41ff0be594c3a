import Testing
import TipcatCore
import TipcatTemplates

@Suite struct TemplateValueTests {
    @Test(arguments: [
        (TemplateValue.double(1.21), "1.21"), (.double(1.0), "1"), (.double(-0.5), "-0.5"), (.double(1e21), "1e+21"),
        (.double(100), "100"), (.int(-85), "-85"), (.bool(true), "true"), (.bool(false), "false"),
        (.null, ""), (.array([1, 2]), ""), (.object(["a": 1]), ""), (.string("x"), "x"),
    ])
    func interpolationText(_ value: TemplateValue, _ text: String) {
        #expect(value.interpolationText == text)
    }

    @Test func truthinessFollowsTheSpec() {
        #expect(!TemplateValue.null.isTruthy)
        #expect(!TemplateValue.bool(false).isTruthy)
        #expect(!TemplateValue.array([]).isTruthy)
        #expect(TemplateValue.string("").isTruthy)
        #expect(TemplateValue.int(0).isTruthy)
        #expect(TemplateValue.object([:]).isTruthy)
    }

    @Test func emptyStringCanBeMadeFalsey() throws {
        let template = try Template("{{#s}}[{{s}}]{{/s}}{{^s}}none{{/s}}")
        #expect(try template.render(["s": ""]) == "[]")
        var options = RenderOptions()
        options.emptyStringIsFalsey = true
        #expect(try template.render(["s": ""], options: options) == "none")
        #expect(try template.render(["s": "x"], options: options) == "[x]")
    }

    @Test func literalsBuildNestedValues() {
        let value: TemplateValue = ["name": "Ada", "age": 36, "ratio": 0.5, "admin": true, "tags": ["a", "b"], "none": .null]
        #expect(value["name"] == .string("Ada"))
        #expect(value["age"] == .int(36))
        #expect(value["tags"] == .array([.string("a"), .string("b")]))
        #expect(value["none"] == .null)
        #expect(value["missing"] == nil)
        #expect(TemplateValue.string("x")["name"] == nil)
    }

    @Test func convertsCatalogValues() throws {
        let value = TemplateValue(Value.record([
            "when": .date(Timestamp(secondsSince1970: 0)),
            "tags": .set([.string("b")]),
            "list": .list([.int(1), .double(2.5), .bool(false)]),
        ]))
        #expect(value == ["when": "1970-01-01T00:00:00Z", "tags": ["b"], "list": [1, 2.5, false]])
    }
}

@Suite struct RenderingTests {
    @Test func parseOnceRenderManyTimes() throws {
        let template = try Template("Hello, {{name}}!{{#admin}} (admin){{/admin}}", name: "greeting")
        #expect(try template.render(["name": "Ada", "admin": true]) == "Hello, Ada! (admin)")
        #expect(try template.render(["name": "Bob"]) == "Hello, Bob!")
        #expect(template.name == "greeting")
        #expect(template.source == "Hello, {{name}}!{{#admin}} (admin){{/admin}}")
        #expect(template == (try Template(template.source, name: "greeting")))
        #expect(template != (try Template(template.source, name: "other")))
    }

    @Test func customEscaperAppliesToEscapedInterpolationsOnly() throws {
        struct Brackets: TemplateEscaper {
            func escape(_ text: String) -> String { "[" + text + "]" }
        }
        let template = try Template("{{a}} {{{a}}} {{&a}} {{n}} {{#list}}{{.}}{{/list}}")
        let output = try template.render(["a": "x", "n": 5, "list": [1, 2]], options: RenderOptions(escaper: Brackets()))
        #expect(output == "[x] x x [5] [1][2]")
    }

    @Test func htmlEscaperEscapesTheSpecCharacters() {
        #expect(HTMLEscaper().escape("a & \"b\" <c> 'd' é") == "a &amp; &quot;b&quot; &lt;c&gt; 'd' é")
        #expect(HTMLEscaper().escape("plain") == "plain")
        #expect(HTMLEscaper().escape("") == "")
        #expect(NoEscaper().escape("<&>") == "<&>")
    }

    @Test func nestedStandalonePartialsComposeIndentation() throws {
        let partials = try DictionaryPartialResolver(sources: ["a": "A\n  {{>b}}\n", "b": "B1\nB2\n"])
        #expect(try Template("  {{>a}}").render([:], partials: partials) == "  A\n    B1\n    B2\n")
    }

    @Test func blankLinesOfAnIndentedPartialStayBlank() throws {
        let partials = try DictionaryPartialResolver(sources: ["p": "one\n\ntwo\r\n\r\nthree\n"])
        #expect(try Template("- list:\n    {{>p}}").render([:], partials: partials) == "- list:\n    one\n\n    two\r\n\r\n    three\n")
    }

    @Test func interpolatedDataIsNotIndented() throws {
        let partials = try DictionaryPartialResolver(sources: ["p": "{{text}}\n{{#items}}- {{.}}\n{{/items}}"])
        let output = try Template("  {{>p}}").render(["text": "a\nb", "items": ["x", "y"]], partials: partials)
        #expect(output == "  a\nb\n  - x\n  - y\n")
    }

    @Test func dynamicParentWithBlocks() throws {
        let partials = try DictionaryPartialResolver(sources: ["card": "[{{$title}}untitled{{/title}}]"])
        let template = try Template("{{<*layout}}{{$title}}{{name}}{{/title}}{{/*layout}}")
        #expect(try template.render(["layout": "card", "name": "Tip"], partials: partials) == "[Tip]")
        #expect(try template.render(["layout": 3, "name": "Tip"], partials: partials) == "")
    }

    @Test func inlinePartialInsideAnIndentedPartialIsNotIndented() throws {
        let partials = try DictionaryPartialResolver(sources: ["outer": "x {{>inner}}\n", "inner": "1\n2"])
        #expect(try Template("  {{>outer}}").render([:], partials: partials) == "  x 1\n2\n")
    }

    @Test func dottedNamesDoNotSearchFurtherOnceTheFirstPartIsFound() throws {
        let template = try Template("{{#a}}{{b.c}}|{{b}}{{/a}}")
        #expect(try template.render(["a": ["b": ["x": 1]], "b": ["c": "outer"]]) == "|")
    }

    @Test func nullValueMasksOuterKeys() throws {
        #expect(try Template("{{#inner}}[{{x}}]{{/inner}}").render(["x": "outer", "inner": ["x": .null]]) == "[]")
    }
}
