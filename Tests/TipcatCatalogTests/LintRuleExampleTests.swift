import Testing
import TipcatCore
import TipcatTestSupport
@testable import TipcatCatalog

/// Every lint rule's own examples: triggering ones report the rule, the others do not (SwiftLint style).
/// `DiagnosticRulesTests` (TipcatCLITests) runs the examples of every rule in the registry the same way.
@Suite struct LintRuleExampleTests {
    struct RuleCase: CustomStringConvertible, Sendable {
        var rule: any CatalogLintRule
        var description: String { rule.description.id }
    }

    static let rules = LintRegistry.builtIn.map(RuleCase.init)

    private func findings(_ files: [String: String]) -> [Diagnostic] {
        let prefixed = Dictionary(uniqueKeysWithValues: files.map { ("cat/\($0.key)", $0.value) })
        return CatalogLoader(fileSystem: InMemoryFileSystem(files: prefixed)).load(directory: "cat").diagnostics
    }

    @Test(arguments: rules)
    func triggeringExamplesTrigger(_ item: RuleCase) {
        let description = item.rule.description
        #expect(!description.triggeringExamples.isEmpty)
        for example in description.triggeringExamples {
            let found = findings(example).filter { $0.ruleID == description.id }
            #expect(!found.isEmpty, "\(description.id) did not trigger on \(example)")
            #expect(found.allSatisfy { $0.severity == description.severity && $0.location != nil })
        }
    }

    @Test(arguments: rules)
    func nonTriggeringExamplesAreClean(_ item: RuleCase) {
        let description = item.rule.description
        #expect(!description.nonTriggeringExamples.isEmpty)
        for example in description.nonTriggeringExamples {
            let all = findings(example)
            #expect(all.isEmpty, "\(description.id) example should be clean: \(all.map(\.description))")
        }
    }

    /// A rule that says it does not read translations (it runs while the String Catalog is decoded, without it)
    /// finds the same in every example, and in the sample catalog, with the translations as without them; and the
    /// rules that do read them say so.
    @Test(arguments: rules)
    func rulesThatDoNotReadTranslationsFindTheSameWithoutThem(_ item: RuleCase) {
        let description = item.rule.description
        if description.id == "orphan-translation" || description.id == "unsupported-locale" {
            #expect(item.rule.readsTranslations)
            return
        }
        #expect(!item.rule.readsTranslations)
        let examples = description.triggeringExamples + description.nonTriggeringExamples
        var catalogs = examples.map { example in
            let prefixed = Dictionary(uniqueKeysWithValues: example.map { ("cat/\($0.key)", $0.value) })
            return CatalogLoader(fileSystem: InMemoryFileSystem(files: prefixed)).load(directory: "cat").catalog
        }
        catalogs.append(loadCatalog(sampleCatalogPath))
        for catalog in catalogs {
            var without = catalog
            without.localizations = LocalizationTable(sourceLanguage: catalog.settings.sourceLanguage, file: catalog.localizations.file)
            #expect(item.rule.check(without).map(\.description) == item.rule.check(catalog).map(\.description), "\(description.id)")
        }
    }

    @Test func ruleIDsAreUnique() {
        let ids = LintRegistry.builtIn.map(\.description.id)
        #expect(Set(ids).count == ids.count)
    }
}
