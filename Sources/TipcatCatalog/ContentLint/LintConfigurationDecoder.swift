import TipcatCore
import TipcatJSON
import TipcatLocalization

/// Decodes `lint.json`; every problem is a located diagnostic and a broken rule is skipped, never a crash.
struct LintConfigurationDecoder {
    let document: JSONDocument
    let sink: DiagnosticSink
    /// Ids `"rules"` may name (nil: any id); content rule ids and ids with a `/` (plugins) are always known.
    let knownRuleIDs: Set<String>?

    static let commonKeys = ["id", "kind", "severity", "message", "scope", "enabled", "description"]
    static let kindKeys: [(String, [String])] = [
        ("existence", ["tokens", "ignoreCase", "regex"]),
        ("substitution", ["swap", "ignoreCase", "regex"]),
        ("capitalization", ["style", "exceptions"]),
        ("length", ["max", "maxByLocale"]),
        ("punctuation", ["forbidEnding", "forbid"]),
    ]

    func decode() -> LintConfiguration {
        var configuration = LintConfiguration(file: document.source.path)
        guard let root = ObjectReader(document.root, in: document, subject: "lint.json", sink: sink) else { return configuration }
        root.checkKeys(["rules", "content"])
        if let (elements, _) = root.array("content") {
            var seen: [String: SourceLocation] = [:]
            for element in elements {
                guard let rule = contentRule(element) else { continue }
                if let first = seen[rule.id] {
                    sink.report("content rule '\(rule.id)' is declared twice", rule: .duplicateRuleID,
                               at: rule.location, notes: [.init("first declared here", at: first)])
                    continue
                }
                if let knownRuleIDs, knownRuleIDs.contains(rule.id) {
                    sink.report("content rule id '\(rule.id)' is the id of a built-in check; choose another id",
                               rule: .duplicateRuleID, at: rule.location)
                    continue
                }
                seen[rule.id] = rule.location
                configuration.contentRules.append(rule)
            }
        }
        if let (object, _) = root.objectNode("rules") {
            configuration.levels = levels(object, contentIDs: Set(configuration.contentRules.map(\.id)))
        }
        return configuration
    }

    // MARK: "rules"

    private func levels(_ object: JSONObject, contentIDs: Set<String>) -> [String: LintConfiguration.Level] {
        var levels: [String: LintConfiguration.Level] = [:]
        var seen: [String: Int] = [:]
        let names = LintConfiguration.Level.allCases.map(\.rawValue)
        for member in object.members {
            let keyLocation = document.location(ofByte: member.keyOffset)
            if let first = seen[member.key] {
                sink.report("duplicate key '\(member.key)' in 'rules'", rule: .duplicateKey, at: keyLocation,
                           notes: [.init("first written here", at: document.location(ofByte: first))])
                continue
            }
            seen[member.key] = member.keyOffset
            guard case .string(let text) = member.value.value else {
                sink.report("the level of '\(member.key)' must be one of \(names.map { "'\($0)'" }.joined(separator: ", ")), found \(member.value.value.kindDescription)",
                           rule: .wrongType, at: document.location(of: member.value))
                continue
            }
            guard let level = LintConfiguration.Level(rawValue: text) else {
                sink.report("the level of '\(member.key)' must be one of \(names.map { "'\($0)'" }.joined(separator: ", ")), found '\(text)'"
                           + Suggestions.didYouMean(text, in: names),
                           rule: .invalidValue, at: document.location(of: member.value))
                continue
            }
            if LintConfiguration.lockedRuleIDs.contains(member.key) {
                let reason = member.key == "invalid-json" ? "a file that cannot be read must always be reported"
                    : "it reports problems in lint.json itself, which must always be reported"
                sink.report("'\(member.key)' cannot be turned off or re-graded: \(reason)",
                           rule: .ruleNotConfigurable, at: keyLocation)
                continue
            }
            if let knownRuleIDs, !member.key.contains("/"), !knownRuleIDs.contains(member.key), !contentIDs.contains(member.key) {
                sink.report("'rules' names '\(member.key)', which is not the id of any check"
                             + Suggestions.didYouMean(member.key, in: knownRuleIDs.union(contentIDs)),
                             rule: .unknownRule, at: keyLocation)
            }
            levels[member.key] = level
        }
        return levels
    }

