import TipcatCatalog
import TipcatCore
import TipcatLocalization
import TipcatRules

/// Parses script lines into steps, checking names and values against the catalog. Never stops at the first
/// problem: each bad line gets a diagnostic with its line and column, and parsing goes on.
struct SimulationParser {
    struct Problem: Error {
        var message: String
        var rule: DiagnosticRule
        var offset: Int
    }

    typealias Word = SimulationLexer.Word

    static let commands = [
        "at", "advance", "repeat", "configure", "env", "donate", "set", "register", "displayed", "hidden", "dismiss",
        "invalidate", "reset-eligibility", "delete-donations", "restart", "expect", "action", "should-display",
    ]

    let source: SourceFile
    let catalog: Catalog
    var diagnostics: [Diagnostic] = []

    init(source: SourceFile, catalog: Catalog) {
        self.source = source
        self.catalog = catalog
    }

    mutating func parse() -> [SimulationStep] {
        var steps: [SimulationStep] = []
        let bytes = source.bytes.array
        for line in 0..<source.lineCount {
            let start = source.lineStart(line)
            var end = line + 1 < source.lineCount ? source.lineStart(line + 1) - 1 : bytes.count
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            do throws(Problem) {
                let words: [Word]
                do throws(SimulationLexer.Failure) {
                    words = try SimulationLexer.words(bytes, start..<end)
                } catch {
                    throw Problem(message: error.message, rule: .simulateSyntax, offset: error.offset)
                }
                guard !words.isEmpty else { continue }
                steps.append(try step(words[...]))
            } catch {
                diagnostics.append(Diagnostic(error.message, rule: error.rule, at: source.location(ofByte: error.offset)))
            }
        }
        return steps
    }

    // MARK: Steps

    func step(_ line: ArraySlice<Word>) throws(Problem) -> SimulationStep {
        guard let first = line.first, let last = line.last else {
            throw Problem(message: "empty line", rule: .simulateSyntax, offset: 0)
        }
        let end = max(first.offset, last.end)
        let text = String(decoding: source.bytes[first.offset..<end], as: UTF8.self)
        var words = line
        var at: Timestamp?
        if first.text == "at" {
            let word = try argument(words, 1, "a time such as 2026-01-01T09:00")
            guard let time = Timestamp(iso8601: word.text) else {
                throw Problem(message: "expected a time such as 2026-01-01T09:00, found '\(word.text)'", rule: .invalidValue, offset: word.offset)
            }
            at = time
            words = words.dropFirst(2)
        }
        var count = 1
        if words.first?.text == "repeat" {
            let word = try argument(words, 1, "a count")
            guard let number = Int(word.text), (1...100_000).contains(number) else {
                throw Problem(message: "expected a count from 1 to 100000, found '\(word.text)'", rule: .invalidValue, offset: word.offset)
            }
            count = number
            words = words.dropFirst(2)
            guard !words.isEmpty else {
                throw Problem(message: "expected a command after 'repeat \(number)'", rule: .simulateSyntax, offset: end)
            }
        }
        let command: SimulationCommand = words.isEmpty ? .clock : try self.command(words)
        return SimulationStep(location: source.location(ofByte: first.offset), text: text, at: at, count: count, command: command)
    }

