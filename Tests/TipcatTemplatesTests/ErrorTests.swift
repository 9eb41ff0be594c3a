import Testing
import TipcatCore
import TipcatTemplates

/// Parses `source`, expecting a failure; returns the error.
func parseError(_ source: String, name: String = "t.mustache") throws -> TemplateError {
    do {
        _ = try Template(source, name: name)
    } catch {
        return error
    }
    Issue.record("'\(source)' parsed without error")
    throw CancellationError()
}

/// Renders, expecting a failure; returns the error.
func renderError(
    _ template: Template, _ data: TemplateValue = [:], partials: any PartialResolver = EmptyPartialResolver(),
    options: RenderOptions = .spec
) throws -> TemplateError {
    do {
        let output = try template.render(data, partials: partials, options: options)
        Issue.record("rendered '\(output)' without error")
    } catch {
        return error
    }
    throw CancellationError()
}

@Suite struct ParseErrorTests {
    @Test func unclosedSectionNamesWhereItOpened() throws {
        let error = try parseError("a\n\n  {{#x}}\nb")
        #expect(error.kind == .unclosedSection(name: "x", opened: SourceLocation(file: "t.mustache", line: 3, column: 3)))
        #expect(error.location == SourceLocation(file: "t.mustache", line: 3, column: 3))
        #expect(error.message == "unclosed section 'x' opened at 3:3")
        #expect(error.description == "t.mustache:3:3: unclosed section 'x' opened at 3:3")
        #expect(error.diagnostic.description == "t.mustache:3:3: error: unclosed section 'x' opened at 3:3 [template-unclosed-section]")
    }

    @Test func unclosedInvertedParentAndBlock() throws {
        #expect(try parseError("{{^n}}").kind == .unclosedSection(name: "n", opened: .init(file: "t.mustache", line: 1, column: 1)))
        #expect(try parseError("x{{<layout}}").message == "unclosed section 'layout' opened at 1:2")
        #expect(try parseError("{{$title}}default").message == "unclosed section 'title' opened at 1:1")
        #expect(try parseError("{{<*layout}}{{/layout}}").message.hasPrefix("'{{/layout}}' closes '*layout'"))
    }

    @Test func mismatchedClosingTag() throws {
        let error = try parseError("{{#a}}\n  {{/b}}")
        #expect(error.location == SourceLocation(file: "t.mustache", line: 2, column: 3))
        #expect(error.message == "'{{/b}}' closes 'a' (opened at 1:1)")
        #expect(error.kind == .mismatchedClosingTag(tag: "{{/b}}", open: "a", opened: .init(file: "t.mustache", line: 1, column: 1)))
    }

    @Test func mismatchedClosingTagShowsCurrentDelimiters() throws {
        let error = try parseError("{{=<% %>=}}<%#a%>\n<%/b%>")
        #expect(error.message == "'<%/b%>' closes 'a' (opened at 1:12)")
        #expect(error.location?.line == 2)
    }

    @Test func closingTagWithNothingOpen() throws {
        let error = try parseError("ok\n {{/a}}")
        #expect(error.kind == .unexpectedClosingTag(tag: "{{/a}}"))
        #expect(error.location == SourceLocation(file: "t.mustache", line: 2, column: 2))
    }

    @Test(arguments: ["{{= | =}}", "{{=|=}}", "{{=a b c=}}", "{{=a= b=}}", "{{= =}}", "{{=<% %>}}"])
    func badDelimiterChange(_ tag: String) throws {
        let error = try parseError("x\n" + tag + "\n")
        guard case .invalidDelimiters(let written) = error.kind else {
            Issue.record("expected invalidDelimiters, got \(error)")
            return
        }
        #expect(written == tag)
        #expect(error.location == SourceLocation(file: "t.mustache", line: 2, column: 1))
    }

    @Test func unclosedTag() throws {
        let error = try parseError("Hello {{name")
        #expect(error.kind == .unclosedTag(opener: "{{", closer: "}}"))
        #expect(error.location == SourceLocation(file: "t.mustache", line: 1, column: 7))
        #expect(error.message == "unclosed tag: '{{' has no matching '}}'")
    }

    @Test func unclosedTagThatRunsIntoTheNextTag() throws {
        // The scanner finds the next tag's `}}`; the newline / `{{` inside the name gives it away.
        #expect(try parseError("Hi {{name\nmore {{x}}").location == SourceLocation(file: "t.mustache", line: 1, column: 4))
        #expect(try parseError("Hi {{name {{x}}").kind == .unclosedTag(opener: "{{", closer: "}}"))
        #expect(try parseError("{{{x}}").kind == .unclosedTag(opener: "{{", closer: "}}"))
        #expect(try parseError("a {{! never closed").location?.column == 3)
        #expect(try parseError("{{").location?.column == 1)
    }