    // MARK: "content"

    private func contentRule(_ node: JSONNode) -> ContentRule? {
        guard let reader = ObjectReader(node, in: document, subject: "a content rule", sink: sink) else { return nil }
        let kindNames = Self.kindKeys.map(\.0)
        // An unknown kind is reported once (with a did-you-mean); its keys are then checked against every kind's.
        let kind = reader.choice("kind", kindNames.map { ($0, $0) }, required: true)
        let specific = Self.kindKeys.first { $0.0 == kind }?.1 ?? Self.kindKeys.flatMap(\.1)
        reader.checkKeys(Self.commonKeys + specific)
        _ = reader.string("description")
        guard let (id, idNode) = reader.string("id", required: true) else { return nil }
        let location = document.location(of: idNode)
        guard IdentifierSyntax.isKebabIdentifier(id) else {
            sink.report("'\(id)' is not a valid content rule id; use letters, digits and single dashes (e.g. 'no-promotion')",
                       rule: .invalidName, at: location)
            return nil
        }
        let subject = "content rule '\(id)'"
        guard let rule = ObjectReader(node, in: document, subject: subject, sink: sink) else { return nil }
        let severity = rule.choice("severity", [("error", Severity.error), ("warning", .warning), ("note", .note)]) ?? .warning
        let message = rule.string("message")?.value
        let enabled = rule.bool("enabled") ?? true
        let scope = self.scope(rule, subject: subject)
        let decoded: ContentRule.Kind?
        switch kind {
        case "existence": decoded = existence(rule)
        case "substitution": decoded = substitution(rule)
        case "capitalization": decoded = capitalization(rule)
        case "length": decoded = length(rule)
        case "punctuation": decoded = punctuation(rule)
        default: decoded = nil
        }
        guard let decoded, var scope else { return nil }
        // Capitalization styles are for titles and button titles unless the scope says otherwise.
        if case .capitalization = decoded, !hasFields(rule) { scope.fields = [.title, .action] }
        return ContentRule(id: id, kind: decoded, severity: severity, message: message, scope: scope, enabled: enabled, location: location)
    }

    private func hasFields(_ rule: ObjectReader) -> Bool {
        if case .object(let scope)? = rule.object["scope"]?.value { return scope["fields"] != nil }
        return false
    }

    /// The rule's scope (all fields and locales when absent); nil when it is invalid (reported).
    private func scope(_ rule: ObjectReader, subject: String) -> ContentRule.Scope? {
        if rule.object["scope"] == nil { return ContentRule.Scope() }
        guard let (_, node) = rule.objectNode("scope") else { return nil }
        guard let reader = ObjectReader(node, in: document, subject: "the scope of \(subject)", sink: sink) else { return nil }
        reader.checkKeys(["fields", "locales"])
        var scope = ContentRule.Scope()
        var valid = true
        if let (elements, arrayNode) = reader.array("fields") {
            let names = ContentRule.Field.allCases.map(\.rawValue)
            var fields = Set<ContentRule.Field>()
            for element in elements {
                guard case .string(let text) = element.value, let field = ContentRule.Field(rawValue: text) else {
                    let found = if case .string(let text) = element.value { "'\(text)'" + Suggestions.didYouMean(text, in: names) } else { element.value.kindDescription }
                    sink.report("the fields of \(subject) must be \(names.map { "'\($0)'" }.joined(separator: ", ")), found \(found)",
                               rule: .invalidValue, at: document.location(of: element))
                    valid = false
                    continue
                }
                fields.insert(field)
            }
            if elements.isEmpty {
                sink.report("the scope of \(subject) lists no fields", rule: .invalidValue, at: document.location(of: arrayNode))
                valid = false
            }
            scope.fields = fields
        }
        if let (elements, arrayNode) = reader.array("locales") {
            var locales: [LocaleID] = []
            for element in elements {
                guard let locale = self.locale(element, what: "the locales of \(subject)") else {
                    valid = false
                    continue
                }
                locales.append(locale)
            }
            if elements.isEmpty {
                sink.report("the scope of \(subject) lists no locales; remove 'locales' to check every locale",
                           rule: .invalidValue, at: document.location(of: arrayNode))
                valid = false
            }
            scope.locales = locales
        }
        return valid ? scope : nil
    }

