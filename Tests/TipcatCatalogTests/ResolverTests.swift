import Foundation
import Testing
import TipcatCore
import TipcatLocalization
@testable import TipcatCatalog

/// Resolving the sample catalog's tips: locale fallback, parameters, custom IDs, plurals.
@Suite struct ResolverTests {
    static let catalog: Catalog = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return CatalogLoader().load(directory: url.path + "/Catalog").catalog
    }()
    let resolver = TipResolver(catalog: ResolverTests.catalog)

    func locale(_ text: String) throws -> LocaleID { try #require(LocaleID(text)) }

    @Test func customIDAndExampleParameters() throws {
        let tip = try resolver.tip("NewTrailTip")
        let resolved = try resolver.resolve(tip, locale: locale("en"), parameters: [:], useExample: true)
        #expect(resolved.instanceID == "NewTrailTip-butler-fork")
        #expect(resolved.title.text == "Butler Fork is now available")
        #expect(resolved.actions.map(\.title.text) == ["Go there now"])
    }

    @Test func localeFallsBackAlongTheChain() throws {
        let tip = try resolver.tip("ShowLocationTip")
        let canadian = try resolver.resolve(tip, locale: locale("fr-CA"), parameters: [:])
        #expect(canadian.title.locale == (try locale("fr")))
        #expect(canadian.title.text != tip.title.source)
        let swedish = try resolver.resolve(tip, locale: locale("sv"), parameters: [:])
        #expect(swedish.title.locale == (try locale("en")))
        #expect(swedish.title.text == tip.title.source)
    }

    @Test func pluralVariationsPickTheLocaleCategory() throws {
        let tip = try resolver.tip("FindTrailheadTip")
        let count = try #require(tip.parameters.first { $0.type == .int }?.name)
        var texts: [Int: String] = [:]
        for number in [1, 2, 5] {
            let resolved = try resolver.resolve(tip, locale: locale("pl"), parameters: [count: .int(number)], useExample: true)
            let text = try #require(resolved.message?.text ?? Optional(resolved.title.text))
            #expect(text.contains(String(number)) || number == 1, "\(text)")
            texts[number] = text
        }
        // Polish: 1 one, 2 few, 5 many — three different forms.
        #expect(Set(texts.values).count == 3, "\(texts)")
    }

    @Test func parameterErrorsNameTheParameter() throws {
        let tip = try resolver.tip("NewTrailTip")
        #expect(throws: ResolveError.missingParameter(tip: "NewTrailTip", name: "trail", type: try #require(tip.parameter("trail")))) {
            try resolver.resolve(tip, locale: locale("en"), parameters: [:])
        }
        #expect(throws: ResolveError.self) {
            try resolver.resolve(tip, locale: locale("en"), parameters: ["trail": .int(3)])
        }
        #expect(throws: ResolveError.unknownTip("NewTrailTp", suggestion: "NewTrailTip")) { try resolver.tip("NewTrailTp") }
    }

    @Test func commandLinePairsBuildRecords() throws {
        let tip = try resolver.tip("NewTrailTip")
        let values = try ParameterValues.assemble(
            [("trail.id", "silver-lake"), ("trail.name", "Silver Lake"), ("trail.region", "Wasatch")], for: tip)
        let resolved = try resolver.resolve(tip, locale: locale("en"), parameters: values)
        #expect(resolved.instanceID == "NewTrailTip-silver-lake")
        #expect(throws: ResolveError.self) { try ParameterValues.assemble([("trail.nope", "x")], for: tip) }
        #expect(throws: ResolveError.self) { try ParameterValues.assemble([("trial.id", "x")], for: tip) }
    }

    @Test func parsesTypedText() {
        #expect(ParameterValues.parse("42", as: .int) == .int(42))
        #expect(ParameterValues.parse("4x", as: .int) == nil)
        #expect(ParameterValues.parse("yes", as: .bool) == .bool(true))
        #expect(ParameterValues.parse("a,b,a", as: .set(.string)) == .set([.string("a"), .string("b")]))
        #expect(ParameterValues.parse(#"["x", "y"]"#, as: .list(.string)) == .list([.string("x"), .string("y")]))
        #expect(ParameterValues.parse("2026-01-01", as: .date) != nil)
    }
}
