import TipcatCatalog
import TipcatCore
import TipcatJSON
import TipcatLocalization

/// The canonical bytes of the two pieces a large catalog has thousands of — tips and their translations —
/// written directly (no intermediate `JSONValue`), identical to `encode(_:).canonicalBytes`.
extension CatalogCodec {
    static func tipBytes(_ tip: Tip) -> [UInt8] {
        var w = CanonicalWriter(capacity: 1024)
        w.byte(UInt8(ascii: "{"))
        var members = CanonicalWriter.Members()
        func key(_ name: StaticString) { members.key(name, in: &w) }
        if !tip.actions.isEmpty {
            key("actions")
            w.byte(UInt8(ascii: "["))
            for (index, action) in tip.actions.enumerated() {
                if index > 0 { w.byte(UInt8(ascii: ",")) }
                w.raw("{\"id\":")
                w.string(action.id)
                w.raw(",\"title\":")
                w.string(action.title.source)
                w.byte(UInt8(ascii: "}"))
            }
            w.byte(UInt8(ascii: "]"))
        }
        if let comment = tip.comment {
            key("comment")
            w.string(comment)
        }
        if let customID = tip.customID {
            key("customID")
            w.string(customID.source)
        }
        if let example = tip.example {
            key("example")
            w.byte(UInt8(ascii: "{"))
            for (index, name) in example.keys.sorted(by: { $0.precedesCanonically($1) }).enumerated() {
                w.key(name, first: index == 0)
                w.value(ValueCodec.encode(example[name] ?? .bool(false)))
            }
            w.byte(UInt8(ascii: "}"))
        }
        key("id")
        w.string(tip.id.rawValue)
        if let image = tip.image {
            key("image")
            w.string(image)
        }
        if let message = tip.message {
            key("message")
            w.string(message.source)
        }
        let options = tip.options
        if options.maxDisplayCount != nil || options.maxDisplayDuration != nil || options.ignoresDisplayFrequency {
            key("options")
            w.byte(UInt8(ascii: "{"))
            var optionMembers = CanonicalWriter.Members()
            if options.ignoresDisplayFrequency {
                optionMembers.key("ignoresDisplayFrequency", in: &w)
                w.raw("true")
            }
            if let count = options.maxDisplayCount {
                optionMembers.key("maxDisplayCount", in: &w)
                w.int(count)
            }
            if let duration = options.maxDisplayDuration {
                optionMembers.key("maxDisplayDuration", in: &w)
                w.value(ValueCodec.encode(duration))
            }
            w.byte(UInt8(ascii: "}"))
        }
        if !tip.parameters.isEmpty {
            key("parameters")
            w.byte(UInt8(ascii: "["))
            for (index, field) in tip.parameters.enumerated() {
                if index > 0 { w.byte(UInt8(ascii: ",")) }
                w.raw("{\"name\":")
                w.string(field.name)
                w.raw(",\"type\":")
                if field.type.containsRecord {
                    w.value(ValueCodec.encode(field.type))
                } else {
                    w.string(field.type.description)
                }
                w.byte(UInt8(ascii: "}"))
            }
            w.byte(UInt8(ascii: "]"))
        }
        if !tip.platforms.isEmpty {
            key("platforms")
            w.value(encodePlatforms(tip))
        }
        if !tip.rules.isEmpty {
            key("rules")
            w.byte(UInt8(ascii: "["))
            for (index, rule) in tip.rules.enumerated() {
                if index > 0 { w.byte(UInt8(ascii: ",")) }
                w.string(rule.source)
            }
            w.byte(UInt8(ascii: "]"))
        }
        key("title")
        w.string(tip.title.source)
        w.byte(UInt8(ascii: "}"))
        return w.bytes
    }

