public import TipcatCatalog
import TipcatCore
public import TipcatJSON
import TipcatLocalization

/// The canonical encoding of a whole `Catalog` and its decoding back into the model.
///
/// The encoding keeps everything the engine and renderers need (settings, parameters, events, groups, tips,
/// translations, republish policies) and nothing about where it was written (files, lines). It is
/// deterministic: equal catalogs give byte-identical documents (`JSONValue.canonicalBytes`). Decoding parses
/// every message again, so the result is a complete model.
public enum CatalogCodec {
    /// The canonical document of `catalog` (see `CatalogPieces.document`).
    public static func encode(_ catalog: Catalog) -> JSONValue {
        pieces(of: catalog).document
    }

    /// Reads a canonical document back into a catalog; `origin` becomes its `root` (a bundle path, `store:production@3`).
    public static func decode(_ document: JSONValue, origin: String) throws(CatalogDecodingError) -> Catalog {
        try decode(CatalogPieces(document: document), origin: origin)
    }

    // MARK: Catalog → pieces

    /// The catalog cut into content-addressable pieces.
    public static func pieces(of catalog: Catalog) -> CatalogPieces {
        var owners: [String: CatalogPieces.Owner] = [:]
        owners.reserveCapacity(catalog.tips.count)
        for tip in catalog.tips {
            owners[tip.id.rawValue] = CatalogPieces.Owner(tip: encode(tip), republish: tip.republish.rawValue)
        }
        for (name, entries) in stringsByOwner(catalog.localizations, tipIDs: Set(owners.keys)) {
            owners[name, default: CatalogPieces.Owner()].strings = encodeStrings(entries)
        }
        return CatalogPieces(
            settings: encode(catalog.settings),
            parameters: .array(catalog.parameters.map(encode)),
            events: .array(catalog.events.map(encode)),
            groups: .array(catalog.groups.map(encode)),
            owners: owners)
    }

    /// The String Catalog entries grouped by owner (`CatalogPieces.owner(ofKey:tipIDs:)`), keys sorted.
    ///
    /// Keys sorted by UTF-8 bytes mostly keep each owner's keys together, so one sort and one pass over runs of
    /// one owner group them; a run of an owner met again (dotted ids nest: `com.a` and `com.a.b`) is appended to
    /// its earlier keys, still in sorted order.
    static func stringsByOwner(_ table: LocalizationTable, tipIDs: Set<String>) -> [String: [(String, LocalizationTable.Entry)]] {
        var all: [(String, LocalizationTable.Entry)] = []
        all.reserveCapacity(table.entries.count)
        for (key, entry) in table.entries { all.append((key, entry)) }
        all.sort { $0.0.precedesCanonically($1.0) }
        var grouped: [String: [(String, LocalizationTable.Entry)]] = [:]
        var start = 0
        while start < all.count {
            let owner = CatalogPieces.owner(ofKey: all[start].0, tipIDs: tipIDs)
            var end = start + 1
            while end < all.count, CatalogPieces.owner(ofKey: all[end].0, tipIDs: tipIDs) == owner { end += 1 }
            grouped[owner, default: []].append(contentsOf: all[start..<end])
            start = end
        }
        return grouped
    }

    static func encode(_ settings: CatalogSettings) -> JSONValue {
        let frequency: JSONValue
        if case .custom(let span) = settings.displayFrequency {
            frequency = ValueCodec.encode(span)
        } else {
            frequency = .string(settings.displayFrequency.description)
        }
        return .object([
            ("displayFrequency", frequency),
            ("enabled", .bool(settings.enabled)),
            ("name", .string(settings.name)),
            ("schemaVersion", .int(settings.schemaVersion)),
            ("sourceLanguage", .string(settings.sourceLanguage.identifier)),
            ("supportedLocales", .array(settings.supportedLocales.map { .string($0.identifier) })),
        ])
    }