    func command(_ words: ArraySlice<Word>) throws(Problem) -> SimulationCommand {
        guard let keyword = words.first else { return .clock }
        let start = words.startIndex
        switch keyword.text {
        case "advance":
            let word = try argument(words, 1, "a duration such as 7d")
            try noMore(words, after: 1)
            guard let span = TimeSpan(word.text), span.seconds > 0, span <= EngineCore.longestSpan else {
                throw Problem(message: "expected a duration such as 30m, 2h or 7d (at most 100 years), found '\(word.text)'",
                              rule: .invalidValue, offset: word.offset)
            }
            return .advance(span)
        case "configure":
            return .configure(try settings(words.dropFirst()))
        case "env":
            let word = try argument(words, 1, "NAME=VALUE")
            try noMore(words, after: 1)
            let (name, value, _) = try assignment(word)
            let known = TipOverrides.Variable.allCases.map(\.rawValue)
            if name.hasPrefix("TIPCAT_"), !known.contains(name) {
                throw Problem(message: "the engine reads no variable \(name); it reads " + known.joined(separator: ", ")
                              + Suggestions.didYouMean(name, in: known), rule: .unknownCommand, offset: word.offset)
            }
            return .environment(name: name, value: SimulationLexer.unquote(value) ?? value)
        case "donate":
            let (event, declaration) = try self.event(try argument(words, 1, "an event"))
            var values: [String: Value] = [:]
            for word in words.dropFirst(2) {
                let (name, text, offset) = try assignment(word)
                guard let type = declaration.field(name) else {
                    let hint = declaration.fields.isEmpty ? "; #\(event) has no fields"
                        : Suggestions.didYouMean(name, in: declaration.fields.map(\.name))
                    throw Problem(message: "unknown field '\(name)' of \(event)\(hint)", rule: .unknownField, offset: word.offset)
                }
                values[name] = try value(text, as: type, at: offset)
            }
            return .donate(event, values)
        case "set":
            let word = try argument(words, 1, "a parameter")
            guard let parameter = catalog.parameter(ParameterName(word.text)) else {
                throw Problem(message: "unknown parameter '\(word.text)'"
                              + Suggestions.didYouMean(word.text, in: catalog.parameters.map(\.name.rawValue)),
                              rule: .unknownParameter, offset: word.offset)
            }
            let valueWord = try argument(words, 2, "a value")
            try noMore(words, after: 2)
            return .set(parameter.name, try value(valueWord.text, as: parameter.type, at: valueWord.offset))
        case "register":
            let word = try argument(words, 1, "a tip")
            guard let tip = catalog.tip(TipID(word.text)) else {
                throw unknownTip(word)
            }
            var values: [String: Value] = [:]
            for word in words.dropFirst(2) {
                let (path, text, offset) = try assignment(word)
                guard let type = tip.parameterType(atPath: path) else {
                    throw Problem(message: "\(tip.id) has no parameter '\(path)'"
                                  + Suggestions.didYouMean(path, in: tip.parameters.map(\.name)),
                                  rule: .unknownParameter, offset: word.offset)
                }
                let parsed = try value(text, as: type, at: offset)
                SimulationParser.insert(parsed, at: path.split(separator: ".").map(String.init)[...], into: &values)
            }
            return .register(tip.id, values)
        case "displayed", "hidden", "dismiss", "reset-eligibility":
            let name = try tipName(try argument(words, 1, "a tip"))
            try noMore(words, after: 1)
            switch keyword.text {
            case "displayed": return .displayed(name)
            case "hidden": return .hidden(name)
            case "dismiss": return .invalidate(name, .tipClosed)
            default: return .resetEligibility(name)
            }
        case "invalidate":
            let name = try tipName(try argument(words, 1, "a tip"))
            let word = try argument(words, 2, "a reason (actionPerformed, tipClosed, …)")
            try noMore(words, after: 2)
            guard let reason = TipInvalidationReason(rawValue: word.text) else {
                let names = TipInvalidationReason.allCases.map(\.rawValue)
                throw Problem(message: "unknown reason '\(word.text)'; use one of " + names.joined(separator: ", ")
                              + Suggestions.didYouMean(word.text, in: names), rule: .invalidValue, offset: word.offset)
            }
            return .invalidate(name, reason)
        case "action":
            let name = try tipName(try argument(words, 1, "a tip"))
            let word = try argument(words, 2, "one of the tip's action ids")
            try noMore(words, after: 2)
            if let tip = catalog.tip(TipID(name.id.rawValue)) {
                let actions = tip.actions.map(\.id)
                guard actions.contains(word.text) else {
                    throw Problem(message: "\(tip.id) has no action '\(word.text)'"
                                  + (actions.isEmpty ? "; it has no actions" : Suggestions.didYouMean(word.text, in: actions)),
                                  rule: .invalidValue, offset: word.offset)
                }
            }
            return .action(name, word.text)
        case "should-display":
            let name = try tipName(try argument(words, 1, "a tip"))
            try noMore(words, after: 1)
            return .shouldDisplay(name)
        case "delete-donations":
            let (event, _) = try self.event(try argument(words, 1, "an event"))
            try noMore(words, after: 1)
            return .deleteDonations(event)
        case "restart":
            try noMore(words, after: 0)
            return .restart
        case "expect":
            return try expectation(words)
        default:
            let hint = keyword.text.hasPrefix("#") ? "" : Suggestions.didYouMean(keyword.text, in: SimulationParser.commands)
            throw Problem(message: "unknown command '\(keyword.text)'\(hint)", rule: .unknownCommand, offset: words[start].offset)
        }
    }

