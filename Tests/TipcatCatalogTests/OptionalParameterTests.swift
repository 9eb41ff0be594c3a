import Foundation
import Testing
import TipcatCore
import TipcatLocalization
import TipcatTestSupport
@testable import TipcatCatalog

/// Optional tip parameters: the `T?` types, decoding tips that declare them, and resolving without a value.
@Suite struct OptionalParameterTests {
    @Test func optionalTypesParse() {
        #expect(ValueType.parse("string?") == .optional(.string))
        #expect(ValueType.parse(" list<int>? ") == .optional(.list(.int)))
        #expect(ValueType.parse("set<date>?")?.description == "set<date>?")
        for text in ["int??", "list<int?>", "?", "set<string?>?", "string ?"] {
            #expect(ValueType.parse(text) == nil, "\(text)")
        }
        #expect(Value.string("a").conforms(to: .optional(.string)))
        #expect(!Value.int(1).conforms(to: .optional(.string)))
        let record = ValueType.record([.init("id", .string), .init("grade", .optional(.int))])
        #expect(Value.record(["id": .string("a")]).conforms(to: record))
        #expect(Value.record(["id": .string("a"), "grade": .int(2)]).conforms(to: record))
        #expect(!Value.record(["grade": .int(2)]).conforms(to: record))
        #expect(!Value.record(["id": .string("a"), "other": .int(2)]).conforms(to: record))
    }

    /// The tip schema's type pattern accepts what `ValueType.parse` accepts.
    @Test func theSchemaPatternAllowsOptionalTypes() throws {
        let schema = try #require(CatalogSchemas.files["tip.schema.json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(schema.utf8)) as? [String: Any])
        let definitions = try #require(object["$defs"] as? [String: Any])
        let type = try #require(definitions["type"] as? [String: Any])
        let choices = try #require(type["anyOf"] as? [[String: Any]])
        let pattern = try #require(choices.first?["pattern"] as? String)
        let regex = try NSRegularExpression(pattern: pattern)
        func matches(_ text: String) -> Bool {
            regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        for text in ["string?", "list<int>?", "date", "set<bool>"] { #expect(matches(text), "\(text)") }
        for text in ["int??", "list<int?>", "?"] { #expect(!matches(text), "\(text)") }
    }

    func catalog() throws -> (TemporaryDirectory, Catalog) {
        let directory = try TemporaryDirectory()
        let path = try minimalCatalog(in: directory)
        try directory.write("Catalog/tips/A.json", #"""
            {"id": "A", "customID": "A-{trail.id}-{nickname}",
             "title": "{nickname, select, nil {Welcome} other {Welcome, {nickname}}}",
             "message": "{trail.id}{trail.grade, select, nil {} other {, grade {trail.grade}}}",
             "parameters": {"nickname": "string?", "trail": {"id": "string", "grade": "int?"}},
             "rules": ["nickname == nil || trail.grade != nil"],
             "example": {"trail": {"id": "butler"}}}
            """#)
        return (directory, loadCatalog(path))
    }

    @Test func tipsDeclareAndResolveOptionalParameters() throws {
        let (_, catalog) = try catalog()
        let tip = try #require(catalog.tip(TipID("A")))
        #expect(tip.parameters == [
            .init("nickname", .optional(.string)), .init("trail", .record([.init("id", .string), .init("grade", .optional(.int))])),
        ])
        #expect(tip.example == ["trail": .record(["id": .string("butler")])])
        let resolver = TipResolver(catalog: catalog)
        let en = try #require(LocaleID("en"))
        let example = try resolver.resolve(tip, locale: en, parameters: [:], useExample: true)
        #expect(example.title.text == "Welcome")
        #expect(example.message?.text == "butler")
        // An absent optional value is empty text in a custom ID.
        #expect(example.instanceID == "A-butler-")
        let given = try resolver.resolve(tip, locale: en, parameters: [
            "nickname": .string("Sam"), "trail": .record(["id": .string("mill"), "grade": .int(3)]),
        ])
        #expect(given.title.text == "Welcome, Sam")
        #expect(given.message?.text == "mill, grade 3")
        #expect(given.instanceID == "A-mill-Sam")
        // Only the optional parameter may be left out.
        #expect(throws: ResolveError.missingParameter(tip: TipID("A"), name: "trail", type: tip.parameters[1].type)) {
            try resolver.resolve(tip, locale: en, parameters: ["nickname": .string("Sam")])
        }
    }

    @Test func commandLineValuesLeaveOptionalsAbsent() throws {
        let (_, catalog) = try catalog()
        let tip = try #require(catalog.tip(TipID("A")))
        let values = try ParameterValues.assemble([("trail.id", "x"), ("nickname", "")], for: tip)
        #expect(values == ["trail": .record(["id": .string("x")])])
        let quoted = try ParameterValues.assemble([("nickname", #""""#)], for: tip)
        #expect(quoted == ["nickname": .string("")])
    }
}
