import Foundation
import Testing
import TipcatTemplates

/// One test of the official Mustache spec (Tests/Fixtures/mustache-spec).
struct SpecCase: Sendable, CustomTestStringConvertible {
    let file: String
    let name: String
    let summary: String
    let template: String
    let data: SpecJSON
    let partials: [String: String]
    let expected: String

    var testDescription: String { "\(file): \(name)" }
}

enum SpecFixtures {
    /// Found next to this file, so the tests run from any clone.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/mustache-spec")

    /// The number of tests in each vendored file; guards against a fixture silently going missing.
    static let expectedCounts: [String: Int] = [
        "comments.json": 12, "delimiters.json": 14, "interpolation.json": 42, "inverted.json": 22,
        "partials.json": 12, "sections.json": 34, "~inheritance.json": 27, "~dynamic-names.json": 21,
        "~lambdas.json": 10,
    ]

    static func load(_ file: String) throws -> [SpecCase] {
        let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(file)))
        guard case .array(let tests)? = try SpecJSON.parse(bytes)["tests"] else { return [] }
        return tests.map { test in
            var partials: [String: String] = [:]
            if case .object(let fields)? = test["partials"] {
                for (key, value) in fields { partials[key] = value.string ?? "" }
            }
            return SpecCase(
                file: file,
                name: test["name"]?.string ?? "?",
                summary: test["desc"]?.string ?? "",
                template: test["template"]?.string ?? "",
                data: test["data"] ?? .null,
                partials: partials,
                expected: test["expected"]?.string ?? ""
            )
        }
    }

    /// The cases of `file`, or none when it cannot be read (``SpecConformanceTests/fixturesArePresent()``
    /// then fails).
    static func cases(_ file: String) -> [SpecCase] {
        (try? load(file)) ?? []
    }

    static func render(_ spec: SpecCase, data: TemplateValue) throws -> String {
        let template = try Template(spec.template, name: spec.name)
        let partials = try DictionaryPartialResolver(sources: spec.partials)
        return try template.render(data, partials: partials, options: .spec)
    }

    static func check(_ spec: SpecCase) throws {
        let output = try render(spec, data: spec.data.templateValue())
        #expect(output == spec.expected, "\(spec.summary)")
    }
}

/// Every test of every spec file, each a case of its own named `<file>: <test name>`. No test is skipped.
@Suite struct SpecConformanceTests {
    @Test func fixturesArePresent() throws {
        for (file, count) in SpecFixtures.expectedCounts {
            #expect(try SpecFixtures.load(file).count == count, "\(file)")
        }
    }

    @Test(arguments: SpecFixtures.cases("comments.json"))
    func comments(_ spec: SpecCase) throws { try SpecFixtures.check(spec) }

    @Test(arguments: SpecFixtures.cases("delimiters.json"))
    func delimiters(_ spec: SpecCase) throws { try SpecFixtures.check(spec) }

    @Test(arguments: SpecFixtures.cases("interpolation.json"))
    func interpolation(_ spec: SpecCase) throws { try SpecFixtures.check(spec) }

    @Test(arguments: SpecFixtures.cases("inverted.json"))
    func inverted(_ spec: SpecCase) throws { try SpecFixtures.check(spec) }

    @Test(arguments: SpecFixtures.cases("partials.json"))
    func partials(_ spec: SpecCase) throws { try SpecFixtures.check(spec) }

    @Test(arguments: SpecFixtures.cases("sections.json"))
    func sections(_ spec: SpecCase) throws { try SpecFixtures.check(spec) }

    @Test(arguments: SpecFixtures.cases("~inheritance.json"))
    func inheritance(_ spec: SpecCase) throws { try SpecFixtures.check(spec) }

    @Test(arguments: SpecFixtures.cases("~dynamic-names.json"))
    func dynamicNames(_ spec: SpecCase) throws { try SpecFixtures.check(spec) }

    /// `~lambdas.json` gives its lambdas as code in other languages (`{"__tag__": "code", "ruby": …}`).
    /// Each is replaced by the equivalent native Swift lambda below, keyed by test name; template, data
    /// and expected output are the file's own.
    @Test(arguments: SpecFixtures.cases("~lambdas.json"))
    func lambdas(_ spec: SpecCase) throws {
        let lambda = try #require(SpecLambdas.lambda(for: spec.name), "no Swift lambda for '\(spec.name)'")
        let data = spec.data.templateValue { json in
            json["__tag__"] == .string("code") ? lambda : nil
        }
        let output = try SpecFixtures.render(spec, data: data)
        #expect(output == spec.expected, "\(spec.summary)")
    }
}

/// Swift versions of the lambdas of `~lambdas.json`, one per test, made fresh for each run (the counting
/// lambda starts at zero every time).
enum SpecLambdas {
    static func lambda(for test: String) -> TemplateValue? {
        switch test {
        case "Interpolation":
            return .lambda { _ in .template("world") }
        case "Interpolation - Expansion":
            return .lambda { _ in .template("{{planet}}") }
        case "Interpolation - Alternate Delimiters":
            return .lambda { _ in .template("|planet| => {{planet}}") }
        case "Interpolation - Multiple Calls":
            let calls = Counter()
            return .lambda { _ in .template(String(calls.next())) }
        case "Escaping":
            return .lambda { _ in .template(">") }
        case "Section":
            return .lambda { context in .template(context.sectionText == "{{x}}" ? "yes" : "no") }
        case "Section - Expansion":
            return .lambda { context in
                let text = context.sectionText ?? ""
                return .template(text + "{{planet}}" + text)
            }
        case "Section - Alternate Delimiters":
            return .lambda { context in
                let text = context.sectionText ?? ""
                return .template(text + "{{planet}} => |planet|" + text)
            }
        case "Section - Multiple Calls":
            return .lambda { context in .template("__" + (context.sectionText ?? "") + "__") }
        case "Inverted Section":
            return .lambda { _ in .text("") }
        default:
            return nil
        }
    }
}

/// A thread-safe call counter for lambdas (which must be `Sendable`).
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
