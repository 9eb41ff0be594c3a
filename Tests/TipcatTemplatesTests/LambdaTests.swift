import Foundation
import Testing
import TipcatTemplates

/// Native Swift lambdas beyond the spec file: styling wrappers (the reason they exist here), context access.
@Suite struct LambdaTests {
    /// `{{#bold}}…{{/bold}}`: render the section, wrap the result. `.text` keeps data from being re-parsed.
    static let bold: TemplateValue = .lambda { context in
        .text("**" + (try context.render(context.sectionText ?? "")) + "**")
    }

    @Test func stylingLambdaWrapsTheRenderedSection() throws {
        let template = try Template("{{#bold}}{{title}}{{/bold}}: {{body}}")
        let output = try template.render(["bold": Self.bold, "title": "New trail", "body": "Try it"], options: .strict(escaper: NoEscaper()))
        #expect(output == "**New trail**: Try it")
    }

    @Test func stylingLambdaKeepsEscapingOfTheData() throws {
        let template = try Template("{{#bold}}{{title}}{{/bold}}")
        #expect(try template.render(["bold": Self.bold, "title": "<b>"]) == "**&lt;b&gt;**")
    }

    @Test func textResultsAreNotReparsedSoDataCannotInjectTags() throws {
        let template = try Template("{{#bold}}{{title}}{{/bold}}")
        let data: TemplateValue = ["bold": Self.bold, "title": "{{secret}}", "secret": "LEAK"]
        #expect(try template.render(data, options: .strict(escaper: NoEscaper())) == "**{{secret}}**")
        // The spec's way (return a template) re-renders whatever the lambda returns.
        let spec: TemplateValue = .lambda { context in .template("**" + (try context.render(context.sectionText ?? "")) + "**") }
        #expect(try template.render(["bold": spec, "title": "{{secret}}", "secret": "LEAK"], options: .strict(escaper: NoEscaper())) == "**LEAK**")
    }

    @Test func ansiStylingLambda() throws {
        let red: TemplateValue = .lambda { context in
            .text("\u{1B}[31m" + (try context.render(context.sectionText ?? "")) + "\u{1B}[0m")
        }
        let template = try Template("{{#red}}{{count}} errors{{/red}}")
        #expect(try template.render(["red": red, "count": 3]) == "\u{1B}[31m3 errors\u{1B}[0m")
    }

    @Test func sectionLambdaReceivesTheRawTextWithCurrentDelimiters() throws {
        let seen = Recorder()
        let lambda: TemplateValue = .lambda { context in
            seen.record(context.sectionText ?? "<nil>")
            return .template(context.sectionText ?? "")
        }
        let template = try Template("{{=<% %>=}}<%#wrap%>[<%name%>]{{name}}<%/wrap%>")
        #expect(try template.render(["wrap": lambda, "name": "x"]) == "[x]{{name}}")
        #expect(seen.values == ["[<%name%>]{{name}}"])
    }

    @Test func interpolationLambdaSeesNoSectionText() throws {
        let seen = Recorder()
        let lambda: TemplateValue = .lambda { context in
            seen.record(context.isSection ? "section" : "interpolation")
            return .text("<&>")
        }
        let template = try Template("{{l}}|{{{l}}}|{{#l}}ignored{{/l}}")
        #expect(try template.render(["l": lambda]) == "&lt;&amp;&gt;|<&>|<&>")
        #expect(seen.values == ["interpolation", "interpolation", "section"])
    }

    @Test func lambdaCanReadTheContextStack() throws {
        let shout: TemplateValue = .lambda { context in
            let name = context.value(named: "user.name")?.interpolationText ?? "?"
            let top = context.current["id"]?.interpolationText ?? "?"
            // `.text` from an escaped interpolation is escaped by the renderer.
            return .text(name.uppercased() + "<" + top + ">")
        }
        let template = try Template("{{#items}}{{shout}} {{/items}}")
        let data: TemplateValue = ["shout": shout, "user": ["name": "ada"], "items": [["id": 1], ["id": 2]]]
        #expect(try template.render(data) == "ADA&lt;1&gt; ADA&lt;2&gt; ")
    }

    @Test func lambdaCanEscapeWithTheRenderEscaper() throws {
        let link: TemplateValue = .lambda { context in
            .text("<a>" + context.escape(try context.render(context.sectionText ?? "")) + "</a>")
        }
        let template = try Template("{{#link}}{{{label}}}{{/link}}")
        #expect(try template.render(["link": link, "label": "x<y"]) == "<a>x&lt;y</a>")
        #expect(try template.render(["link": link, "label": "x<y"], options: RenderOptions(escaper: NoEscaper())) == "<a>x<y</a>")
    }

