import TipcatCore
import TipcatJSON
import TipcatLocalization

/// Decodes `Localizable.xcstrings` (Apple's String Catalog) and checks each translation against its source text.
struct StringCatalogDecoder {
    let document: JSONDocument
    let sink: DiagnosticSink
    let settings: CatalogSettings
    let tips: [Tip]

    private var file: String { document.source.path }

    func decode() -> LocalizationTable {
        var table = LocalizationTable(sourceLanguage: settings.sourceLanguage, file: file)
        guard let root = ObjectReader(document.root, in: document, subject: "the String Catalog", sink: sink) else { return table }
        root.checkKeys(["sourceLanguage", "strings", "version"])
        if let (language, node) = root.string("sourceLanguage", required: true) {
            if LocaleID(language) != settings.sourceLanguage {
                sink.add(.sourceLanguageMismatch(language, catalog: settings.sourceLanguage, at: document.location(of: node)))
            }
        }
        _ = root.string("version")
        guard let (strings, _) = root.objectNode("strings", required: true) else { return table }
        let sources = Dictionary(tips.flatMap { $0.localizableTexts.map { ($0.key, $0) } }, uniquingKeysWith: { first, _ in first })
        // Entries are independent: decode them on every core, each chunk with its own findings.
        let members = strings.members
        let (document, settings, tips) = (self.document, self.settings, self.tips)
        let results = concurrentChunks(count: members.count, chunkSize: 512) { range in
            let decoder = StringCatalogDecoder(document: document, sink: DiagnosticSink(), settings: settings, tips: tips)
            let messages = MessageChecker(sourceLanguage: settings.sourceLanguage)
            var locales: [String: LocaleID?] = [:]
            var entries: [(String, LocalizationTable.Entry)] = []
            for member in members[range] {
                if let entry = decoder.decodeEntry(member, source: sources[member.key], messages: messages, locales: &locales) {
                    entries.append((member.key, entry))
                }
            }
            return (entries, decoder.sink.diagnostics)
        }
        table.entries.reserveCapacity(members.count)
        for (entries, diagnostics) in results {
            for (key, entry) in entries { table.entries[key] = entry }
            sink.add(contentsOf: diagnostics)
        }
        return table
    }

    private func decodeEntry(
        _ member: JSONMember, source: LocalizedText?, messages: MessageChecker, locales: inout [String: LocaleID?]
    ) -> LocalizationTable.Entry? {
        let key = member.key
        guard let reader = ObjectReader(member.value, in: document, subject: "string '\(key)'", sink: sink) else { return nil }
        reader.checkKeys(["comment", "extractionState", "localizations", "shouldTranslate"])
        _ = reader.string("extractionState")
        _ = reader.bool("shouldTranslate")
        var entry = LocalizationTable.Entry(
            comment: reader.string("comment")?.value, location: document.location(ofByte: member.keyOffset))
        guard let (localizations, _) = reader.objectNode("localizations") else { return entry }
        for localization in localizations.members {
            let parsed: LocaleID?
            if let cached = locales[localization.key] {
                parsed = cached
            } else {
                parsed = LocaleID(localization.key)
                locales[localization.key] = parsed
            }
            guard let locale = parsed else {
                sink.add(.invalidLocale(localization.key, inString: key, at: document.location(ofByte: localization.keyOffset)))
                continue
            }
            if let translation = decodeTranslation(localization.value, key: key, locale: locale, source: source, messages: messages) {
                entry.translations[locale] = translation
            }
        }
        return entry
    }

    private func decodeTranslation(
        _ node: JSONNode, key: String, locale: LocaleID, source: LocalizedText?, messages: MessageChecker
    ) -> Translation? {
        let what = "the '\(locale)' translation of '\(key)'"
        guard let reader = ObjectReader(node, in: document, subject: what, sink: sink) else { return nil }
        reader.checkKeys(["stringUnit", "variations", "substitutions"])
        if let substitutions = reader.node("substitutions", required: false) {
            sink.add(.unsupportedSubstitutions(in: what, at: document.location(of: substitutions)))
        }
        if let (_, unitNode) = reader.objectNode("stringUnit") {
            guard let (text, valueNode, state) = stringUnit(unitNode, what: what) else { return nil }
            guard let message = messages.parse(text, node: valueNode, in: document, what: what, sink: sink) else { return nil }
            if let sourceMessage = source?.message {
                comparePlaceholders(message.placeholderPaths, with: sourceMessage, node: valueNode, what: what)
            }
            messages.checkPluralCoverage(message, locale: locale, node: valueNode, in: document, what: what, sink: sink)
            return Translation(content: .message(message), state: state, location: document.location(of: valueNode),
                               isVerbatim: document.isVerbatimString(valueNode))
        }
        if let (variations, variationsNode) = reader.objectNode("variations") {
            guard let variationsReader = ObjectReader(variationsNode, in: document, subject: "the variations of \(what)", sink: sink) else { return nil }
            variationsReader.checkKeys(["plural", "device"])
            if let device = variations["device"] {
                sink.add(.unsupportedDeviceVariations(in: what, at: document.location(of: device)))
            }
            guard let (_, pluralNode) = variationsReader.objectNode("plural") else { return nil }
            return decodePluralVariation(pluralNode, key: key, locale: locale, source: source, messages: messages, what: what)
        }
        sink.add(.missingTranslationValue(what, at: reader.location))
        return nil
    }

