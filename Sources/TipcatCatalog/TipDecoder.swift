import Synchronization
import TipcatCore
import TipcatJSON
import TipcatLocalization
import TipcatRules

/// Decodes one `tips/<TipID>.json` file and checks its messages and rules.
struct TipDecoder {
    let document: JSONDocument
    let sink: DiagnosticSink
    let environment: RuleEnvironment
    let messages: MessageChecker
    /// The rules the load's tips have had checked, shared by them.
    let ruleChecks: RuleCheckMemo

    static let keys = [
        "id", "customID", "title", "message", "image", "actions", "parameters", "rules", "options", "republish",
        "comment", "example", "platforms",
    ]

    /// What a tip's `platforms` entry may set.
    static let platformKeys = ["title", "message", "image", "actions"]

    func decode() -> Tip? {
        guard let reader = ObjectReader(document.root, in: document, subject: "a tip", sink: sink) else { return nil }
        reader.checkKeys(TipDecoder.keys)
        guard let (id, idNode) = reader.string("id", required: true) else { return nil }
        guard IdentifierSyntax.isTipIdentifier(id) else {
            sink.add(.invalidTipID(id, at: document.location(of: idNode)))
            return nil
        }
        let subject = "tip '\(id)'"
        let parameters = decodeParameters(reader, subject: subject)
        let scope = TipParameterScope(name: id, parameters: parameters)

        let title = text(reader, key: "title", textKey: "\(id).title", what: "the title of \(id)", scope: scope, required: true)
        let message = text(reader, key: "message", textKey: "\(id).message", what: "the message of \(id)", scope: scope)
        let customID = decodeCustomID(reader, id: id, scope: scope)
        let actions = decodeActions(reader, id: id, scope: scope)
        let rules = decodeRules(reader, id: id, parameters: parameters)
        let options = decodeOptions(reader, subject: subject)
        let republish = reader.choice("republish", RepublishPolicy.allCases.map { ($0.rawValue, $0) }) ?? .keep
        let image = decodeImage(reader, subject: subject)
        let example = decodeExample(reader, subject: subject, parameters: parameters)
        let platforms = decodePlatforms(reader, id: id, scope: scope)
        guard let title else { return nil }
        return Tip(
            id: TipID(id), customID: customID, title: title, message: message, image: image, actions: actions,
            parameters: parameters, rules: rules, options: options, republish: republish,
            comment: reader.string("comment")?.value, example: example, platforms: platforms, file: document.source.path,
            location: document.location(of: idNode))
    }

    private func decodeImage(_ reader: ObjectReader, subject: String) -> String? {
        guard let (name, node) = reader.string("image") else { return nil }
        if name.trimmingWhitespace().isEmpty {
            sink.add(.emptyImage(of: subject, at: document.location(of: node)))
            return nil
        }
        return name
    }

    /// `"platforms": {"mac": {"title"?, "message"?, "image"?, "actions"?}}`: each device's replacements, its texts
    /// under the String Catalog keys `<TipID>.<platform>.title`, `.message`, `.action.<actionID>`.
    private func decodePlatforms(_ reader: ObjectReader, id: String, scope: TipParameterScope) -> [Device: TipPlatformContent] {
        guard let (_, node) = reader.objectNode("platforms"),
              let platforms = ObjectReader(node, in: document, subject: "the platforms of tip '\(id)'", sink: sink)
        else { return [:] }
        platforms.checkKeys(platforms.object.members.map(\.key))  // duplicates only: unknown platforms are reported below
        var result: [Device: TipPlatformContent] = [:]
        for member in platforms.object.members {
            guard let device = Device(name: member.key) else {
                sink.add(.unknownPlatform(member.key, in: platforms.subject, at: document.location(ofByte: member.keyOffset)))
                continue
            }
            guard result[device] == nil else { continue }
            let subject = "the \(device.name) platform of tip '\(id)'"
            guard let platform = ObjectReader(member.value, in: document, subject: subject, sink: sink) else { continue }
            platform.checkKeys(Self.platformKeys)
            let prefix = "\(id).\(device.name)"
            var content = TipPlatformContent()
            content.title = text(platform, key: "title", textKey: "\(prefix).title", what: "the \(device.name) title of \(id)", scope: scope)
            content.message = text(platform, key: "message", textKey: "\(prefix).message", what: "the \(device.name) message of \(id)", scope: scope)
            content.image = decodeImage(platform, subject: subject)
            if platform.object["actions"] != nil {
                content.actions = decodeActions(platform, id: id, keyPrefix: prefix, scope: scope)
            }
            result[device] = content
        }
        return result
    }

