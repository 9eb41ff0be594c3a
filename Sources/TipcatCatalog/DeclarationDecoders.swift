import TipcatCore
import TipcatJSON
import TipcatLocalization

/// Decodes `catalog.json`.
struct SettingsDecoder {
    let document: JSONDocument
    let sink: DiagnosticSink

    func decode() -> CatalogSettings? {
        guard let reader = ObjectReader(document.root, in: document, subject: "catalog.json", sink: sink) else { return nil }
        reader.checkKeys(["name", "schemaVersion", "sourceLanguage", "supportedLocales", "displayFrequency", "enabled"])
        let name = reader.string("name", required: true)?.value ?? ""
        var schemaVersion = CatalogSettings.currentSchemaVersion
        if let version = reader.int("schemaVersion", required: true) {
            if version != CatalogSettings.currentSchemaVersion, let node = reader.object["schemaVersion"] {
                sink.add(.unsupportedSchemaVersion(
                    version, supported: CatalogSettings.currentSchemaVersion, at: document.location(of: node)))
            }
            schemaVersion = version
        }
        var sourceLanguage: LocaleID? = LocaleID.english
        if let (text, node) = reader.string("sourceLanguage", required: true) {
            sourceLanguage = locale(text, node)
        }
        var supported: [LocaleID] = []
        if let (elements, _) = reader.array("supportedLocales", required: true) {
            for element in elements {
                guard case .string(let text) = element.value else {
                    sink.add(.localeNotAString(found: element.value.kindDescription, at: document.location(of: element)))
                    continue
                }
                guard let locale = locale(text, element) else { continue }
                if supported.contains(locale) {
                    sink.add(.duplicateLocale(locale, at: document.location(of: element)))
                } else {
                    supported.append(locale)
                }
            }
        }
        var frequency = DisplayFrequency.immediate
        if let node = reader.object["displayFrequency"] {
            frequency = displayFrequency(node) ?? .immediate
        }
        let enabled = reader.bool("enabled") ?? true
        guard let source = sourceLanguage else { return nil }
        return CatalogSettings(
            name: name, schemaVersion: schemaVersion, sourceLanguage: source,
            supportedLocales: supported.isEmpty ? [source] : supported, displayFrequency: frequency, enabled: enabled,
            location: reader.location)
    }

    private func locale(_ text: String, _ node: JSONNode) -> LocaleID? {
        guard let locale = LocaleID(text) else {
            sink.add(.invalidLocale(text, at: document.location(of: node)))
            return nil
        }
        return locale
    }

    private func displayFrequency(_ node: JSONNode) -> DisplayFrequency? {
        if case .string(let text) = node.value {
            if let named = DisplayFrequency.namedCases.first(where: { $0.0 == text }) { return named.1 }
            if let span = TimeSpan(text) {
                guard span <= CatalogLimits.longestDuration else {
                    sink.add(.durationOutOfRange("displayFrequency", in: "catalog.json", found: span, at: document.location(of: node)))
                    return nil
                }
                return .custom(span)
            }
            let names = DisplayFrequency.namedCases.map(\.0)
            sink.add(.invalidDisplayFrequency(text, names: names, at: document.location(of: node)))
            return nil
        }
        return ObjectReader.duration(node, key: "displayFrequency", subject: "catalog.json", document: document, sink: sink)
            .map { DisplayFrequency.custom($0) }
    }
}

/// Decodes `parameters.json` and `events.json`.
struct DeclarationDecoder {
    let document: JSONDocument
    let sink: DiagnosticSink

    private func entries(_ key: String, file: String) -> [JSONNode] {
        guard let reader = ObjectReader(document.root, in: document, subject: file, sink: sink) else { return [] }
        reader.checkKeys([key])
        return reader.array(key, required: true)?.elements ?? []
    }

    func parameters() -> [AppParameter] {
        var result: [AppParameter] = []
        var seen: [String: SourceLocation] = [:]
        let types = TypeDecoder(document: document, sink: sink)
        for node in entries("parameters", file: "parameters.json") {
            guard let reader = ObjectReader(node, in: document, subject: "a parameter", sink: sink) else { continue }
            reader.checkKeys(["name", "type", "default", "lifetime", "description"])
            guard let (name, nameNode) = reader.string("name", required: true) else { continue }
            let subject = "parameter '\(name)'"
            let location = document.location(of: nameNode)
            guard IdentifierSyntax.isIdentifier(name) else {
                sink.add(.invalidParameterName(name, at: location))
                continue
            }
            if let first = seen[name] {
                sink.add(.duplicateParameter(name, at: location, first: first))
                continue
            }
            seen[name] = location
            let lifetime = reader.choice("lifetime", AppParameter.Lifetime.allCases.map { ($0.rawValue, $0) }) ?? .persistent
            let description = reader.string("description")?.value
            guard let typeNode = reader.node("type", required: true),
                  let type = types.type(typeNode, what: subject, optionalsWhy: "an app parameter always has a value (its default); "
                                            + "optional types are for tip parameters") else { continue }
            guard let defaultNode = reader.node("default", required: true),
                  let value = types.value(defaultNode, of: type, what: "the default of \(subject)") else { continue }
            result.append(AppParameter(name: ParameterName(name), type: type, defaultValue: value, lifetime: lifetime,
                                       description: description, location: location))
        }
        return result
    }