    @Test(arguments: ["{{}}", "{{ }}", "{{#}}{{/}}", "{{^ }}", "{{&}}", "{{{ }}}", "{{>}}", "{{> * }}", "{{<}}", "{{$}}"])
    func emptyTagName(_ source: String) throws {
        let error = try parseError("line\n  " + source)
        guard case .emptyTagName = error.kind else {
            Issue.record("expected emptyTagName, got \(error)")
            return
        }
        #expect(error.location == SourceLocation(file: "t.mustache", line: 2, column: 3))
    }

    @Test(arguments: ["{{a b}}", "{{a..b}}", "{{.a}}", "{{a.}}", "{{#a b}}{{/a b}}"])
    func invalidTagName(_ source: String) throws {
        guard case .invalidTagName = try parseError(source).kind else {
            Issue.record("expected invalidTagName for \(source)")
            return
        }
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let error = try parseError("é日 {{#x}}")
        #expect(error.location == SourceLocation(file: "t.mustache", line: 1, column: 4))
    }

    @Test func errorsInsideAPartialPointIntoThePartial() throws {
        do {
            _ = try DictionaryPartialResolver(sources: ["card": "ok\n{{#x}}"])
            Issue.record("expected a parse error")
        } catch {
            #expect(error.location == SourceLocation(file: "card", line: 2, column: 1))
        }
    }

    @Test func tenThousandNestedSectionsFailCleanly() throws {
        let depth = 10_000
        let source = String(repeating: "{{#a}}", count: depth) + "x" + String(repeating: "{{/a}}", count: depth)
        let error = try parseError(source)
        #expect(error.kind == .nestingTooDeep(limit: Template.maximumNesting))
        // The first tag past the limit: 6 bytes per tag.
        #expect(error.location == SourceLocation(file: "t.mustache", line: 1, column: Template.maximumNesting * 6 + 1))
    }

    @Test func nestingUpToTheLimitParsesAndRenders() throws {
        let depth = Template.maximumNesting
        let source = String(repeating: "{{#a}}", count: depth) + "{{v}}" + String(repeating: "{{/a}}", count: depth)
        let template = try Template(source)
        #expect(try template.render(["a": true, "v": "deep"]) == "deep")
    }
}

@Suite struct RenderErrorTests {
    @Test func missingPartialIsEmptyInSpecModeAndAnErrorInStrictMode() throws {
        let template = try Template("x\n {{>nope}}\n", name: "page")
        #expect(try template.render([:]) == "x\n")
        let error = try renderError(template, options: .strict(escaper: NoEscaper()))
        #expect(error.kind == .missingPartial(name: "nope"))
        #expect(error.location == SourceLocation(file: "page", line: 2, column: 2))
        #expect(error.message == "no partial named 'nope'")
    }

    @Test func missingParentInStrictMode() throws {
        let template = try Template("{{<layout}}{{/layout}}", name: "page")
        #expect(try template.render([:]) == "")
        #expect(try renderError(template, options: .strict(escaper: NoEscaper())).kind == .missingPartial(name: "layout"))
    }

    @Test func missingDynamicPartialInStrictMode() throws {
        let template = try Template("{{>*kind}}", name: "page")
        let error = try renderError(template, ["kind": "video"], options: .strict(escaper: NoEscaper()))
        #expect(error.kind == .missingPartial(name: "video"))
        // A dynamic name that resolves to nothing renders nothing, even in strict mode (as the spec says).
        #expect(try template.render([:], options: .strict(escaper: NoEscaper())) == "")
    }

    @Test func selfIncludingPartialHitsTheDepthLimit() throws {
        let partials = try DictionaryPartialResolver(sources: ["self": "x{{>self}}"])
        let error = try renderError(try Template("{{>self}}", name: "page"), partials: partials)
        #expect(error.kind == .recursionLimit(limit: RenderOptions().maxDepth))
        #expect(error.location == SourceLocation(file: "self", line: 1, column: 2))
    }

    @Test func mutuallyRecursiveParentsHitTheDepthLimit() throws {
        let partials = try DictionaryPartialResolver(sources: ["a": "{{<b}}{{/b}}", "b": "{{<a}}{{/a}}"])
        let error = try renderError(try Template("{{<a}}{{/a}}"), partials: partials)
        #expect(error.kind == .recursionLimit(limit: RenderOptions().maxDepth))
    }

