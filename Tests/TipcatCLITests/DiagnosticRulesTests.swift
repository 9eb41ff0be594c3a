import Foundation
import Testing
import TipcatCatalog
import TipcatCore
import TipcatEngine
import TipcatTemplates
import TipcatTestSupport
@testable import TipcatCLI

/// The registry of every rule: complete, unique, used by name at every emission site, its examples true, and the
/// README's table generated from it.
@Suite struct DiagnosticRulesTests {
    struct RuleCase: CustomStringConvertible, Sendable {
        var rule: DiagnosticRule
        var description: String { rule.id }
    }

    /// The stages whose rules `tipcat validate` can report (it loads a catalog; it renders and simulates nothing).
    static let validateStages: Set<DiagnosticRule.Stage> = [.json, .catalog, .messages, .translations, .rules, .lint]

    static let validateRules = DiagnosticRules.all.filter { validateStages.contains($0.stage) }.map(RuleCase.init)

    /// Every `.swift` file under Sources/: path relative to the repository → text.
    static let sources: [(path: String, text: String)] = {
        let root = URL(fileURLWithPath: repositoryRoot).appendingPathComponent("Sources")
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var files: [(String, String)] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            files.append((String(url.path.dropFirst(repositoryRoot.count + 1)), text))
        }
        return files.sorted { $0.0 < $1.0 }
    }()

    private func findings(_ files: [String: String]) -> [Diagnostic] {
        let prefixed = Dictionary(uniqueKeysWithValues: files.map { ("cat/\($0.key)", $0.value) })
        return CatalogLoader(fileSystem: InMemoryFileSystem(files: prefixed)).load(directory: "cat").diagnostics
    }

    @Test func idsAreUniqueAndKebabCase() throws {
        let ids = DiagnosticRules.all.map(\.id)
        let duplicates = Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(duplicates.isEmpty, "rule ids declared more than once: \(duplicates)")
        #expect(DiagnosticRules.allIDs.count == ids.count)
        let kebab = try Regex("^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
        for id in ids { #expect(id.wholeMatch(of: kebab) != nil, "'\(id)' is not kebab-case") }
        #expect(DiagnosticRules.rule(id: "unknown-event") == .unknownEvent)
        #expect(DiagnosticRules.rule(id: "no-such-rule") == nil)
    }

    @Test func everyDeclaredRuleIsInTheRegistry() throws {
        let declaration = try Regex(#"DiagnosticRule\(\s*"([^"]+)""#)
        var declared: [String: String] = [:]
        for (path, text) in Self.sources {
            for match in text.matches(of: declaration) {
                guard let id = match.output[1].substring.map(String.init) else { continue }
                #expect(declared[id] == nil, "rule '\(id)' is declared in \(declared[id] ?? "") and again in \(path)")
                declared[id] = path
            }
        }
        let missing = Set(declared.keys).subtracting(DiagnosticRules.allIDs).sorted()
        #expect(missing.isEmpty, "declared but not in DiagnosticRules.all (Sources/TipcatCLI/DiagnosticRules.swift): \(missing)")
        let undeclared = DiagnosticRules.allIDs.subtracting(declared.keys).sorted()
        #expect(undeclared.isEmpty, "in DiagnosticRules.all but not declared with DiagnosticRule(\"…\", …): \(undeclared)")
    }

    /// Emission sites name a `DiagnosticRule` (`rule: .unknownEvent`), never a string.
    @Test func noRuleIDIsWrittenAsAString() throws {
        let patterns = [
            try Regex(#"\brule(ID)?\s*:\s*""#),  // rule: "unknown-event", ruleID: "…"
            try Regex(#"\bruleID\s*=\s*""#),  // ruleID = "…"
            try Regex(#"\b(error|warning|note|report)\(\s*"[a-z]+(-[a-z0-9]+)+"\s*,"#),  // error("type-mismatch", …)
            try Regex(#"case \.\w+(\([^)]*\))?\s*:\s*"[a-z]+(-[a-z0-9]+)+"\s*$"#).anchorsMatchLineEndings(),  // case .x: "template-…"
        ]
        var offenders: [String] = []
        // tipcat-plugin-keys stands for a third-party plugin: its rule ids are its own, prefixed by tipcat at run time.
        for (path, text) in Self.sources where !path.hasPrefix("Sources/tipcat-plugin-") {
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                if patterns.contains(where: { line.firstMatch(of: $0) != nil }) {
                    offenders.append("\(path):\(index + 1): \(code)")
                }
            }
        }
        #expect(offenders.isEmpty, "declare a DiagnosticRule and use it instead of a string rule id:\n\(offenders.joined(separator: "\n"))")
    }

    @Test(arguments: validateRules)
    func validateRulesHaveCatalogExamples(_ item: RuleCase) {
        #expect(!item.rule.triggeringExamples.isEmpty, "\(item.rule.id) can be reported by validate but has no triggering example catalog")
        #expect(!item.rule.nonTriggeringExamples.isEmpty, "\(item.rule.id) has no non-triggering example catalog")
        #expect(!item.rule.summary.isEmpty)
    }

    @Test(arguments: DiagnosticRules.all.filter { !$0.triggeringExamples.isEmpty }.map(RuleCase.init))
    func triggeringExamplesTrigger(_ item: RuleCase) {
        let rule = item.rule
        for example in rule.triggeringExamples {
            let all = findings(example)
            let found = all.filter { $0.ruleID == rule.id }
            #expect(!found.isEmpty, "\(rule.id) did not trigger on \(example); found \(all.map(\.description))")
            #expect(found.allSatisfy { $0.severity == rule.defaultSeverity && $0.location != nil },
                    "\(rule.id) reported at another severity or without a location: \(found.map(\.description))")
            let unknown = all.filter { !DiagnosticRules.allIDs.contains($0.ruleID) }
            #expect(unknown.isEmpty, "findings with ids that are not in DiagnosticRules.all: \(unknown.map(\.description))")
        }
    }

    @Test(arguments: DiagnosticRules.all.filter { !$0.nonTriggeringExamples.isEmpty }.map(RuleCase.init))
    func nonTriggeringExamplesAreClean(_ item: RuleCase) {
        for example in item.rule.nonTriggeringExamples {
            let all = findings(example)
            #expect(all.isEmpty, "\(item.rule.id) example should be clean: \(all.map(\.description))")
        }
    }

    @Test(arguments: DiagnosticRules.all.filter { !$0.snippets.isEmpty }.map(RuleCase.init))
    func snippetsTrigger(_ item: RuleCase) throws {
        let rule = item.rule
        for snippet in rule.snippets {
            switch snippet.kind {
            case .template:
                do {
                    _ = try Template(snippet.text, name: "snippet")
                    Issue.record("\(rule.id): template \(snippet.text) parsed without an error")
                } catch {
                    #expect(error.rule == rule, "\(rule.id): template \(snippet.text) reported \(error.ruleID)")
                }
            case .simulation:
                let found = SimulationScript.parse(snippet.text, path: "snippet.tipsim", catalog: Self.sample.catalog).diagnostics
                #expect(found.map(\.ruleID) == [rule.id], "\(rule.id): \(snippet.text) reported \(found.map(\.description))")
            }
        }
    }

    static let sample = CatalogLoader().load(directory: sampleCatalogPath)

    /// Every lint rule `validate` runs is in the registry, under its own description.
    @Test func lintRulesAreRegistered() {
        for lint in LintRegistry.builtIn {
            #expect(DiagnosticRules.rule(id: lint.description.id) != nil, "\(lint.description.id) is not in DiagnosticRules.all")
            #expect(lint.description.stage == .lint)
        }
    }

    static let readmeBegin = "<!-- rules:begin -->\n"
    static let readmeEnd = "<!-- rules:end -->"

    /// The README's "Diagnostics" table is `DiagnosticRules.markdownTable()`; `make docs` rewrites it.
    @Test func readmeTableIsGenerated() throws {
        let path = repositoryRoot + "/README.md"
        let readme = try String(contentsOfFile: path, encoding: .utf8)
        guard let begin = readme.range(of: Self.readmeBegin),
              let end = readme.range(of: Self.readmeEnd, range: begin.upperBound..<readme.endIndex) else {
            Issue.record("README.md has no \(Self.readmeBegin.dropLast()) … \(Self.readmeEnd) markers")
            return
        }
        let generated = DiagnosticRules.markdownTable()
        if ProcessInfo.processInfo.environment["TIPCAT_RECORD_README"] == "1" {
            var updated = readme
            updated.replaceSubrange(begin.upperBound..<end.lowerBound, with: generated)
            if updated != readme { try updated.write(toFile: path, atomically: true, encoding: .utf8) }
            return
        }
        #expect(String(readme[begin.upperBound..<end.lowerBound]) == generated,
                "README.md's rule table is out of date; regenerate it with `make docs` (TIPCAT_RECORD_README=1 swift test --filter DiagnosticRulesTests/readmeTableIsGenerated)")
    }

    @Test func markdownTableEscapesPipes() {
        let table = [DiagnosticRule("a-b", .warning, stage: .lint, summary: "x | y")].markdownTable()
        #expect(table == "| id | severity | stage | what |\n|---|---|---|---|\n| `a-b` | warning | lint | x \\| y |\n")
    }
}