    private func stringUnit(_ node: JSONNode, what: String) -> (String, JSONNode, Translation.State)? {
        guard let unit = ObjectReader(node, in: document, subject: "the stringUnit of \(what)", sink: sink) else { return nil }
        unit.checkKeys(["state", "value"])
        let state = unit.choice("state", Translation.State.allCases.map { ($0.rawValue, $0) }) ?? .translated
        if state != .translated, let stateNode = unit.object["state"] {
            sink.add(.notTranslated(what, state: state.rawValue, at: document.location(of: stateNode)))
        }
        guard let (value, valueNode) = unit.string("value", required: true) else { return nil }
        return (value, valueNode, state)
    }

    private func decodePluralVariation(
        _ node: JSONNode, key: String, locale: LocaleID, source: LocalizedText?, messages: MessageChecker, what: String
    ) -> Translation? {
        guard let plural = ObjectReader(node, in: document, subject: "the plural variations of \(what)", sink: sink) else { return nil }
        let categories = PluralCategory.allCases.map(\.rawValue)
        plural.checkKeys(categories)
        let sourcePlurals = source?.message?.pluralArguments ?? []
        guard let source, let sourceMessage = source.message else { return nil }
        guard sourcePlurals.count == 1, let argument = sourcePlurals.first else {
            sink.add(.unexpectedPluralVariation(what, sourcePlurals: sourcePlurals.count, at: plural.location))
            return nil
        }
        var forms: [String: Message] = [:]
        var state = Translation.State.translated
        var used = Set<String>([argument.path])
        for member in plural.object.members where categories.contains(member.key) {
            guard let (text, valueNode, formState) = stringUnitWrapper(member.value, what: "\(what) (\(member.key))") else { continue }
            if formState != .translated { state = formState }
            guard let message = messages.parse(text, node: valueNode, in: document, what: "\(what) (\(member.key))", sink: sink, pluralForm: true) else { continue }
            used.formUnion(message.placeholderPaths)
            forms[member.key] = message
        }
        let needed = PluralRules.categories(for: locale).map(\.rawValue)
        let missing = needed.filter { forms[$0] == nil && plural.object[$0] == nil }
        if !missing.isEmpty {
            sink.add(.missingPluralVariation(in: what, missing: missing, locale: locale, at: plural.location))
        }
        comparePlaceholders(used, with: sourceMessage, node: node, what: what, inString: false)
        return Translation(content: .plural(argument: argument.path, forms: forms), state: state, location: plural.location)
    }

    private func stringUnitWrapper(_ node: JSONNode, what: String) -> (String, JSONNode, Translation.State)? {
        guard let form = ObjectReader(node, in: document, subject: what, sink: sink) else { return nil }
        form.checkKeys(["stringUnit"])
        guard let (_, unitNode) = form.objectNode("stringUnit", required: true) else { return nil }
        return stringUnit(unitNode, what: what)
    }

    private func comparePlaceholders(_ paths: Set<String>, with source: Message, node: JSONNode, what: String, inString: Bool = true) {
        let expected = source.placeholderPaths
        guard paths != expected else { return }
        let extra = paths.subtracting(expected).sorted()
        let missing = expected.subtracting(paths).sorted()
        var parts: [String] = []
        if !extra.isEmpty {
            parts.append("uses \(extra.map { "{\($0)}" }.joined(separator: ", ")), which the source text does not have"
                         + (extra.count == 1 ? Suggestions.didYouMean(extra[0], in: expected) : ""))
        }
        if !missing.isEmpty {
            parts.append("lacks \(missing.map { "{\($0)}" }.joined(separator: ", ")) from the source text")
        }
        sink.add(.placeholderMismatch(what, problems: parts, at: document.location(of: node)))
    }
}