    static func encode(_ parameter: AppParameter) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("default", ValueCodec.encode(parameter.defaultValue)),
            ("lifetime", .string(parameter.lifetime.rawValue)),
            ("name", .string(parameter.name.rawValue)),
            ("type", ValueCodec.encode(parameter.type)),
        ]
        if let description = parameter.description { pairs.append(("description", .string(description))) }
        return .object(pairs)
    }

    static func encode(_ event: EventDeclaration) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("fields", ValueCodec.encode(event.fields)),
            ("id", .string(event.id.rawValue)),
        ]
        if let limit = event.donationLimit {
            var limitPairs: [(String, JSONValue)] = []
            if let maxAge = limit.maxAge { limitPairs.append(("maxAge", ValueCodec.encode(maxAge))) }
            if let maxCount = limit.maxCount { limitPairs.append(("maxCount", .int(maxCount))) }
            pairs.append(("donationLimit", .object(limitPairs)))
        }
        if let description = event.description { pairs.append(("description", .string(description))) }
        return .object(pairs)
    }

    static func encode(_ group: TipGroup) -> JSONValue {
        .object([
            ("id", .string(group.id.rawValue)),
            ("priority", .string(group.priority.rawValue)),
            ("tips", .array(group.tips.map { .string($0.rawValue) })),
        ])
    }

    /// `{platform: {"actions"?, "image"?, "message"?, "title"?}}` (platforms by name; an empty `actions` is kept).
    static func encodePlatforms(_ tip: Tip) -> JSONValue {
        .object(Device.allCases.sorted { $0.name < $1.name }.compactMap { device in
            tip.platforms[device].map { content in
                var pairs: [(String, JSONValue)] = []
                if let actions = content.actions {
                    pairs.append(("actions", .array(actions.map { .object([("id", .string($0.id)), ("title", .string($0.title.source))]) })))
                }
                if let image = content.image { pairs.append(("image", .string(image))) }
                if let message = content.message { pairs.append(("message", .string(message.source))) }
                if let title = content.title { pairs.append(("title", .string(title.source))) }
                return (device.name, JSONValue.object(pairs))
            }
        })
    }

    /// A tip's definition, without its republish policy (kept beside it, so changing only the policy is not
    /// a change of content).
    static func encode(_ tip: Tip) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("id", .string(tip.id.rawValue)),
            ("title", .string(tip.title.source)),
        ]
        if let customID = tip.customID { pairs.append(("customID", .string(customID.source))) }
        if let message = tip.message { pairs.append(("message", .string(message.source))) }
        if let image = tip.image { pairs.append(("image", .string(image))) }
        if !tip.actions.isEmpty {
            pairs.append(("actions", .array(tip.actions.map { .object([("id", .string($0.id)), ("title", .string($0.title.source))]) })))
        }
        if !tip.parameters.isEmpty { pairs.append(("parameters", ValueCodec.encode(tip.parameters))) }
        if !tip.platforms.isEmpty { pairs.append(("platforms", encodePlatforms(tip))) }
        if !tip.rules.isEmpty { pairs.append(("rules", .array(tip.rules.map { .string($0.source) }))) }
        var options: [(String, JSONValue)] = []
        if let count = tip.options.maxDisplayCount { options.append(("maxDisplayCount", .int(count))) }
        if let duration = tip.options.maxDisplayDuration { options.append(("maxDisplayDuration", ValueCodec.encode(duration))) }
        if tip.options.ignoresDisplayFrequency { options.append(("ignoresDisplayFrequency", .bool(true))) }
        if !options.isEmpty { pairs.append(("options", .object(options))) }
        if let comment = tip.comment { pairs.append(("comment", .string(comment))) }
        if let example = tip.example {
            pairs.append(("example", .object(example.keys.sorted().map { ($0, ValueCodec.encode(example[$0] ?? .bool(false))) })))
        }
        return .object(pairs)
    }

    static func encodeStrings(_ entries: [(String, LocalizationTable.Entry)]) -> JSONValue {
        .object(entries.map { key, entry in
            var pairs: [(String, JSONValue)] = []
            if let comment = entry.comment { pairs.append(("comment", .string(comment))) }
            if !entry.devices.isEmpty {
                let deviceLocales = entry.devices.keys.sorted { $0.identifier.utf8.lexicographicallyPrecedes($1.identifier.utf8) }
                pairs.append(("devices", .object(deviceLocales.compactMap { locale in
                    entry.devices[locale].map { variations in
                        (locale.identifier, JSONValue.object(variations.keys.sorted().compactMap { device in variations[device].map { (device, encode($0)) } }))
                    }
                })))
            }
            let locales = entry.translations.keys.sorted { $0.identifier.utf8.lexicographicallyPrecedes($1.identifier.utf8) }
            pairs.append(("localizations", .object(locales.compactMap { locale in
                entry.translations[locale].map { (locale.identifier, encode($0)) }
            })))
            return (key, .object(pairs))
        })
    }

    static func encode(_ translation: Translation) -> JSONValue {
        switch translation.content {
        case .message(let message):
            return .object([("message", .string(message.text)), ("state", .string(translation.state.rawValue))])
        case .plural(let argument, let forms):
            return .object([
                ("plural", .object([
                    ("argument", .string(argument)),
                    ("forms", .object(forms.keys.sorted().map { ($0, .string(forms[$0]?.text ?? "")) })),
                ])),
                ("state", .string(translation.state.rawValue)),
            ])
        }
    }
}