    @Test func lambdasAreTruthyForInvertedSectionsAndNotCalled() throws {
        let calls = Counter()
        let lambda: TemplateValue = .lambda { _ in
            _ = calls.next()
            return .text("")
        }
        #expect(try Template("<{{^l}}no{{/l}}>").render(["l": lambda]) == "<>")
        #expect(calls.next() == 1)
    }

    @Test func lambdaResultIsIndentedInsideAnIndentedPartial() throws {
        let list: TemplateValue = .lambda { context in .template(context.sectionText ?? "") }
        let partials = try DictionaryPartialResolver(sources: ["p": "{{#list}}a\nb{{/list}}\n"])
        #expect(try Template("  {{>p}}").render(["list": list], partials: partials) == "  a\n  b\n")
    }

    /// A section filter renders exactly what the lambda it stands for renders — indented partials around and inside
    /// the section, nested filters, lists, standalone tags, interpolation — and fails where that lambda fails: at
    /// the depth limit, at the expansion budget, and with its transform's error.
    @Test func aSectionFilterRendersAsTheLambdaItStandsFor() throws {
        struct Refused: Error {}
        func pair(_ transform: @escaping TemplateLambda.Filter) -> (filter: TemplateValue, lambda: TemplateValue) {
            (.sectionFilter(transform), .lambda { context in context.isSection ? .text(try transform(context.renderSection())) : .text("") })
        }
        let upper = pair { $0.uppercased() }
        let boxed = pair { "[" + $0 + "]" }
        let refusing = pair { _ in throw Refused() }
        let partials = try DictionaryPartialResolver(sources: [
            "item": "{{#box}}\n  * {{name}}\n{{/box}}\n",
            "deep": "{{#up}}{{>deep}}{{/up}}",
            "many": "{{#up}}{{#items}}{{#items}}.{{/items}}{{/items}}{{/up}}",
        ])
        let templates = [
            "{{#up}}{{title}} and {{#box}}{{title}}{{/box}}{{/up}}!", "  {{>item}}", "{{#items}}\n  {{>item}}\n{{/items}}",
            "{{#up}}\n  {{>item}}\n{{/up}}\n", "a {{up}} b", "{{^up}}never{{/up}}", "{{#box}}{{#items}}{{name}},{{/items}}{{/box}}",
            "{{#up}}{{{raw}}} {{raw}}{{/up}}", "{{no}}",
        ]
        func data(_ values: (filter: TemplateValue, lambda: TemplateValue)..., lambda: Bool) -> TemplateValue {
            let pick = { (pair: (filter: TemplateValue, lambda: TemplateValue)) in lambda ? pair.lambda : pair.filter }
            let items: TemplateValue = .array((1...3).map { ["name": .string("n\($0)")] })
            return ["up": pick(values[0]), "box": pick(values[1]), "no": pick(values[2]), "title": "Trail <1>", "raw": "<b>", "items": items]
        }
        for template in templates {
            let parsed = try Template(template)
            let viaFilter = try parsed.render(data(upper, boxed, refusing, lambda: false), partials: partials)
            let viaLambda = try parsed.render(data(upper, boxed, refusing, lambda: true), partials: partials)
            #expect(viaFilter == viaLambda, "\(template.debugDescription)")
        }
        // The same failures, at the same tags.
        let limited = RenderOptions(maxDepth: 30, maxExpansions: 8)
        for template in ["{{>deep}}", "{{>many}}", "x {{#no}}y{{/no}}"] {
            let parsed = try Template(template)
            let results = [false, true].map { lambda in
                Result { () throws(TemplateError) in try parsed.render(data(upper, boxed, refusing, lambda: lambda), partials: partials, options: limited) }
            }
            guard case .failure(let viaFilter) = results[0], case .failure(let viaLambda) = results[1] else {
                Issue.record("\(template) rendered")
                continue
            }
            #expect(viaFilter.description == viaLambda.description, "\(template)")
        }
    }

    @Test func lambdaEqualityIsIdentity() {
        let one = TemplateLambda { _ in .text("1") }
        let same = one
        let other = TemplateLambda { _ in .text("1") }
        #expect(one == same)
        #expect(one != other)
        #expect(TemplateValue.lambda(one) == .lambda(same))
        #expect(Set([TemplateValue.lambda(one), .lambda(same), .lambda(other)]).count == 2)
    }
}

/// Collects strings from lambdas (which must be `Sendable`).
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func record(_ value: String) {
        lock.lock()
        defer { lock.unlock() }
        storage.append(value)
    }

    var values: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