    func expectation(_ words: ArraySlice<Word>) throws(Problem) -> SimulationCommand {
        let what = try argument(words, 1, "next, status or explain")
        switch what.text {
        case "next":
            var position = 2
            var group: GroupID?
            if words.count > 2, words[words.startIndex + 2].text == "--group" {
                let word = try argument(words, 3, "a group")
                guard catalog.group(GroupID(word.text)) != nil else {
                    throw Problem(message: "unknown group '\(word.text)'"
                                  + Suggestions.didYouMean(word.text, in: catalog.groups.map(\.id.rawValue)),
                                  rule: .unknownGroup, offset: word.offset)
                }
                group = GroupID(word.text)
                position = 4
            }
            let word = try argument(words, position, "a tip or none")
            try noMore(words, after: position)
            return .expectNext(group: group, word.text == "none" ? nil : try tipName(word))
        case "status":
            let name = try tipName(try argument(words, 2, "a tip"))
            let word = try argument(words, 3, "a status")
            try noMore(words, after: 3)
            guard let status = TipStatus(word.text) else {
                throw Problem(message: "expected pending, available or invalidated(REASON), found '\(word.text)'",
                              rule: .invalidValue, offset: word.offset)
            }
            return .expectStatus(name, status)
        case "explain":
            let name = try tipName(try argument(words, 2, "a tip"))
            let word = try argument(words, 3, "the text to find, in quotes")
            try noMore(words, after: 3)
            return .expectExplanation(name, contains: SimulationLexer.unquote(word.text) ?? word.text)
        default:
            throw Problem(message: "unknown expectation '\(what.text)'; use next, status or explain"
                          + Suggestions.didYouMean(what.text, in: ["next", "status", "explain"]),
                          rule: .unknownCommand, offset: what.offset)
        }
    }

    func settings(_ words: ArraySlice<Word>) throws(Problem) -> SimulationSettings {
        var settings = SimulationSettings()
        let keys = ["frequency", "locale", "time-zone", "show-tips", "hide-tips", "show-all", "hide-all", "reset-datastore"]
        for word in words {
            switch word.text {
            case "show-all": settings.overrides.showAllTips = true
            case "hide-all": settings.overrides.hideAllTips = true
            case "reset-datastore": settings.resetDatastore = true
            default:
                let (key, text, offset) = try assignment(word)
                switch key {
                case "frequency":
                    if let named = DisplayFrequency.namedCases.first(where: { $0.0 == text }) {
                        settings.displayFrequency = named.1
                    } else if let span = TimeSpan(text), span <= EngineCore.longestSpan {
                        settings.displayFrequency = .custom(span)
                    } else {
                        throw Problem(message: "expected immediate, hourly, daily, weekly, monthly or a duration, found '\(text)'",
                                      rule: .invalidValue, offset: offset)
                    }
                case "time-zone":
                    guard let seconds = RuleTimeZone.offsetSeconds(parsing: text) else {
                        throw Problem(message: "expected a UTC offset such as UTC, +02:00 or -05:30, found '\(text)'",
                                      rule: .invalidValue, offset: offset)
                    }
                    settings.timeZoneOffset = seconds
                case "locale":
                    guard let locale = LocaleID(text) else {
                        throw Problem(message: "'\(text)' is not a locale such as en or fr-CA", rule: .invalidValue, offset: offset)
                    }
                    settings.locale = locale
                case "show-tips", "hide-tips":
                    var names = Set<String>()
                    for part in SimulationLexer.splitList(text) where !part.text.isEmpty {
                        let start = offset + part.offset
                        names.insert(try tipName(Word(text: part.text, offset: start, end: start + part.text.utf8.count)).id.rawValue)
                    }
                    if key == "show-tips" { settings.overrides.showTips.formUnion(names) } else { settings.overrides.hideTips.formUnion(names) }
                default:
                    throw Problem(message: "unknown setting '\(key)'" + Suggestions.didYouMean(key, in: keys), rule: .unknownCommand, offset: word.offset)
                }
            }
        }
        return settings
    }

