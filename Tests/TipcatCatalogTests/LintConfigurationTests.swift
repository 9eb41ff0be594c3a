import Testing
import TipcatCore
@testable import TipcatCatalog

/// lint.json as a file: malformed input gives located errors (never a crash), and "rules" levels.
@Suite struct LintConfigurationTests {
    static let catalogJSON = """
        {"name": "T", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en"]}
        """

    static func load(_ lint: String, files: [String: String] = [:], knownRuleIDs: Set<String>? = CatalogLoader.builtInRuleIDs) -> LoadResult {
        var all = ["cat/catalog.json": catalogJSON, "cat/tips/A.json": #"{"id": "A", "title": "A free tip"}"#, "cat/lint.json": lint]
        for (path, text) in files { all["cat/" + path] = text }
        return CatalogLoader(fileSystem: InMemoryFileSystem(files: all), knownRuleIDs: knownRuleIDs).load(directory: "cat")
    }

    /// The findings located in lint.json, as text.
    static func lintFindings(_ result: LoadResult) -> [String] {
        result.diagnostics.filter { $0.location?.file == "cat/lint.json" }.map(\.description)
    }

    static func content(_ rule: String) -> String { "{\"content\": [\(rule)]}" }

    // MARK: malformed files

    @Test(arguments: [
        // (lint.json, the one finding expected in it)
        ("[]", "cat/lint.json:1:1: error: lint.json must be a JSON object, found an array [wrong-type]"),
        (#"{"content": {}}"#, "cat/lint.json:1:13: error: 'content' in lint.json must be an array, found an object [wrong-type]"),
        (#"{"rulez": {}}"#, "cat/lint.json:1:2: error: unknown key 'rulez' in lint.json; did you mean 'rules'? [unknown-key]"),
        (#"{"rules": [], "content": []}"#, "cat/lint.json:1:11: error: 'rules' in lint.json must be an object, found an array [wrong-type]"),
        (#"{"content": [{"id": "x", "tokens": ["a"]}]}"#, "cat/lint.json:1:14: error: missing required key 'kind' in a content rule [missing-key]"),
        (#"{"content": [{"id": "x", "kind": "existance", "tokens": ["a"]}]}"#,
         "cat/lint.json:1:34: error: 'kind' in a content rule must be one of 'existence', 'substitution', 'capitalization', 'length', 'punctuation', found 'existance'; did you mean 'existence'? [invalid-value]"),
        (#"{"content": [{"id": "x", "kind": "existence", "tokens": ["a"], "tokns": ["b"]}]}"#,
         "cat/lint.json:1:64: error: unknown key 'tokns' in a content rule; did you mean 'tokens'? [unknown-key]"),
        (#"{"content": [{"id": "x", "kind": "existence", "tokens": "free"}]}"#,
         "cat/lint.json:1:57: error: 'tokens' in content rule 'x' must be an array, found a string [wrong-type]"),
        (#"{"content": [{"id": "x", "kind": "existence", "tokens": ["a", 3]}]}"#,
         "cat/lint.json:1:63: error: 'tokens' in content rule 'x' must hold non-empty strings, found a number [wrong-type]"),
        (#"{"content": [{"id": "x", "kind": "existence", "tokens": ["a"], "ignoreCase": "yes"}]}"#,
         "cat/lint.json:1:78: error: 'ignoreCase' in content rule 'x' must be true or false, found a string [wrong-type]"),
        (#"{"content": [{"id": "x", "kind": "existence", "tokens": ["("], "regex": true}]}"#,
         "cat/lint.json:1:58: error: '(' in content rule 'x' is not a valid regular expression: "),
        (#"{"content": [{"id": "x", "kind": "existence", "tokens": ["!!"]}]}"#,
         "cat/lint.json:1:58: error: '!!' in content rule 'x' has no letters or digits"),
        (#"{"content": [{"id": "x", "kind": "length", "max": -3}]}"#,
         "cat/lint.json:1:51: error: 'max' in content rule 'x' must be at least 1, found -3 [out-of-range]"),
        (#"{"content": [{"id": "x", "kind": "length", "max": 3.5}]}"#,
         "cat/lint.json:1:51: error: 'max' in content rule 'x' must be a whole number, found 3.5 [wrong-type]"),
        (#"{"content": [{"id": "x", "kind": "length", "max": 3, "maxByLocale": {"de": 0}}]}"#,
         "cat/lint.json:1:76: error: the limit for 'de' in content rule 'x' must be at least 1, found 0 [out-of-range]"),
        (#"{"content": [{"id": "x", "kind": "length", "max": 3, "maxByLocale": {"d e": 5}}]}"#,
         "cat/lint.json:1:70: error: 'd e' is not a locale identifier"),
        (#"{"content": [{"id": "x", "kind": "capitalization", "style": "camel"}]}"#,
         "cat/lint.json:1:61: error: 'style' in content rule 'x' must be one of 'title', 'sentence', found 'camel' [invalid-value]"),
        (#"{"content": [{"id": "x", "kind": "punctuation"}]}"#,
         "cat/lint.json:1:14: error: content rule 'x' needs 'forbidEnding' or 'forbid' [missing-key]"),
        (#"{"content": [{"id": "x", "kind": "substitution", "swap": {"a": 1}}]}"#,
         "cat/lint.json:1:64: error: the replacement for 'a' in content rule 'x' must be a non-empty string, found a number [wrong-type]"),
        (#"{"content": [{"id": "x", "kind": "substitution", "swap": {"a": "b", "a": "c"}}]}"#,
         "cat/lint.json:1:69: error: duplicate key 'a' in the swap of content rule 'x' [duplicate-key]"),
        (#"{"content": [{"id": "No Promotion", "kind": "existence", "tokens": ["a"]}]}"#,
         "cat/lint.json:1:21: error: 'No Promotion' is not a valid content rule id"),
        (#"{"content": [{"id": "x", "kind": "existence", "tokens": ["a"], "severity": "fatal"}]}"#,
         "cat/lint.json:1:76: error: 'severity' in content rule 'x' must be one of 'error', 'warning', 'note', found 'fatal' [invalid-value]"),
        (#"{"content": [{"id": "x", "kind": "existence", "tokens": ["a"], "scope": {"fields": ["titel"]}}]}"#,
         "cat/lint.json:1:85: error: the fields of content rule 'x' must be 'title', 'message', 'action', found 'titel'; did you mean 'title'? [invalid-value]"),
        (#"{"content": [{"id": "x", "kind": "existence", "tokens": ["a"], "scope": {"locales": []}}]}"#,
         "cat/lint.json:1:85: error: the scope of content rule 'x' lists no locales"),
        (#"{"content": [{"id": "x", "kind": "existence", "id": "y", "tokens": ["a"]}]}"#,
         "cat/lint.json:1:47: error: duplicate key 'id' in a content rule [duplicate-key]"),
        (#"{"content": [{"id": "orphan-translation", "kind": "existence", "tokens": ["a"]}]}"#,
         "cat/lint.json:1:21: error: content rule id 'orphan-translation' is the id of a built-in check; choose another id [duplicate-rule-id]"),
        (#"{"rules": {"file-name-mismatch": "of"}}"#,
         "cat/lint.json:1:34: error: the level of 'file-name-mismatch' must be one of 'off', 'note', 'warning', 'error', found 'of'; did you mean 'off'? [invalid-value]"),
        (#"{"rules": {"file-name-mismatch": false}}"#,
         "cat/lint.json:1:34: error: the level of 'file-name-mismatch' must be one of 'off', 'note', 'warning', 'error', found a boolean [wrong-type]"),
        (#"{"rules": {"file-name-mismatch": "off", "file-name-mismatch": "error"}}"#,
         "cat/lint.json:1:41: error: duplicate key 'file-name-mismatch' in 'rules' [duplicate-key]"),
        (#"{"content": [}"#, "cat/lint.json:1:14: error: "),
    ])
    func malformedLintFileIsOneLocatedError(lint: String, expected: String) {
        let result = Self.load(lint)
        let findings = Self.lintFindings(result)
        #expect(findings.count == 1, "\(findings)")
        #expect(findings.first?.hasPrefix(expected) == true, "\(findings)")
        #expect(findings.first.map { $0.contains(": error: ") } == true)
        // A broken rule is skipped; the rest of the catalog still loads.
        #expect(result.catalog.tip("A") != nil)
    }

    @Test func brokenJSONIsInvalidJSON() {
        let result = Self.load(#"{"content": [}"#)
        #expect(result.diagnostics.map(\.ruleID) == ["invalid-json"])
    }

    @Test func duplicateContentRuleIDPointsAtTheFirst() {
        let rule = #"{"id": "x", "kind": "existence", "tokens": ["a"]}"#
        let result = Self.load("{\"content\": [\(rule),\n\(rule)]}")
        #expect(Self.lintFindings(result) == ["cat/lint.json:2:8: error: content rule 'x' is declared twice [duplicate-rule-id]"])
        #expect(result.diagnostics.first?.notes.first?.location == SourceLocation(file: "cat/lint.json", line: 1, column: 21))
        #expect(result.catalog.lint.contentRules.count == 1)
    }

    // MARK: "rules" levels

    static let misnamedTip = ["tips/Old.json": #"{"id": "New", "title": "Hi"}"#]

    @Test func levelOffDropsFindings() {
        #expect(Self.load("{}", files: Self.misnamedTip).diagnostics.map(\.ruleID) == ["file-name-mismatch"])
        let off = Self.load(#"{"rules": {"file-name-mismatch": "off"}}"#, files: Self.misnamedTip)
        #expect(off.diagnostics.isEmpty, "\(off.diagnostics)")
    }

    @Test func levelsRegradeBuiltInLoaderAndContentFindings() {
        let lint = """
            {"rules": {"file-name-mismatch": "error", "wrong-type": "note", "no-free": "error"},
             "content": [{"id": "no-free", "kind": "existence", "tokens": ["free"], "severity": "note"}]}
            """
        let result = Self.load(lint, files: Self.misnamedTip.merging(["tips/B.json": #"{"id": "B", "title": "Hi", "image": 3}"#]) { a, _ in a },
                               knownRuleIDs: nil)
        let severities = Dictionary(result.diagnostics.map { ($0.ruleID, $0.severity) }, uniquingKeysWith: { a, _ in a })
        #expect(severities == ["file-name-mismatch": .error, "wrong-type": .note, "no-free": .error], "\(result.diagnostics)")
    }

    @Test func unknownRuleIDIsALocatedWarningWithASuggestion() {
        let result = Self.load(#"{"rules": {"file-name-mismach": "off", "acme/house-style": "error"}}"#)
        #expect(Self.lintFindings(result) == [
            "cat/lint.json:1:12: warning: 'rules' names 'file-name-mismach', which is not the id of any check; did you mean 'file-name-mismatch'? [unknown-rule]",
        ])
        // Content rule ids are known too; nil known ids skip the check.
        #expect(Self.lintFindings(Self.load(#"{"rules": {"x": "off"}, "content": [{"id": "x", "kind": "length", "max": 9}]}"#)).isEmpty)
        #expect(Self.lintFindings(Self.load(#"{"rules": {"anything": "off"}}"#, knownRuleIDs: nil)).isEmpty)
    }

    @Test func invalidJSONCannotBeConfigured() {
        let result = Self.load(#"{"rules": {"invalid-json": "off"}}"#, files: ["tips/B.json": "{"])
        #expect(result.diagnostics.map(\.description).contains(
            "cat/lint.json:1:12: error: 'invalid-json' cannot be turned off or re-graded: a file that cannot be read must always be reported [rule-not-configurable]"))
        #expect(result.diagnostics.contains { $0.ruleID == "invalid-json" && $0.severity == .error })
    }

    @Test func lintFileFindingsCannotBeHiddenByItsOwnLevels() {
        // "wrong-type": "off" hides wrong types in tips, never in lint.json itself; lint.json's own ids are locked.
        let lint = #"{"rules": {"wrong-type": "off", "unknown-rule": "off"}, "content": [{"id": "x", "kind": "length", "max": "9"}]}"#
        let result = Self.load(lint, files: ["tips/B.json": #"{"id": "B", "title": "Hi", "image": 3}"#])
        // "wrong-type" is unknown to the default registry, so its unknown-rule warning stays too.
        #expect(result.diagnostics.map(\.ruleID) == ["unknown-rule", "rule-not-configurable", "wrong-type"], "\(result.diagnostics)")
        #expect(result.diagnostics.allSatisfy { $0.location?.file == "cat/lint.json" })
        #expect(result.diagnostics[1].message == "'unknown-rule' cannot be turned off or re-graded: it reports problems in lint.json itself, which must always be reported")
    }

    @Test func applyIsPublicForLaterFindings() {
        let configuration = LintConfiguration(levels: ["acme/style": .error, "noise": .off, "invalid-json": .off], file: "cat/lint.json")
        let at = SourceLocation(file: "cat/tips/A.json", line: 1, column: 1)
        let findings: [Diagnostic] = [
            Diagnostic(.warning, "plugin", rule: "acme/style", at: at), Diagnostic(.warning, "noise", rule: "noise", at: at),
            Diagnostic(.error, "broken", rule: "invalid-json", at: at), Diagnostic(.warning, "own", rule: "noise", at: SourceLocation(file: "cat/lint.json", line: 1, column: 1)),
        ]
        let applied = configuration.apply(to: findings)
        #expect(applied.map(\.message) == ["plugin", "broken", "own"])
        #expect(applied.map(\.severity) == [.error, .error, .warning])
    }
}