    private func decodeParameters(_ reader: ObjectReader, subject: String) -> [ValueType.RecordField] {
        guard let (object, node) = reader.objectNode("parameters") else { return [] }
        ObjectReader(node, in: document, subject: "the parameters of \(subject)", sink: sink)?.checkDuplicateKeys()
        let types = TypeDecoder(document: document, sink: sink)
        var result: [ValueType.RecordField] = []
        for member in object.members {
            let location = document.location(ofByte: member.keyOffset)
            guard IdentifierSyntax.isIdentifier(member.key) else {
                sink.add(.invalidTipParameterName(member.key, in: subject, at: location))
                continue
            }
            if result.contains(where: { $0.name == member.key }) { continue }  // reported as duplicate-key
            if environment.appParameters[member.key] != nil {
                sink.add(.shadowedParameter(member.key, of: subject, at: location))
            }
            if let type = types.type(member.value, what: "parameter '\(member.key)' of \(subject)") {
                result.append(.init(member.key, type))
            }
        }
        return result
    }

    private func text(
        _ reader: ObjectReader, key: String, textKey: String, what: String, scope: TipParameterScope, required: Bool = false
    ) -> LocalizedText? {
        guard let (source, node) = reader.string(key, required: required) else { return nil }
        return localizedText(source, node: node, textKey: textKey, what: what, scope: scope)
    }

    private func localizedText(_ source: String, node: JSONNode, textKey: String, what: String, scope: TipParameterScope) -> LocalizedText {
        if source.trimmingWhitespace().isEmpty {
            sink.add(.emptyText(what, at: document.location(of: node)))
        }
        let message = messages.parse(source, node: node, in: document, what: what, sink: sink)
        if let message {
            messages.checkPlaceholders(message, node: node, in: document, tip: scope, what: what, sink: sink)
            messages.checkPluralCoverage(message, locale: messages.sourceLanguage, node: node, in: document, what: what, sink: sink)
        }
        return LocalizedText(key: textKey, source: source, message: message, location: document.location(of: node),
                             isVerbatim: document.isVerbatimString(node))
    }

    private func decodeCustomID(_ reader: ObjectReader, id: String, scope: TipParameterScope) -> LocalizedText? {
        guard let (template, node) = reader.string("customID") else { return nil }
        let what = "the custom ID of \(id)"
        guard let message = messages.parse(template, node: node, in: document, what: what, sink: sink, isDisplayed: false) else { return nil }
        messages.checkPlaceholders(message, node: node, in: document, tip: scope, what: what, sink: sink, absentIsEmpty: true)
        // The fixed text: what every instance's id holds whatever the parameters are.
        let fixedText = message.parts.reduce(into: "") { text, part in if case .text(let piece) = part { text += piece } }
        if message.placeholders.contains(where: { $0.kind != .value }) {
            sink.add(.invalidCustomID(what, at: document.location(of: node)))
        } else if fixedText.trimmingWhitespace().isEmpty {
            sink.add(.emptyCustomID(what, at: document.location(of: node)))
        } else if message.placeholders.isEmpty, template != id, environment.tipIDs.contains(template) {
            sink.add(.customIDIsATipID(what, tip: template, at: document.location(of: node)))
        } else if message.placeholders.isEmpty {
            sink.add(.constantCustomID(what, at: document.location(of: node)))
        }
        return LocalizedText(key: "\(id).customID", source: template, message: message, location: document.location(of: node))
    }

    /// `keyPrefix` starts the String Catalog keys of the titles (`<TipID>`, or `<TipID>.<platform>`).
    private func decodeActions(_ reader: ObjectReader, id: String, keyPrefix: String? = nil, scope: TipParameterScope) -> [TipAction] {
        guard let (elements, _) = reader.array("actions") else { return [] }
        var result: [TipAction] = []
        var seen: [String: SourceLocation] = [:]
        for element in elements {
            guard let action = ObjectReader(element, in: document, subject: "an action of \(id)", sink: sink) else { continue }
            action.checkKeys(["id", "title"])
            guard let (actionID, idNode) = action.string("id", required: true) else { continue }
            let location = document.location(of: idNode)
            guard IdentifierSyntax.isKebabIdentifier(actionID) else {
                sink.add(.invalidActionID(actionID, at: location))
                continue
            }
            if let first = seen[actionID] {
                sink.add(.duplicateAction(actionID, in: id, at: location, first: first))
                continue
            }
            seen[actionID] = location
            guard let (title, titleNode) = action.string("title", required: true) else { continue }
            let text = localizedText(title, node: titleNode, textKey: "\(keyPrefix ?? id).action.\(actionID)",
                                     what: "the title of action '\(actionID)' of \(keyPrefix ?? id)", scope: scope)
            result.append(TipAction(id: actionID, title: text))
        }
        return result
    }