    // MARK: Words

    /// The word at `position` after the command word, or a problem saying what was expected.
    func argument(_ words: ArraySlice<Word>, _ position: Int, _ what: String) throws(Problem) -> Word {
        let index = words.startIndex + position
        if index < words.endIndex { return words[index] }
        let last = words.last?.end ?? 0
        let after = words.last.map { " after '\($0.text)'" } ?? ""
        throw Problem(message: "expected \(what)\(after)", rule: .simulateSyntax, offset: last)
    }

    func noMore(_ words: ArraySlice<Word>, after position: Int) throws(Problem) {
        let index = words.startIndex + position + 1
        guard index < words.endIndex else { return }
        throw Problem(message: "unexpected '\(words[index].text)'", rule: .simulateSyntax, offset: words[index].offset)
    }

    /// `name=value`: the name, the value's text and the value's byte offset.
    func assignment(_ word: Word) throws(Problem) -> (String, String, Int) {
        let bytes = Array(word.text.utf8)
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")), equals > 0 else {
            throw Problem(message: "expected name=value, found '\(word.text)'", rule: .simulateSyntax, offset: word.offset)
        }
        return (String(decoding: bytes[..<equals], as: UTF8.self), String(decoding: bytes[(equals + 1)...], as: UTF8.self),
                word.offset + equals + 1)
    }

    func value(_ text: String, as type: ValueType, at offset: Int) throws(Problem) -> Value {
        do throws(SimulationLexer.Failure) {
            return try SimulationValues.parse(text, as: type)
        } catch {
            throw Problem(message: error.message, rule: .invalidValue, offset: offset + error.offset)
        }
    }

    func event(_ word: Word) throws(Problem) -> (EventID, EventDeclaration) {
        let name = word.text.hasPrefix("#") ? String(word.text.dropFirst()) : word.text
        guard let declaration = catalog.event(EventID(name)) else {
            throw Problem(message: "unknown event '\(name)'" + Suggestions.didYouMean(name, in: catalog.events.map(\.id.rawValue)),
                          rule: .unknownEvent, offset: word.offset)
        }
        return (declaration.id, declaration)
    }

    /// A tip id, or a custom ID (it starts with the fixed prefix of a tip's custom-ID template).
    func tipName(_ word: Word) throws(Problem) -> SimulationTipName {
        let location = source.location(ofByte: word.offset)
        if catalog.tip(TipID(word.text)) != nil { return SimulationTipName(TipInstanceID(word.text), at: location) }
        for tip in catalog.tips {
            if let template = tip.customID?.message, case .text(let prefix)? = template.parts.first,
               !prefix.isEmpty, word.text.hasPrefix(prefix) {
                return SimulationTipName(TipInstanceID(word.text), at: location)
            }
        }
        throw unknownTip(word)
    }

    func unknownTip(_ word: Word) -> Problem {
        Problem(message: "unknown tip '\(word.text)'" + Suggestions.didYouMean(word.text, in: catalog.tips.map(\.id.rawValue)),
                rule: .unknownTip, offset: word.offset)
    }

    /// Puts `value` at a dotted path, creating records on the way.
    static func insert(_ value: Value, at path: ArraySlice<String>, into values: inout [String: Value]) {
        guard let first = path.first else { return }
        if path.count == 1 {
            values[first] = value
            return
        }
        var inner: [String: Value] = [:]
        if case .record(let existing)? = values[first] { inner = existing }
        insert(value, at: path.dropFirst(), into: &inner)
        values[first] = .record(inner)
    }
}