    private func locale(_ node: JSONNode, what: String) -> LocaleID? {
        guard case .string(let text) = node.value else {
            sink.report("\(what) must be locale identifiers (strings), found \(node.value.kindDescription)", rule: .wrongType,
                       at: document.location(of: node))
            return nil
        }
        guard let locale = LocaleID(text) else {
            sink.report("'\(text)' is not a locale identifier; write a language code with an optional script and region, such as 'de' or 'zh-Hant'",
                       rule: .invalidLocale, at: document.location(of: node))
            return nil
        }
        return locale
    }

    /// A non-empty array of non-empty strings.
    private func strings(_ rule: ObjectReader, _ key: String, required: Bool) -> [(String, JSONNode)]? {
        guard let (elements, arrayNode) = rule.array(key, required: required) else { return nil }
        var result: [(String, JSONNode)] = []
        var valid = true
        for element in elements {
            guard case .string(let text) = element.value, !text.isEmpty else {
                let found = if case .string = element.value { "an empty string" } else { element.value.kindDescription }
                sink.report("'\(key)' in \(rule.subject) must hold non-empty strings, found \(found)", rule: .wrongType,
                           at: document.location(of: element))
                valid = false
                continue
            }
            result.append((text, element))
        }
        if elements.isEmpty {
            sink.report("'\(key)' in \(rule.subject) is empty", rule: .invalidValue, at: document.location(of: arrayNode))
            return nil
        }
        return valid ? result : nil
    }

    /// Checks a token or swap pattern: a regular expression that compiles, or words that can be matched.
    private func checkPattern(_ text: String, node: JSONNode, regex: Bool, ignoreCase: Bool, subject: String) -> Bool {
        if regex {
            if let problem = PatternMatcher.compileError(text, ignoreCase: ignoreCase) {
                sink.report("'\(text)' in \(subject) is not a valid regular expression: \(problem)",
                           rule: .invalidRegex, at: document.location(of: node))
                return false
            }
            return true
        }
        if WordScanner.words(in: text).isEmpty {
            sink.report("'\(text)' in \(subject) has no letters or digits, so it can never match a whole word; use a punctuation rule or \"regex\": true",
                       rule: .invalidValue, at: document.location(of: node))
            return false
        }
        return true
    }

    private func existence(_ rule: ObjectReader) -> ContentRule.Kind? {
        let ignoreCase = rule.bool("ignoreCase") ?? true
        let regex = rule.bool("regex") ?? false
        guard let tokens = strings(rule, "tokens", required: true) else { return nil }
        var valid = true
        for (text, node) in tokens where !checkPattern(text, node: node, regex: regex, ignoreCase: ignoreCase, subject: rule.subject) {
            valid = false
        }
        return valid ? .existence(tokens: tokens.map(\.0), ignoreCase: ignoreCase, regex: regex) : nil
    }

