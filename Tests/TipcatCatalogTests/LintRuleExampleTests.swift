import Testing
import TipcatCore
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

    @Test func ruleIDsAreUnique() {
        let ids = LintRegistry.builtIn.map(\.description.id)
        #expect(Set(ids).count == ids.count)
    }
}
