public import TipcatCatalog
import TipcatCore
import TipcatJSON
import TipcatLocalization

extension CatalogCodec {
    /// Builds the catalog model from its pieces; every message is parsed again.
    public static func decode(_ pieces: CatalogPieces, origin: String) throws(CatalogDecodingError) -> Catalog {
        let settings = try decodeSettings(JSONReader(pieces.settings, path: "settings"))
        var parameters: [AppParameter] = []
        for element in try JSONReader(pieces.parameters, path: "parameters").elements() {
            parameters.append(try decodeParameter(element))
        }
        var events: [EventDeclaration] = []
        for element in try JSONReader(pieces.events, path: "events").elements() {
            events.append(try decodeEvent(element))
        }
        var groups: [TipGroup] = []
        for element in try JSONReader(pieces.groups, path: "groups").elements() {
            groups.append(try decodeGroup(element))
        }
        var tips: [Tip] = []
        var table = LocalizationTable(sourceLanguage: settings.sourceLanguage)
        let names = pieces.owners.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for name in names {
            guard let owner = pieces.owners[name] else { continue }
            if let tip = owner.tip {
                let reader = JSONReader(tip, path: "tips[\(name)]")
                let policyText = owner.republish ?? RepublishPolicy.keep.rawValue
                guard let policy = RepublishPolicy(rawValue: policyText) else {
                    throw CatalogDecodingError("unknown republish policy '\(policyText)'", at: "republish.\(name)")
                }
                tips.append(try decodeTip(reader, republish: policy, origin: origin))
            }
            if let strings = owner.strings {
                for (key, entry) in try JSONReader(strings, path: "strings").members() {
                    table.entries[key] = try decodeEntry(entry)
                }
            }
        }
        return Catalog(
            root: origin, settings: settings, parameters: parameters, events: events, groups: groups, tips: tips,
            localizations: table)
    }

    static func locale(_ reader: JSONReader) throws(CatalogDecodingError) -> LocaleID {
        let text = try reader.string()
        guard let locale = LocaleID(text) else { throw reader.fail("'\(text)' is not a locale identifier") }
        return locale
    }

    static func decodeSettings(_ reader: JSONReader) throws(CatalogDecodingError) -> CatalogSettings {
        let frequencyReader = try reader.member("displayFrequency")
        var frequency: DisplayFrequency
        if case .string(let text) = frequencyReader.value, let named = DisplayFrequency.namedCases.first(where: { $0.0 == text }) {
            frequency = named.1
        } else {
            frequency = .custom(try ValueCodec.decodeSpan(frequencyReader))
        }
        var supported: [LocaleID] = []
        for element in try reader.member("supportedLocales").elements() { supported.append(try locale(element)) }
        return CatalogSettings(
            name: try reader.member("name").string(), schemaVersion: try reader.member("schemaVersion").int(),
            sourceLanguage: try locale(reader.member("sourceLanguage")), supportedLocales: supported,
            displayFrequency: frequency, enabled: try reader.member("enabled").bool())
    }

    static func decodeParameter(_ reader: JSONReader) throws(CatalogDecodingError) -> AppParameter {
        let type = try ValueCodec.decodeType(reader.member("type"))
        let lifetimeText = try reader.member("lifetime").string()
        guard let lifetime = AppParameter.Lifetime(rawValue: lifetimeText) else {
            throw reader.fail("unknown lifetime '\(lifetimeText)'")
        }
        return AppParameter(
            name: ParameterName(try reader.member("name").string()), type: type,
            defaultValue: try ValueCodec.decodeValue(reader.member("default"), as: type), lifetime: lifetime,
            description: try reader.optionalMember("description")?.string())
    }

    static func decodeEvent(_ reader: JSONReader) throws(CatalogDecodingError) -> EventDeclaration {
        var limit: DonationLimit?
        if let limitReader = try reader.optionalMember("donationLimit") {
            limit = DonationLimit(
                maxCount: try limitReader.optionalMember("maxCount")?.int(),
                maxAge: try limitReader.optionalMember("maxAge").map { (age) throws(CatalogDecodingError) in try ValueCodec.decodeSpan(age) })
        }
        return EventDeclaration(
            id: EventID(try reader.member("id").string()), fields: try ValueCodec.decodeFields(reader.member("fields")),
            donationLimit: limit, description: try reader.optionalMember("description")?.string())
    }

    static func decodeGroup(_ reader: JSONReader) throws(CatalogDecodingError) -> TipGroup {
        let priorityText = try reader.member("priority").string()
        guard let priority = TipGroup.Priority(rawValue: priorityText) else { throw reader.fail("unknown priority '\(priorityText)'") }
        var tips: [TipID] = []
        for element in try reader.member("tips").elements() { tips.append(TipID(try element.string())) }
        return TipGroup(id: GroupID(try reader.member("id").string()), priority: priority, tips: tips)
    }

    /// A message; `pluralForm` for a String Catalog plural variation's form, where `#` is the number.
    static func message(_ reader: JSONReader, pluralForm: Bool = false) throws(CatalogDecodingError) -> Message {
        let text = try reader.string()
        do {
            return try pluralForm ? Message.parsePluralForm(text) : Message.parse(text)
        } catch {
            throw reader.fail("message does not parse: \(error.message) at byte \(error.offset)")
        }
    }