    private func substitution(_ rule: ObjectReader) -> ContentRule.Kind? {
        let ignoreCase = rule.bool("ignoreCase") ?? true
        let regex = rule.bool("regex") ?? false
        guard let (object, node) = rule.objectNode("swap", required: true) else { return nil }
        guard !object.members.isEmpty else {
            sink.report("'swap' in \(rule.subject) is empty", rule: .invalidValue, at: document.location(of: node))
            return nil
        }
        var swaps: [ContentRule.Swap] = []
        var valid = true
        var seen: [String: Int] = [:]
        for member in object.members {
            let keyLocation = document.location(ofByte: member.keyOffset)
            if let first = seen[member.key] {
                sink.report("duplicate key '\(member.key)' in the swap of \(rule.subject)", rule: .duplicateKey, at: keyLocation,
                           notes: [.init("first written here", at: document.location(ofByte: first))])
                valid = false
                continue
            }
            seen[member.key] = member.keyOffset
            guard case .string(let expected) = member.value.value, !expected.isEmpty else {
                let found = if case .string = member.value.value { "an empty string" } else { member.value.value.kindDescription }
                sink.report("the replacement for '\(member.key)' in \(rule.subject) must be a non-empty string, found \(found)",
                           rule: .wrongType, at: document.location(of: member.value))
                valid = false
                continue
            }
            let keyNode = JSONNode(.string(member.key), offset: member.keyOffset)
            guard checkPattern(member.key, node: keyNode, regex: regex, ignoreCase: ignoreCase, subject: rule.subject) else {
                valid = false
                continue
            }
            swaps.append(ContentRule.Swap(member.key, expected))
        }
        return valid ? .substitution(swaps: swaps, ignoreCase: ignoreCase, regex: regex) : nil
    }

    private func capitalization(_ rule: ObjectReader) -> ContentRule.Kind? {
        let style = rule.choice("style", ContentRule.CapitalizationStyle.allCases.map { ($0.rawValue, $0) }, required: true)
        var exceptions: Set<String> = []
        if rule.object["exceptions"] != nil {
            guard let words = strings(rule, "exceptions", required: false) else { return nil }
            exceptions = Set(words.map(\.0))
        }
        return style.map { .capitalization(style: $0, exceptions: exceptions) }
    }

    private func length(_ rule: ObjectReader) -> ContentRule.Kind? {
        let max = rule.int("max", required: true, in: 1...Int.max)
        var byLocale: [LocaleID: Int] = [:]
        var valid = true
        if let (object, _) = rule.objectNode("maxByLocale") {
            for member in object.members {
                let keyNode = JSONNode(.string(member.key), offset: member.keyOffset)
                guard let locale = locale(keyNode, what: "the keys of 'maxByLocale' in \(rule.subject)") else {
                    valid = false
                    continue
                }
                if byLocale[locale] != nil {
                    sink.report("duplicate key '\(member.key)' in 'maxByLocale' of \(rule.subject)", rule: .duplicateKey,
                               at: document.location(ofByte: member.keyOffset))
                    valid = false
                    continue
                }
                guard case .number(let number) = member.value.value, let limit = number.intValue else {
                    sink.report("the limit for '\(member.key)' in \(rule.subject) must be a whole number, found \(member.value.value.kindDescription)",
                               rule: .wrongType, at: document.location(of: member.value))
                    valid = false
                    continue
                }
                guard limit >= 1 else {
                    sink.report("the limit for '\(member.key)' in \(rule.subject) must be at least 1, found \(limit)",
                               rule: .outOfRange, at: document.location(of: member.value))
                    valid = false
                    continue
                }
                byLocale[locale] = limit
            }
        } else if rule.object["maxByLocale"] != nil {
            valid = false
        }
        guard let max, valid else { return nil }
        return .length(max: max, maxByLocale: byLocale)
    }

    private func punctuation(_ rule: ObjectReader) -> ContentRule.Kind? {
        let hasEnding = rule.object["forbidEnding"] != nil
        let hasForbid = rule.object["forbid"] != nil
        guard hasEnding || hasForbid else {
            sink.report("\(rule.subject) needs 'forbidEnding' or 'forbid'", rule: .missingKey, at: rule.location)
            return nil
        }
        let endings = hasEnding ? strings(rule, "forbidEnding", required: false) : []
        let forbidden = hasForbid ? strings(rule, "forbid", required: false) : []
        guard let endings, let forbidden else { return nil }
        return .punctuation(forbidEnding: endings.map(\.0), forbid: forbidden.map(\.0))
    }
}