    func events() -> [EventDeclaration] {
        var result: [EventDeclaration] = []
        var seen: [String: SourceLocation] = [:]
        let types = TypeDecoder(document: document, sink: sink)
        for node in entries("events", file: "events.json") {
            guard let reader = ObjectReader(node, in: document, subject: "an event", sink: sink) else { continue }
            reader.checkKeys(["id", "fields", "donationLimit", "description"])
            guard let (id, idNode) = reader.string("id", required: true) else { continue }
            let location = document.location(of: idNode)
            guard IdentifierSyntax.isKebabIdentifier(id) else {
                sink.add(.invalidEventID(id, at: location))
                continue
            }
            if let first = seen[id] {
                sink.add(.duplicateEvent(id, at: location, first: first))
                continue
            }
            seen[id] = location
            var fields: [ValueType.RecordField] = []
            if let (object, _) = reader.objectNode("fields") {
                var seenFields = Set<String>()
                for member in object.members {
                    let keyLocation = document.location(ofByte: member.keyOffset)
                    guard IdentifierSyntax.isIdentifier(member.key) else {
                        sink.add(.invalidFieldName(member.key, in: "event '\(id)'", at: keyLocation))
                        continue
                    }
                    guard seenFields.insert(member.key).inserted else {
                        sink.add(.duplicateField(member.key, in: "event '\(id)'", at: keyLocation))
                        continue
                    }
                    if let type = types.type(member.value, what: "field '\(member.key)' of event '\(id)'",
                                             allowRecords: false, allowCollections: false,
                                             optionalsWhy: "a donation records every field of its event") {
                        fields.append(.init(member.key, type))
                    }
                }
            }
            var limit: DonationLimit?
            var maxCountLocation: SourceLocation?
            if let (_, limitNode) = reader.objectNode("donationLimit"),
               let limitReader = ObjectReader(limitNode, in: document, subject: "the donation limit of event '\(id)'", sink: sink) {
                limitReader.checkKeys(["maxCount", "maxAge"])
                limit = DonationLimit(maxCount: limitReader.int("maxCount", in: CatalogLimits.counts), maxAge: limitReader.duration("maxAge"))
                maxCountLocation = limitReader.object["maxCount"].map { limitReader.location(of: $0) }
            }
            result.append(EventDeclaration(id: EventID(id), fields: fields, donationLimit: limit,
                                           description: reader.string("description")?.value, location: location,
                                           maxCountLocation: maxCountLocation))
        }
        return result
    }
}

/// Decodes `groups.json`. Whether members exist is a lint rule (`unknown-group-member`).
struct GroupDecoder {
    let document: JSONDocument
    let sink: DiagnosticSink

    func decode() -> [TipGroup] {
        guard let root = ObjectReader(document.root, in: document, subject: "groups.json", sink: sink) else { return [] }
        root.checkKeys(["groups"])
        var result: [TipGroup] = []
        for node in root.array("groups", required: true)?.elements ?? [] {
            guard let reader = ObjectReader(node, in: document, subject: "a group", sink: sink) else { continue }
            reader.checkKeys(["id", "priority", "tips"])
            guard let (id, idNode) = reader.string("id", required: true) else { continue }
            guard IdentifierSyntax.isIdentifier(id) else {
                sink.add(.invalidGroupID(id, at: document.location(of: idNode)))
                continue
            }
            let priority = reader.choice("priority", TipGroup.Priority.allCases.map { ($0.rawValue, $0) }, required: true)
            var members: [TipID] = []
            var locations: [SourceLocation?] = []
            if let (elements, arrayNode) = reader.array("tips", required: true) {
                if elements.isEmpty {
                    sink.add(.emptyGroup(id, at: document.location(of: arrayNode)))
                }
                for element in elements {
                    guard case .string(let tip) = element.value else {
                        sink.add(.groupMemberNotAString(id, found: element.value.kindDescription, at: document.location(of: element)))
                        continue
                    }
                    members.append(TipID(tip))
                    locations.append(document.location(of: element))
                }
            }
            guard let priority else { continue }
            result.append(TipGroup(id: GroupID(id), priority: priority, tips: members,
                                   location: document.location(of: idNode), memberLocations: locations))
        }
        return result
    }
}