    static func text(_ reader: JSONReader, key: String) throws(CatalogDecodingError) -> LocalizedText {
        LocalizedText(key: key, source: try reader.string(), message: try message(reader))
    }

    static func decodeTip(_ reader: JSONReader, republish: RepublishPolicy, origin: String) throws(CatalogDecodingError) -> Tip {
        let id = try reader.member("id").string()
        var actions: [TipAction] = []
        for element in try reader.optionalMember("actions")?.elements() ?? [] {
            let actionID = try element.member("id").string()
            actions.append(TipAction(id: actionID, title: try text(element.member("title"), key: "\(id).action.\(actionID)")))
        }
        let parameters = try reader.optionalMember("parameters").map { (fields) throws(CatalogDecodingError) in
            try ValueCodec.decodeFields(fields)
        } ?? []
        var rules: [TipRule] = []
        for element in try reader.optionalMember("rules")?.elements() ?? [] { rules.append(TipRule(source: try element.string())) }
        var options = TipOptions()
        if let optionsReader = try reader.optionalMember("options") {
            options.maxDisplayCount = try optionsReader.optionalMember("maxDisplayCount")?.int()
            options.maxDisplayDuration = try optionsReader.optionalMember("maxDisplayDuration").map {
                (span) throws(CatalogDecodingError) in try ValueCodec.decodeSpan(span)
            }
            options.ignoresDisplayFrequency = try optionsReader.optionalMember("ignoresDisplayFrequency")?.bool() ?? false
        }
        var example: [String: Value]?
        if let exampleReader = try reader.optionalMember("example") {
            var values: [String: Value] = [:]
            for (name, value) in try exampleReader.members() {
                values[name] = try ValueCodec.decodeValue(value, as: parameters.first { $0.name == name }?.type)
            }
            example = values
        }
        var platforms: [Device: TipPlatformContent] = [:]
        for (name, platform) in try reader.optionalMember("platforms")?.members() ?? [] {
            guard let device = Device(name: name) else { throw platform.fail("unknown platform '\(name)'") }
            let prefix = "\(id).\(name)"
            var content = TipPlatformContent()
            content.title = try platform.optionalMember("title").map { (node) throws(CatalogDecodingError) in try text(node, key: "\(prefix).title") }
            content.message = try platform.optionalMember("message").map { (node) throws(CatalogDecodingError) in
                try text(node, key: "\(prefix).message")
            }
            content.image = try platform.optionalMember("image")?.string()
            if let elements = try platform.optionalMember("actions")?.elements() {
                var platformActions: [TipAction] = []
                for element in elements {
                    let actionID = try element.member("id").string()
                    platformActions.append(TipAction(id: actionID, title: try text(element.member("title"), key: "\(prefix).action.\(actionID)")))
                }
                content.actions = platformActions
            }
            platforms[device] = content
        }
        return Tip(
            id: TipID(id),
            customID: try reader.optionalMember("customID").map { (node) throws(CatalogDecodingError) in try text(node, key: "\(id).customID") },
            title: try text(reader.member("title"), key: "\(id).title"),
            message: try reader.optionalMember("message").map { (node) throws(CatalogDecodingError) in try text(node, key: "\(id).message") },
            image: try reader.optionalMember("image")?.string(), actions: actions, parameters: parameters, rules: rules,
            options: options, republish: republish, comment: try reader.optionalMember("comment")?.string(), example: example,
            platforms: platforms, file: "\(origin)/tips/\(id).json")
    }

    static func decodeEntry(_ reader: JSONReader) throws(CatalogDecodingError) -> LocalizationTable.Entry {
        var entry = LocalizationTable.Entry(comment: try reader.optionalMember("comment")?.string())
        for (localeText, translation) in try reader.member("localizations").members() {
            guard let locale = LocaleID(localeText) else { throw translation.fail("'\(localeText)' is not a locale identifier") }
            entry.translations[locale] = try decodeTranslation(translation)
        }
        if let devices = try reader.optionalMember("devices") {
            for (localeText, variations) in try devices.members() {
                guard let locale = LocaleID(localeText) else { throw variations.fail("'\(localeText)' is not a locale identifier") }
                var decoded: [String: Translation] = [:]
                for (device, translation) in try variations.members() { decoded[device] = try decodeTranslation(translation) }
                entry.devices[locale] = decoded
            }
        }
        return entry
    }

    static func decodeTranslation(_ translation: JSONReader) throws(CatalogDecodingError) -> Translation {
        let stateText = try translation.member("state").string()
        guard let state = Translation.State(rawValue: stateText) else { throw translation.fail("unknown state '\(stateText)'") }
        if let plural = try translation.optionalMember("plural") {
            var forms: [String: Message] = [:]
            for (category, form) in try plural.member("forms").members() { forms[category] = try message(form, pluralForm: true) }
            return Translation(content: .plural(argument: try plural.member("argument").string(), forms: forms), state: state)
        }
        return Translation(content: .message(try message(translation.member("message"))), state: state)
    }
}