    /// `{key: {"comment"?, "localizations": {locale: translation}}}` for one owner's keys (sorted).
    static func stringsBytes(_ entries: [(String, LocalizationTable.Entry)]) -> [UInt8] {
        var w = CanonicalWriter(capacity: 4096)
        w.byte(UInt8(ascii: "{"))
        // By index: an entry is borrowed where it is, not copied out of the array (retaining all it holds).
        for index in entries.indices {
            writeEntry(entries[index].0, entries[index].1, first: index == 0, to: &w)
        }
        w.byte(UInt8(ascii: "}"))
        return w.bytes
    }

    /// One member of `stringsBytes`: `key: {"comment"?, "devices"?, "localizations": {…}}`.
    private static func writeEntry(_ key: String, _ entry: borrowing LocalizationTable.Entry, first: Bool, to w: inout CanonicalWriter) {
        w.key(key, first: first)
        w.byte(UInt8(ascii: "{"))
        var members = CanonicalWriter.Members()
        if let comment = entry.comment {
            members.key("comment", in: &w)
            w.string(comment)
        }
        if !entry.devices.isEmpty {
            // `{locale: {device: translation}}`, only when some locale varies by device.
            members.key("devices", in: &w)
            w.byte(UInt8(ascii: "{"))
            // In canonical order already (`LocaleMap`); read in place (translations are large, and many).
            let (locales, devices) = (entry.devices.keys, entry.devices.values)
            for localeIndex in devices.indices {
                let variations = devices[localeIndex]
                w.key(locales[localeIndex].identifier, first: localeIndex == 0)
                w.byte(UInt8(ascii: "{"))
                for (deviceIndex, device) in variations.keys.sorted(by: { $0.precedesCanonically($1) }).enumerated() {
                    guard let translation = variations[device] else { continue }
                    w.key(device, first: deviceIndex == 0)
                    writeTranslation(translation, to: &w)
                }
                w.byte(UInt8(ascii: "}"))
            }
            w.byte(UInt8(ascii: "}"))
        }
        members.key("localizations", in: &w)
        w.byte(UInt8(ascii: "{"))
        // By index into the locales and the values: a map's element is a pair, copied with all its translation holds;
        // and into the array itself, a constant whose elements are read where they are (through a buffer pointer
        // each would be copied for fear that a call writes it).
        let (locales, translations) = (entry.translations.keys, entry.translations.values)
        for index in translations.indices {
            w.key(locales[index].identifier, first: index == 0)
            // A whole message (nearly every translation) is written from its parts read where they are: passing the
            // translation on would copy it, retaining all it holds.
            if translations[index].content.isMessage {
                writeMessageTranslation(translations[index].content.text, state: translations[index].state, to: &w)
            } else {
                writeTranslation(translations[index], to: &w)
            }
        }
        w.raw("}}")
    }

    /// `{"message": …, "state": …}` or `{"plural": {"argument": …, "forms": {…}}, "state": …}`.
    private static func writeTranslation(_ translation: Translation, to w: inout CanonicalWriter) {
        switch translation.content {
        case .message(let message):
            writeMessageTranslation(message.text, state: translation.state, to: &w)
        case .plural(let argument, let forms):
            w.raw("{\"plural\":{\"argument\":")
            w.string(argument)
            w.raw(",\"forms\":{")
            for (formIndex, category) in forms.keys.sorted(by: { $0.precedesCanonically($1) }).enumerated() {
                w.key(category, first: formIndex == 0)
                w.string(forms[category]?.text ?? "")
            }
            w.raw("}}")
            writeState(translation.state, to: &w)
        }
    }

    /// `{"message": …, "state": …}`.
    private static func writeMessageTranslation(_ text: String, state: Translation.State, to w: inout CanonicalWriter) {
        w.raw("{\"message\":")
        w.string(text)
        writeState(state, to: &w)
    }

    /// `,"state": …}`, closing a translation.
    private static func writeState(_ state: Translation.State, to w: inout CanonicalWriter) {
        w.raw(",\"state\":")
        w.string(state.rawValue)
        w.byte(UInt8(ascii: "}"))
    }
}