    @Test func deepDataThroughARecursivePartialHitsTheDepthLimit() throws {
        var node: TemplateValue = ["name": "leaf"]
        for level in 0..<10_000 { node = ["name": .string("n\(level)"), "child": node] }
        let partials = try DictionaryPartialResolver(sources: ["node": "{{name}}{{#child}}>{{>node}}{{/child}}"])
        let template = try Template("{{>node}}")
        var options = RenderOptions()
        #expect(try renderError(template, node, partials: partials, options: options).kind == .recursionLimit(limit: 200))
        options.maxDepth = 50
        #expect(try renderError(template, node, partials: partials, options: options).kind == .recursionLimit(limit: 50))
        // Shallow data renders. (The leaf needs its own `child`: otherwise `{{#child}}` finds its parent's.)
        let small: TemplateValue = ["name": "a", "child": ["name": "b", "child": ["name": "c", "child": false]]]
        #expect(try template.render(small, partials: partials) == "a>b>c")
    }

    @Test func lambdaErrorsAreWrappedWithTheTagLocation() throws {
        struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
        let template = try Template("a\n  {{#fail}}x{{/fail}}", name: "page")
        let error = try renderError(template, ["fail": .lambda { _ in throw Boom() }])
        #expect(error.kind == .lambdaFailed(name: "fail", detail: "boom"))
        #expect(error.location == SourceLocation(file: "page", line: 2, column: 3))
    }

    @Test func lambdaResultParseErrorsNameTheLambda() throws {
        let template = try Template("{{broken}}", name: "page")
        let error = try renderError(template, ["broken": .lambda { _ in .template("{{#open}}") }])
        #expect(error.location == SourceLocation(file: "page (lambda 'broken')", line: 1, column: 1))
        #expect(error.message == "unclosed section 'open' opened at 1:1")
    }

    @Test func selfExpandingLambdaHitsTheDepthLimit() throws {
        let template = try Template("{{#again}}x{{/again}}")
        let error = try renderError(template, ["again": .lambda { _ in .template("{{#again}}y{{/again}}") }])
        #expect(error.kind == .recursionLimit(limit: RenderOptions().maxDepth))
    }

    /// Ten partials, each including the next ten times: 10^10 copies of the last one. The render stops at the
    /// output limit, located at the tag that crossed it, in well under a second.
    @Test func fanOutPartialsHitTheOutputLimit() throws {
        var sources: [String: String] = ["p9": String(repeating: "boom ", count: 200)]
        for level in 0..<9 { sources["p\(level)"] = String(repeating: "{{>p\(level + 1)}}", count: 10) }
        let partials = try DictionaryPartialResolver(sources: sources)
        let clock = ContinuousClock()
        let start = clock.now
        let error = try renderError(try Template("{{>p0}}", name: "page"), partials: partials)
        #expect(clock.now - start < .milliseconds(900))
        #expect(error.kind == .outputLimit(limit: 4 << 20))
        #expect(error.message == "the rendered output is larger than 4194304 bytes (partials or sections that multiply each other?)")
        #expect(error.ruleID == "template-too-large")
        #expect(error.location?.file.hasPrefix("p") == true, "\(String(describing: error.location))")
    }

    /// The same fan-out with nothing to write: the expansion limit stops it, fast; a smaller limit is honoured.
    @Test func fanOutWithoutOutputHitsTheExpansionLimit() throws {
        var sources: [String: String] = ["p9": ""]
        for level in 0..<9 { sources["p\(level)"] = String(repeating: "{{>p\(level + 1)}}", count: 10) }
        let partials = try DictionaryPartialResolver(sources: sources)
        let clock = ContinuousClock()
        let start = clock.now
        let error = try renderError(try Template("{{>p0}}", name: "page"), partials: partials)
        #expect(clock.now - start < .milliseconds(900))
        #expect(error.kind == .expansionLimit(limit: 20_000))
        #expect(error.location == SourceLocation(file: "p8", line: 1, column: 1) || error.location?.file.hasPrefix("p") == true)
        var options = RenderOptions()
        options.maxExpansions = 50
        #expect(try renderError(try Template("{{>p0}}", name: "page"), partials: partials, options: options).kind == .expansionLimit(limit: 50))
        // A small fan-out renders.
        let small = try DictionaryPartialResolver(sources: ["a": "{{>b}}{{>b}}", "b": "x{{#list}}{{.}}{{/list}}"])
        #expect(try Template("{{>a}}").render(["list": [1, 2, 3]], partials: small) == "x123x123")
    }
}