    private func decodeRules(_ reader: ObjectReader, id: String, parameters: [ValueType.RecordField]) -> [TipRule] {
        guard let (elements, _) = reader.array("rules") else { return [] }
        var environment = self.environment
        environment.tipParameters = Dictionary(parameters.map { ($0.name, $0.type) }, uniquingKeysWith: { a, _ in a })
        var result: [TipRule] = []
        for element in elements {
            guard case .string(let text) = element.value else {
                sink.add(.ruleNotAString(of: id, found: element.value.kindDescription, at: document.location(of: element)))
                continue
            }
            let findings = ruleChecks.findings(text, in: environment)
            let locator = findings.isEmpty ? nil : JSONStringLocator(element, in: document)
            for finding in findings {
                sink.add(finding.diagnostic(at: locator?.location(atUTF8Offset: finding.range.lowerBound) ?? document.location(of: element),
                                            notes: finding.notes))
            }
            result.append(TipRule(source: text, location: document.location(of: element)))
        }
        return result
    }

    private func decodeOptions(_ reader: ObjectReader, subject: String) -> TipOptions {
        guard let (_, node) = reader.objectNode("options"),
              let options = ObjectReader(node, in: document, subject: "the options of \(subject)", sink: sink)
        else { return TipOptions() }
        options.checkKeys(["maxDisplayCount", "maxDisplayDuration", "ignoresDisplayFrequency"])
        return TipOptions(
            maxDisplayCount: options.int("maxDisplayCount", in: CatalogLimits.counts),
            maxDisplayDuration: options.duration("maxDisplayDuration"),
            ignoresDisplayFrequency: options.bool("ignoresDisplayFrequency") ?? false)
    }

    private func decodeExample(_ reader: ObjectReader, subject: String, parameters: [ValueType.RecordField]) -> [String: Value]? {
        guard let (object, _) = reader.objectNode("example") else { return nil }
        let types = TypeDecoder(document: document, sink: sink)
        var values: [String: Value] = [:]
        for member in object.members {
            guard let parameter = parameters.first(where: { $0.name == member.key }) else {
                sink.report("the example of \(subject) sets '\(member.key)', which is not a parameter of the tip"
                            + Suggestions.didYouMean(member.key, in: parameters.map(\.name)),
                            rule: .unknownParameter, at: document.location(ofByte: member.keyOffset))
                continue
            }
            if let value = types.value(member.value, of: parameter.type, what: "example value '\(member.key)' of \(subject)") {
                values[member.key] = value
            }
        }
        return values
    }
}

/// The findings of checking rules, by rule text and the tip's parameters, shared by the tips one load decodes on every
/// core. A check is a function of the text and its environment, which besides the tip's parameters is the catalog's
/// (its app parameters, events and tip IDs): catalogs repeat rules across tips (`#appOpened.count >= 3`, a flag), and
/// each is parsed and checked once per parameter set instead of once per tip. Findings are relative to the rule's
/// text; each tip locates them in its own file.
final class RuleCheckMemo: Sendable {
    private struct Key: Hashable {
        let text: String
        let parameters: [String: ValueType]
    }

    private let checked = Mutex<[Key: [RuleDiagnostic]]>([:])

    /// `RuleChecker.check(text, in: environment).diagnostics`, made once for each text and set of tip parameters;
    /// `environment` is otherwise the same for every call.
    func findings(_ text: String, in environment: RuleEnvironment) -> [RuleDiagnostic] {
        let key = Key(text: text, parameters: environment.tipParameters)
        if let known = checked.withLock({ $0[key] }) { return known }
        let findings = RuleChecker.check(text, in: environment).diagnostics
        checked.withLock { $0[key] = findings }
        return findings
    }
}
