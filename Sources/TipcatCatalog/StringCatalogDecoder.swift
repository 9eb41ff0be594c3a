import TipcatCore
import TipcatJSON
import TipcatLocalization

/// Decodes `Localizable.xcstrings` (Apple's String Catalog) and checks each translation against its source text.
struct StringCatalogDecoder {
    let document: JSONDocument
    let sink: DiagnosticSink
    let settings: CatalogSettings
    let tips: [Tip]
    /// The locales whose translations are decoded and checked; the others are skipped (nil: every locale's).
    var decodedLocales: Set<LocaleID>? = nil

    private var file: String { document.source.path }

    /// The table, with the duplicate keys found inside deferred entries (see `JSONDocument.parse(_:maxDepth:deferringMembersOf:)`;
    /// the document's own `duplicateKeys()` has the others). Nil when a deferred entry is not valid JSON: the
    /// file is then not a String Catalog at all, and what was reported to `sink` must be dropped.
    ///
    /// With `recording` (a tip's index → the fingerprint of its file), also what each entry produced, for a
    /// `StringsDecodingCache` (`leadingFindings` are `sink`'s findings before the entries').
    ///
    /// `plainEntries` false decodes every entry from its tree (tests compare the two ways).
    func decode(recording fingerprint: (@Sendable (Int) -> [UInt8])? = nil, plainEntries: Bool = true) -> (
        table: LocalizationTable, entryDuplicates: [(first: JSONMember, duplicate: JSONMember)],
        record: (leading: [Diagnostic], entries: [StringsDecoding.Entry])?
    )? {
        var table = LocalizationTable(sourceLanguage: settings.sourceLanguage, file: file)
        guard let root = ObjectReader(document.root, in: document, subject: "the String Catalog", sink: sink) else { return (table, [], nil) }
        root.checkKeys(["generatesSymbols", "sourceLanguage", "strings", "version"])
        _ = root.bool("generatesSymbols")
        if let (language, node) = root.string("sourceLanguage", required: true) {
            if LocaleID(language) != settings.sourceLanguage {
                sink.add(.sourceLanguageMismatch(language, catalog: settings.sourceLanguage, at: document.location(of: node)))
            }
        }
        _ = root.string("version")
        guard let (strings, stringsNode) = root.objectNode("strings", required: true) else { return (table, [], nil) }
        ObjectReader(stringsNode, in: document, subject: "the strings of the String Catalog", sink: sink)?.checkDuplicateKeys()
        let owners = StringCatalogDecoder.firstTips(tips)
        // Entries are independent: decode them on every core, each chunk with its own findings.
        let members = strings.members
        let (document, settings, tips, decodedLocales) = (self.document, self.settings, self.tips, self.decodedLocales)
        // A deferred entry is parsed just before it is decoded, and its tree dropped right after.
        typealias Chunk = (
            entries: [(String, LocalizationTable.Entry)], diagnostics: [Diagnostic], duplicates: [(first: JSONMember, duplicate: JSONMember)],
            record: [StringsDecoding.Entry]
        )
        var results = concurrentChunks(count: members.count, chunkSize: 512) { range -> Chunk? in
            let chunkSink = DiagnosticSink()
            let decoder = StringCatalogDecoder(document: document, sink: chunkSink, settings: settings, tips: tips, decodedLocales: decodedLocales)
            let messages = MessageChecker(sourceLanguage: settings.sourceLanguage)
            var locales = LocaleCache()
            var entries: [(String, LocalizationTable.Entry)] = []
            var duplicates: [(first: JSONMember, duplicate: JSONMember)] = []
            var record: [StringsDecoding.Entry] = []
            if fingerprint != nil { record.reserveCapacity(range.count) }
            for member in members[range] {
                let source = StringCatalogDecoder.source(of: member.key, tip: owners[member.key], in: tips)
                let findingsBefore = chunkSink.diagnostics.count
                let entry: LocalizationTable.Entry?
                if !document.isDeferred(member.value) {
                    entry = decoder.decodeEntry(member, source: source, messages: messages, locales: &locales)
                } else if let source, plainEntries,
                          let plain = document.withCursor(atDeferred: member.value, { PlainEntry.read(&$0) }) {
                    // The shape Xcode writes for a key with plain translations, read in place (see `PlainEntry`).
                    entry = decoder.decodePlainEntry(plain, key: member.key, keyOffset: member.keyOffset, source: source, messages: messages,
                                                     locales: &locales)
                } else {
                    guard let parsed = try? document.parseDeferred(member.value) else { return nil }
                    let entryDecoder = StringCatalogDecoder(document: parsed, sink: chunkSink, settings: settings, tips: tips, decodedLocales: decodedLocales)
                    var entryMember = member
                    entryMember.value = parsed.root
                    duplicates += parsed.duplicateKeys()
                    entry = entryDecoder.decodeEntry(entryMember, source: source, messages: messages, locales: &locales)
                }
                if let entry { entries.append((member.key, entry)) }
                if let fingerprint {
                    let keyLocation = document.location(ofByte: member.keyOffset)
                    record.append(StringsDecoding.Entry(
                        key: member.key, keyOffset: member.keyOffset, keyLine: keyLocation.line, keyColumn: keyLocation.column,
                        valueOffset: member.value.offset, valueEnd: document.deferredEnd(of: member.value) ?? -1,
                        checkedAgainst: source.map { fingerprint($0.tip) } ?? [],
                        findings: Array(chunkSink.diagnostics[findingsBefore...]), entry: entry))
                }
            }
            // The chunk's bytes, decoded, are given back (a mapped file's; read again if a finding asks for them).
            if let first = members[range].first, let last = members[range].last {
                document.source.bytes.releasePages(in: first.keyOffset..<(document.deferredEnd(of: last.value) ?? first.keyOffset))
            }
            return (entries, chunkSink.diagnostics, duplicates, record)
        }
        table.entries.reserveCapacity(members.count)
        var entryDuplicates: [(first: JSONMember, duplicate: JSONMember)] = []
        var record: (leading: [Diagnostic], entries: [StringsDecoding.Entry])? = fingerprint == nil ? nil : (sink.diagnostics, [])
        record?.entries.reserveCapacity(members.count)  // kept until the publish caches are written: no room to spare
        // The chunks' entries are moved into the table and the record, not copied (a copy retains every reference an
        // entry holds, and dropping the chunk releases them again).
        for index in results.indices {
            guard var chunk = results[index] else { return nil }
            results[index] = nil
            // In file order (of a key written twice, the last is kept), each entry moved: reversed, then taken from
            // the end.
            chunk.entries.reverseMoving()
            while let (key, entry) = chunk.entries.popLast() { table.entries[key] = entry }
            sink.add(contentsOf: chunk.diagnostics)
            entryDuplicates += chunk.duplicates
            record?.entries.appendMoving(&chunk.record)
        }
        return (table, entryDuplicates, record)
    }

    /// The tip (by index in `tips`) that names each String Catalog key: the first that names it. Only the keys
    /// `wanted` accepts, when given (a replay looks up a few). Each key is looked up once (tens of thousands of them).
    static func firstTips(_ tips: [Tip], naming wanted: ((String) -> Bool)? = nil) -> [String: Int] {
        var owners: [String: Int] = [:]
        owners.reserveCapacity(wanted == nil ? tips.count * 4 : 0)
        for index in tips.indices {
            tips[index].forEachLocalizableKey { key in
                if wanted?(key) ?? true, owners[key] == nil { owners[key] = index }
            }
        }
        return owners
    }

    /// The text `key` names in the tip at `tip` (its first that does), with the tip's index: what an entry is
    /// checked against. Nil when no tip names the key.
    static func source(of key: String, tip: Int?, in tips: [Tip]) -> (text: LocalizedText, tip: Int)? {
        guard let tip else { return nil }
        var found: LocalizedText?
        tips[tip].forEachLocalizableText { text in if found == nil, text.key == key { found = text } }
        return found.map { (text: $0, tip: tip) }
    }

    /// The table from what an earlier decoding of the same bytes produced (`kept`), every entry whose tip file
    /// is not the one it was checked against decoded again from its bytes in `bytes` (the file's). Reports each
    /// entry's findings in file order, then the duplicate keys, as `decode` does. Nil when an entry cannot be
    /// decoded alone (the file is then decoded whole). `changed` are the entries decoded again, by index (they
    /// replace `kept`'s own).
    static func replay(
        _ kept: StringsDecoding, bytes file: FileBytes, path: String, settings: CatalogSettings, tips: [Tip], fingerprint: @Sendable (Int) -> [UInt8],
        sink: DiagnosticSink
    ) -> (table: LocalizationTable, changed: [Int: StringsDecoding.Entry])? {
        let entries = kept.entries
        let stale = staleEntries(entries, tips: tips, fingerprint: fingerprint)
        // Decoded again: entries checked against another tip file than the one that names their key now.
        let results = concurrentChunks(count: stale.count, chunkSize: 64) { range -> [(Int, StringsDecoding.Entry)]? in
            let messages = MessageChecker(sourceLanguage: settings.sourceLanguage)
            var locales = LocaleCache()
            var fresh: [(Int, StringsDecoding.Entry)] = []
            for (index, owner) in stale[range] {
                let kept = entries[index]
                let source = source(of: kept.key, tip: owner, in: tips)
                guard kept.valueEnd > kept.valueOffset, kept.keyOffset >= 0, kept.keyOffset < kept.valueOffset, kept.valueEnd <= file.count
                else { return nil }
                let piece = SourceFile(
                    path: path, bytes: file[kept.keyOffset..<kept.valueEnd], firstLine: kept.keyLine, firstColumn: kept.keyColumn)
                // Two levels (the root object and `strings`) are above an entry.
                guard let document = try? JSONDocument.parse(piece, valueAt: kept.valueOffset - kept.keyOffset, maxDepth: 510) else { return nil }
                let entrySink = DiagnosticSink()
                let decoder = StringCatalogDecoder(document: document, sink: entrySink, settings: settings, tips: tips)
                let entry = decoder.decodeEntry(
                    JSONMember(key: kept.key, keyOffset: 0, value: document.root), source: source, messages: messages, locales: &locales)
                var updated = kept
                updated.checkedAgainst = owner.map(fingerprint) ?? []
                updated.findings = entrySink.diagnostics
                updated.entry = entry
                fresh.append((index, updated))
            }
            return fresh
        }
        var changed: [Int: StringsDecoding.Entry] = [:]
        for result in results {
            guard let result else { return nil }
            for (index, entry) in result { changed[index] = entry }
        }
        var table = LocalizationTable(sourceLanguage: settings.sourceLanguage, file: path)
        table.entries.reserveCapacity(entries.count)
        sink.add(contentsOf: kept.leadingFindings)
        // Read in place: an entry is large, and there are tens of thousands.
        entries.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                if !changed.isEmpty, let again = changed[index] {
                    if let decoded = again.entry { table.entries[again.key] = decoded }
                    sink.add(contentsOf: again.findings)
                } else {
                    // An entry checked against a tip, and not decoded again, is still that tip's (see `staleEntries`);
                    // one checked against none is still no tip's.
                    if var decoded = entries[index].entry {
                        decoded.isNamedByTip = !entries[index].checkedAgainst.isEmpty
                        table.entries[entries[index].key] = decoded
                    }
                    if !entries[index].findings.isEmpty { sink.add(contentsOf: entries[index].findings) }
                }
            }
        }
        sink.reportDuplicateKeys(kept.duplicates, what: CatalogLoader.FileName.strings)
        return (table, changed)
    }

    /// The entries whose key's tip (the first tip that names it, by index in `tips`; nil for none) has another file
    /// fingerprint than the one the entry was checked against, with that tip. Equal to comparing every entry with
    /// the tip that names its key now, without finding every key's tip:
    ///
    /// - a tip whose fingerprint some entry was checked against has the same file (path and bytes) as then, so the
    ///   same keys; the keys it names either have entries checked against it, or against a tip before it that also
    ///   names them (which is still there, and still before it, unless its file changed);
    /// - so a key's tip can differ from the one its entry was checked against only when that tip's file changed or
    ///   went (the entry's fingerprint is none of the tips' now), or when a tip whose file no entry was checked against
    ///   (new, changed, or naming only keys the String Catalog lacked) names the key.
    ///
    /// Only those entries' keys are looked up in the tips, and only when there are any.
    static func staleEntries(
        _ entries: [StringsDecoding.Entry], tips: [Tip], fingerprint: @Sendable (Int) -> [UInt8]
    ) -> [(index: Int, owner: Int?)] {
        var byFingerprint: [ByteKey: Int] = [:]
        byFingerprint.reserveCapacity(tips.count)
        for index in tips.indices { byFingerprint[ByteKey(fingerprint(index))] = index }
        let current = byFingerprint
        // One pass on every core: each entry whose tip file is gone, and each tip some entry was checked against.
        // Entries of one tip follow each other (keys start with its id): a fingerprint equal to the entry before's is
        // looked up once.
        let passes = concurrentChunks(count: entries.count, chunkSize: 4096) { range -> (gone: [Int], seen: [Int]) in
            var gone: [Int] = []
            var seen: [Int] = []
            var previous: [UInt8]? = nil
            var previousGone = false
            for index in range {
                let against = entries[index].checkedAgainst
                if against.isEmpty { continue }
                if let previous, previous == against {
                    if previousGone { gone.append(index) }
                    continue
                }
                if let tip = current[ByteKey(against)] {
                    seen.append(tip)
                    previousGone = false
                } else {
                    gone.append(index)
                    previousGone = true
                }
                previous = against
            }
            return (gone, seen)
        }
        var seen = [Bool](repeating: false, count: tips.count)
        var gone: [Int] = []
        for pass in passes {
            for tip in pass.seen { seen[tip] = true }
            gone += pass.gone
        }
        // The keys whose tip may have changed: those of tips no entry was checked against, and of entries whose tip is gone.
        var candidates = Set<String>()
        for index in tips.indices where !seen[index] {
            tips[index].forEachLocalizableKey { candidates.insert($0) }
        }
        for index in gone { candidates.insert(entries[index].key) }
        guard !candidates.isEmpty else { return [] }
        let keys = candidates
        let owned = firstTips(tips, naming: keys.contains)
        return concurrentChunks(count: entries.count, chunkSize: 4096) { range -> [(index: Int, owner: Int?)] in
            var stale: [(index: Int, owner: Int?)] = []
            for index in range where keys.contains(entries[index].key) {
                let owner = owned[entries[index].key]
                if (owner.map(fingerprint) ?? []) != entries[index].checkedAgainst { stale.append((index, owner)) }
            }
            return stale
        }.joinedArrays()
    }

    private func decodeEntry(
        _ member: JSONMember, source: (text: LocalizedText, tip: Int)?, messages: MessageChecker, locales: inout LocaleCache
    ) -> LocalizationTable.Entry? {
        let key = member.key
        // A key no tip uses belongs to the app: whatever it holds is Xcode's business, so it is kept (for
        // `orphan-translation`) but neither decoded nor checked.
        guard let source else {
            var entry = unusedEntry(member)
            entry.isNamedByTip = false
            return entry
        }
        guard let reader = ObjectReader(member.value, in: document, subject: "string '\(key)'", sink: sink) else { return nil }
        reader.checkKeys(Keys.entry)
        if let (state, node) = reader.string("extractionState"), !Diagnostic.extractionStates.contains(state) {
            sink.add(.unknownExtractionState(state, key: key, at: document.location(of: node)))
        }
        _ = reader.bool("isCommentAutoGenerated")
        // `shouldTranslate: false`: the key is not expected to have translations, so their states are not reported.
        let shouldTranslate = reader.bool("shouldTranslate") ?? true
        var entry = LocalizationTable.Entry(
            comment: reader.string("comment")?.value, location: document.location(ofByte: member.keyOffset))
        entry.isNamedByTip = true
        guard let (localizations, localizationsNode) = reader.objectNode("localizations") else { return entry }
        // Only a file with a duplicate key anywhere has one here (the subject is then worth making).
        if !document.duplicateKeys().isEmpty {
            ObjectReader(localizationsNode, in: document, subject: "the localizations of '\(key)'", sink: sink)?.checkDuplicateKeys()
        }
        var context = Context(key: key, locale: settings.sourceLanguage, source: source.text, tip: source.tip, messages: messages,
                              reportsState: shouldTranslate)
        entry.translations.reserveCapacity(localizations.members.count)
        for localization in localizations.members {
            let parsed = locales.locale(localization.key)
            guard let locale = parsed else {
                sink.add(.invalidLocale(localization.key, inString: key, at: document.location(ofByte: localization.keyOffset)))
                continue
            }
            if let decoded = decodedLocales, !decoded.contains(locale) { continue }
            context.locale = locale
            var devices: [String: Translation] = [:]
            // Checked, translations keep their messages' texts only: their trees are made again when asked for.
            if let translation = decodeTranslation(localization.value, context, devices: &devices) {
                entry.translations.insert((consume translation).deferringTrees(), for: locale)
            }
            if !devices.isEmpty { entry.devices[locale] = devices.mapValues { $0.deferringTrees() } }
        }
        entry.translations.shareLocales(with: &locales.localeSets)
        return entry
    }

    /// `decodeEntry` for an entry in the shape `PlainEntry` reads (the key used by a tip): the same entry and the same
    /// findings, in the same order, from what the cursor read instead of a tree.
    fileprivate func decodePlainEntry(
        _ plain: PlainEntry, key: String, keyOffset: Int, source: (text: LocalizedText, tip: Int), messages: MessageChecker,
        locales: inout LocaleCache
    ) -> LocalizationTable.Entry {
        if let (state, offset) = plain.extractionState, !Diagnostic.extractionStates.contains(state) {
            sink.add(.unknownExtractionState(state, key: key, at: document.location(ofByte: offset)))
        }
        var entry = LocalizationTable.Entry(comment: plain.comment, location: document.location(ofByte: keyOffset))
        entry.isNamedByTip = true
        guard let units = plain.localizations else { return entry }
        var context = Context(key: key, locale: settings.sourceLanguage, source: source.text, tip: source.tip, messages: messages,
                              reportsState: plain.shouldTranslate ?? true)
        entry.translations.reserveCapacity(units.count)
        for unit in units {
            guard let locale = locales.locale(unit.locale) else {
                sink.add(.invalidLocale(unit.locale, inString: key, at: document.location(ofByte: unit.localeOffset)))
                continue
            }
            if let decoded = decodedLocales, !decoded.contains(locale) { continue }
            context.locale = locale
            let what = Self.subject(locale: locale.identifier, key: key, isSourceLanguage: locale == settings.sourceLanguage, device: nil)
            reportState(unit.state, at: JSONNode(.string(unit.state.rawValue), offset: unit.stateOffset), what: what, reportsState: context.reportsState)
            let valueNode = JSONNode(.string(unit.value), offset: unit.valueOffset)
            let state = valueState(unit.state, of: unit.value, at: valueNode, what: what, reportsState: context.reportsState)
            if let translation = unitTranslation(unit.value, at: valueNode, state: state, context, what: what, isVerbatim: unit.isVerbatim) {
                entry.translations.insert((consume translation).deferringTrees(), for: locale)
            }
        }
        entry.translations.shareLocales(with: &locales.localeSets)
        return entry
    }

    /// A key no tip uses: its location and comment, read without reporting anything.
    private func unusedEntry(_ member: JSONMember) -> LocalizationTable.Entry {
        var comment: String?
        if case .object(let object) = member.value.value, let node = object["comment"], case .string(let text) = node.value {
            comment = text
        }
        return LocalizationTable.Entry(comment: comment, location: document.location(ofByte: member.keyOffset))
    }

    /// The locales of the keys read so far, by key text: a String Catalog names the same dozen locales in every
    /// entry, compared faster than hashed.
    struct LocaleCache {
        private var known: [(key: String, locale: LocaleID?)] = []
        private var byKey: [String: LocaleID?] = [:]
        /// The sets of locales entries have had, shared by the entries with the same (`LocaleMap.shareLocales`).
        var localeSets: [[LocaleID]] = []

        /// `LocaleID(key)`, parsed once per distinct key.
        mutating func locale(_ key: String) -> LocaleID? {
            for entry in known where entry.key == key { return entry.locale }
            if let cached = byKey[key] { return cached }
            let parsed = LocaleID(key)
            // The first few dozen are scanned; a catalog with more locales hashes the rest.
            if known.count < 32 { known.append((key, parsed)) } else { byKey[key] = parsed }
            return parsed
        }
    }

    /// What one localization of a key used by a tip is checked against.
    private struct Context {
        let key: String
        var locale: LocaleID
        let source: LocalizedText
        /// The index of the text's tip in `tips`.
        let tip: Int
        let messages: MessageChecker
        /// False for `shouldTranslate: false` keys: their states (`new`, …) are not reported.
        let reportsState: Bool
    }

    /// The keys each kind of object may have (made once: entries and translations are many).
    private enum Keys {
        static let entry = ["comment", "extractionState", "isCommentAutoGenerated", "localizations", "shouldTranslate"]
        static let translation = ["stringUnit", "substitutions", "variations"]
        static let stringUnit = ["state", "value"]
        static let pluralForm = ["stringUnit"]
        static let states = Translation.State.allCases.map { ($0.rawValue, $0) }
    }

    /// Whether `value` is empty once spaces, tabs and line breaks are trimmed (`trimmingWhitespace()`), without
    /// making the trimmed copy in the usual case of a value with a byte that is none of them.
    private static func isBlank(_ value: String) -> Bool {
        let hasOtherByte = value.utf8.contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        return !hasOtherByte && value.trimmingWhitespace().isEmpty
    }

    /// The devices of `variations.device`.
    static let devices = ["appletv", "applevision", "applewatch", "ipad", "iphone", "mac", "other"]

    /// What a translation is called in findings — "the 'fr' translation of 'Tip.title'" ("string" in the source
    /// language), then " (mac)" for a device variation — built in one allocation: it is made for each of a
    /// catalog's hundreds of thousands of translations, finding or not.
    static func subject(locale: String, key: String, isSourceLanguage: Bool, device: String?) -> String {
        var (locale, key) = (locale, key)
        let kind: StaticString = isSourceLanguage ? "' string of '" : "' translation of '"
        let total = 5 + locale.utf8.count + kind.utf8CodeUnitCount + key.utf8.count + 1 + (device.map { $0.utf8.count + 3 } ?? 0)
        return String(unsafeUninitializedCapacity: total) { buffer in
            var end = 0
            func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                guard let base = buffer.baseAddress, let source = bytes.baseAddress, end + bytes.count <= buffer.count else { return }
                (base + end).initialize(from: source, count: bytes.count)
                end += bytes.count
            }
            ("the '" as StaticString).withUTF8Buffer(put)
            locale.withUTF8(put)
            kind.withUTF8Buffer(put)
            key.withUTF8(put)
            ("'" as StaticString).withUTF8Buffer(put)
            if var device {
                (" (" as StaticString).withUTF8Buffer(put)
                device.withUTF8(put)
                (")" as StaticString).withUTF8Buffer(put)
            }
            return end
        }
    }

    /// One localization's plain translation (nil when it has none), its device variations (`variations.device`,
    /// each with the same shape without nested device variations) decoded into `devices`. With `device`, one
    /// device's variation; `inheritedSubstitutions` are the localization's `substitutions`, which its device
    /// variations' values may use as `%#@name@`.
    private func decodeTranslation(
        _ node: JSONNode, _ context: Context, device: String? = nil, inheritedSubstitutions: JSONNode? = nil,
        devices: inout [String: Translation]
    ) -> Translation? {
        // The context's parts are read in place: copying the source text (its parsed message, its location) for
        // every translation would cost reference counting on every core.
        let isSourceLanguage = context.locale == settings.sourceLanguage
        let what = Self.subject(locale: context.locale.identifier, key: context.key, isSourceLanguage: isSourceLanguage, device: device)
        guard let reader = ObjectReader(node, in: document, subject: what, sink: sink) else { return nil }
        reader.checkKeys(Keys.translation)
        let ownSubstitutions = reader.node("substitutions", required: false)
        if device == nil, let variationsNode = reader.object["variations"], case .object(let variations) = variationsNode.value,
           let deviceNode = variations["device"] {
            guard let variationsReader = ObjectReader(variationsNode, in: document, subject: "the variations of \(what)", sink: sink),
                  let deviceReader = ObjectReader(deviceNode, in: document, subject: "the device variations of \(what)", sink: sink)
            else { return nil }
            variationsReader.checkKeys(["device", "plural"])
            deviceReader.checkKeys(Self.devices)
            for member in deviceReader.object.members where Self.devices.contains(member.key) {
                var nested: [String: Translation] = [:]
                if let translation = decodeTranslation(member.value, context, device: member.key, inheritedSubstitutions: ownSubstitutions,
                                                       devices: &nested) {
                    devices[member.key] = translation
                }
            }
            // Beside device variations, only a `stringUnit` is a plain string (Xcode writes none).
            guard reader.object["stringUnit"] != nil else { return nil }
        }
        // The localization's substitutions, for a device variation whose value uses them (checked only then: the
        // common case, no substitutions at all, costs nothing).
        let inherited = inheritedSubstitutions.flatMap { Self.usesSubstitutions(reader.object) ? $0 : nil }
        if let substitutions = ownSubstitutions ?? inherited {
            return decodeSubstitutions(reader, substitutions, context, what: what)
        }
        if let (_, unitNode) = reader.objectNode("stringUnit") {
            guard let (text, valueNode, state) = stringUnit(unitNode, what: what, reportsState: context.reportsState) else { return nil }
            return unitTranslation(text, at: valueNode, state: state, context, what: what, isVerbatim: document.isVerbatimString(valueNode))
        }
        if let (_, variationsNode) = reader.objectNode("variations") {
            guard let variationsReader = ObjectReader(variationsNode, in: document, subject: "the variations of \(what)", sink: sink) else { return nil }
            variationsReader.checkKeys(device == nil ? ["device", "plural"] : ["plural"])
            guard let (_, pluralNode) = variationsReader.objectNode("plural") else { return nil }
            return decodePluralVariation(pluralNode, context, what: what)
        }
        sink.add(.missingTranslationValue(what, at: reader.location))
        return nil
    }

    /// The translation of a `stringUnit` whose value is `text` (at `valueNode`), checked against the source text.
    private func unitTranslation(
        _ text: String, at valueNode: JSONNode, state: Translation.State, _ context: Context, what: String, isVerbatim: Bool
    ) -> Translation? {
        let isSourceLanguage = context.locale == settings.sourceLanguage
        let message: Message
        if let format = PrintfFormat.parse(text) {
            guard let converted = printfMessage(format, node: valueNode, context, what: what, pluralArgument: nil) else { return nil }
            message = converted
        } else {
            guard let parsed = context.messages.parse(text, node: valueNode, in: document, what: what, sink: sink) else { return nil }
            message = parsed
            if let sourceMessage = context.source.message {
                if !Self.samePlaceholderPaths(message, sourceMessage) {
                    comparePlaceholders(message.placeholderPaths, with: sourceMessage, node: valueNode, what: what)
                }
                checkAbsentCases(message, source: sourceMessage, node: valueNode, what: what)
            }
        }
        if isSourceLanguage, text != context.source.source {
            sink.add(.sourceTextMismatch(what, catalogText: text, tipText: context.source.source, at: document.location(of: valueNode)))
        }
        context.messages.checkPluralCoverage(message, locale: context.locale, node: valueNode, in: document, what: what, sink: sink)
        return Translation(content: .message(message), state: state, location: document.location(of: valueNode), isVerbatim: isVerbatim)
    }

    /// Whether a translation's `stringUnit` value uses `%#@name@` substitutions.
    private static func usesSubstitutions(_ translation: JSONObject) -> Bool {
        guard case .object(let unit)? = translation["stringUnit"]?.value, case .string(let value)? = unit["value"]?.value else { return false }
        return value.contains("%#@")
    }

    private func stringUnit(_ node: JSONNode, what: String, reportsState: Bool) -> (String, JSONNode, Translation.State)? {
        guard let unit = ObjectReader(node, in: document, subject: what, prefix: "the stringUnit of ", sink: sink) else { return nil }
        unit.checkKeys(Keys.stringUnit)
        let stateNode = unit.object["state"]
        // Without a `state`, Xcode counts a unit as translated only when it has a value: no value is no
        // translation (and no error).
        if stateNode == nil, unit.object["value"] == nil { return nil }
        let state = unit.choice("state", Keys.states) ?? .translated
        if let stateNode { reportState(state, at: stateNode, what: what, reportsState: reportsState) }
        guard let (value, valueNode) = unit.string("value", required: true) else { return nil }
        return (value, valueNode, valueState(state, of: value, at: valueNode, what: what, reportsState: reportsState))
    }

    /// Reports a unit's state other than `translated` (for keys that are to be translated).
    private func reportState(_ state: Translation.State, at node: JSONNode, what: String, reportsState: Bool) {
        if reportsState, state != .translated { sink.add(.notTranslated(what, state: state.rawValue, at: document.location(of: node))) }
    }

    /// A unit's state once its value is known: an empty translation is never shown (the source text is, as for an
    /// untranslated unit), so it counts as new, and is reported.
    private func valueState(_ state: Translation.State, of value: String, at node: JSONNode, what: String, reportsState: Bool) -> Translation.State {
        guard state == .translated, Self.isBlank(value) else { return state }
        if reportsState { sink.add(.emptyTranslation(what, at: document.location(of: node))) }
        return .new
    }

    private func decodePluralVariation(_ node: JSONNode, _ context: Context, what: String) -> Translation? {
        let (locale, source, messages) = (context.locale, context.source, context.messages)
        guard let plural = ObjectReader(node, in: document, subject: "the plural variations of \(what)", sink: sink) else { return nil }
        let categories = PluralCategory.allCases.map(\.rawValue)
        plural.checkKeys(categories)
        let sourcePlurals = source.message?.pluralArguments ?? []
        guard let sourceMessage = source.message else { return nil }
        guard sourcePlurals.count == 1, let argument = sourcePlurals.first else {
            sink.add(.unexpectedPluralVariation(what, sourcePlurals: sourcePlurals.count, at: plural.location))
            return nil
        }
        var forms: [String: Message] = [:]
        var state = Translation.State.translated
        var used = Set<String>([argument.path])
        for member in plural.object.members where categories.contains(member.key) {
            guard let (text, valueNode, formState) = stringUnitWrapper(member.value, what: "\(what) (\(member.key))", reportsState: context.reportsState)
            else { continue }
            if formState != .translated { state = formState }
            let formWhat = "\(what) (\(member.key))"
            let parsed = if let format = PrintfFormat.parse(text) {
                printfMessage(format, node: valueNode, context, what: formWhat, pluralArgument: argument.path)
            } else {
                messages.parse(text, node: valueNode, in: document, what: formWhat, sink: sink, pluralForm: true)
            }
            guard let message = parsed else { continue }
            used.formUnion(message.placeholderPaths)
            forms[member.key] = message
        }
        // As Foundation does: a missing category falls back to `other` (a warning); without `other` the
        // variation cannot be rendered (an error, and the source text is shown).
        let needed = PluralRules.categories(for: locale).map(\.rawValue)
        let missing = needed.filter { forms[$0] == nil && plural.object[$0] == nil }
        let fallback = missing.filter { $0 != PluralCategory.other.rawValue }
        if !fallback.isEmpty {
            sink.add(.pluralVariationFallback(in: what, missing: fallback, locale: locale, at: plural.location))
        }
        if plural.object[PluralCategory.other.rawValue] == nil {
            sink.add(.missingPluralVariation(in: what, missing: [PluralCategory.other.rawValue], locale: locale, at: plural.location))
            return nil
        }
        comparePlaceholders(used, with: sourceMessage, node: node, what: what, inString: false)
        return Translation(content: .plural(argument: argument.path, forms: forms), state: state, location: plural.location)
    }

    private func stringUnitWrapper(_ node: JSONNode, what: String, reportsState: Bool) -> (String, JSONNode, Translation.State)? {
        guard let form = ObjectReader(node, in: document, subject: what, sink: sink) else { return nil }
        form.checkKeys(Keys.pluralForm)
        guard let (_, unitNode) = form.objectNode("stringUnit", required: true) else { return nil }
        return stringUnit(unitNode, what: what, reportsState: reportsState)
    }

    /// A printf-style value as a message: each specifier is the source text's placeholder at its position
    /// (`%2$lld` is the second), of a fitting type; in a plural form the plural argument becomes `#`. Nil after
    /// reporting when they do not fit.
    private func printfMessage(_ format: PrintfFormat, node: JSONNode, _ context: Context, what: String, pluralArgument: String?) -> Message? {
        let (paths, kinds) = sourcePlaceholders(context)
        var (used, fits) = checkSpecifiers(format.specifiers, paths: paths, kinds: kinds, node: node, context, what: what)
        // A plural form may leave placeholders out (the forms together are compared with the source text).
        if pluralArgument == nil, !reportMissingArguments(used: used, paths: paths, node: node, what: what) { fits = false }
        guard fits else { return nil }
        let text = format.message(paths: paths, pluralForm: pluralArgument != nil, pluralArgument: pluralArgument)
        do {
            return try pluralArgument != nil ? Message.parsePluralForm(text) : Message.parse(text)
        } catch {
            sink.add(.messageSyntax(error.message, in: what, at: document.location(of: node)))
            return nil
        }
    }

    /// The source text's placeholder paths in source order (each once), and how each is used.
    private func sourcePlaceholders(_ context: Context) -> (paths: [String], kinds: [String: Placeholder.Kind]) {
        var paths: [String] = []
        var kinds: [String: Placeholder.Kind] = [:]
        for placeholder in context.source.message?.placeholders ?? [] where kinds[placeholder.path] == nil {
            paths.append(placeholder.path)
            kinds[placeholder.path] = placeholder.kind
        }
        return (paths, kinds)
    }

    /// Reports specifiers past the source's placeholders or of a type that does not fit; returns the argument
    /// indices used and whether all fit.
    private func checkSpecifiers(
        _ specifiers: [PrintfFormat.Specifier], paths: [String], kinds: [String: Placeholder.Kind], node: JSONNode,
        _ context: Context, what: String
    ) -> (used: Set<Int>, fits: Bool) {
        var fits = true
        var used = Set<Int>()
        let locator = specifiers.isEmpty ? nil : JSONStringLocator(node, in: document)
        for specifier in specifiers {
            var location: SourceLocation { locator?.location(atUTF8Offset: specifier.offset) ?? document.location(of: node) }
            guard specifier.index < paths.count else {
                sink.add(.printfArgumentOutOfRange(specifier.text, index: specifier.index, in: what, paths: paths, at: location))
                fits = false
                continue
            }
            used.insert(specifier.index)
            let path = paths[specifier.index]
            guard let type = tips[context.tip].parameterType(atPath: path), let kindText = Self.misfit(specifier.kind, type: type, kind: kinds[path]) else { continue }
            sink.add(.printfTypeMismatch(specifier.text, formats: kindText, path: path, type: "\(type)", in: what, at: location))
            fits = false
        }
        return (used, fits)
    }

    /// What `kind` formats, when a value of `type` does not fit it.
    private static func misfit(_ kind: PrintfFormat.Kind, type: ValueType, kind usage: Placeholder.Kind?) -> String? {
        switch kind {
        case .object where type.isNumeric || usage == .plural: "an object (a string)"
        case .integer where type != .int: "an integer"
        case .double where type != .double: "a floating-point number"
        default: nil
        }
    }

    /// Reports the source's placeholders no argument formats; false when there are some.
    private func reportMissingArguments(used: Set<Int>, paths: [String], node: JSONNode, what: String) -> Bool {
        let missing = paths.indices.filter { !used.contains($0) }.map { (index: $0, path: paths[$0]) }
        guard !missing.isEmpty else { return true }
        sink.add(.printfMissingArguments(in: what, missing: missing, at: document.location(of: node)))
        return false
    }

    /// A `stringUnit` whose value uses `%#@name@` substitutions, each a plural of the source placeholder at its
    /// `argNum` (`%arg` in a form is that number), as one message: `{count, plural, one {…} other {…}}`.
    private func decodeSubstitutions(_ reader: ObjectReader, _ node: JSONNode, _ context: Context, what: String) -> Translation? {
        guard let (_, unitNode) = reader.objectNode("stringUnit"),
              let (text, valueNode, unitState) = stringUnit(unitNode, what: what, reportsState: context.reportsState) else {
            // Substitutions without a value of their own: read, not rendered.
            sink.add(.unsupportedSubstitutions(in: what, at: document.location(of: node)))
            return nil
        }
        guard let format = PrintfFormat.parse(text, substitutions: true), !format.substitutions.isEmpty else {
            sink.add(.unsupportedSubstitutions(in: what, at: document.location(of: node)))
            return nil
        }
        guard let substitutions = ObjectReader(node, in: document, subject: "the substitutions of \(what)", sink: sink) else { return nil }
        let (paths, kinds) = sourcePlaceholders(context)
        var (used, fits) = checkSpecifiers(format.specifiers, paths: paths, kinds: kinds, node: valueNode, context, what: what)
        var state = unitState
        var plurals: [String: String] = [:]
        for name in format.substitutions where plurals[name] == nil {
            guard let substitutionNode = substitutions.object[name] else {
                sink.add(.undefinedSubstitution(name, in: what, at: document.location(of: valueNode)))
                fits = false
                continue
            }
            guard let (plural, argument, formState) = decodeSubstitution(
                substitutionNode, name: name, paths: paths, kinds: kinds, context, what: "the substitution '\(name)' of \(what)")
            else {
                fits = false
                continue
            }
            used.insert(argument)
            plurals[name] = plural
            if formState != .translated { state = formState }
        }
        // Only once every substitution is read: a broken one has already been reported.
        guard fits, reportMissingArguments(used: used, paths: paths, node: valueNode, what: what) else { return nil }
        let message: Message
        do {
            message = try Message.parse(format.message(paths: paths, pluralForm: false, pluralArgument: nil, substitutions: plurals))
        } catch {
            sink.add(.messageSyntax(error.message, in: what, at: document.location(of: valueNode)))
            return nil
        }
        return Translation(content: .message(message), state: state, location: document.location(of: valueNode))
    }

    /// One substitution as `{path, plural, …}` text, the 0-based index of its argument and the forms' state.
    private func decodeSubstitution(
        _ node: JSONNode, name: String, paths: [String], kinds: [String: Placeholder.Kind], _ context: Context, what: String
    ) -> (String, Int, Translation.State)? {
        guard let substitution = ObjectReader(node, in: document, subject: what, sink: sink) else { return nil }
        substitution.checkKeys(["argNum", "formatSpecifier", "variations"])
        guard let argNum = substitution.int("argNum", required: true, in: 1...99),
              let (specifierText, specifierNode) = substitution.string("formatSpecifier", required: true),
              let (_, variationsNode) = substitution.objectNode("variations", required: true),
              let variations = ObjectReader(variationsNode, in: document, subject: "the variations of \(what)", sink: sink)
        else { return nil }
        variations.checkKeys(["plural"])
        guard let (_, pluralNode) = variations.objectNode("plural", required: true),
              let plural = ObjectReader(pluralNode, in: document, subject: "the plural variations of \(what)", sink: sink)
        else { return nil }
        let index = argNum - 1
        var fits = true
        let specifierLocation = document.location(of: specifierNode)
        if index >= paths.count {
            sink.add(.printfArgumentOutOfRange("%#@\(name)@", index: index, in: what, paths: paths, at: specifierLocation))
            return nil
        }
        let path = paths[index]
        if let kind = PrintfFormat.parse("%" + specifierText)?.specifiers.first?.kind, kind != .object {
            if let type = tips[context.tip].parameterType(atPath: path), let misfit = Self.misfit(kind, type: type, kind: kinds[path]) {
                sink.add(.printfTypeMismatch("%" + specifierText, formats: misfit, path: path, type: "\(type)", in: what, at: specifierLocation))
                fits = false
            }
        } else {
            sink.add(.printfUnusableSpecifier(specifierText, in: what, at: specifierLocation))
            fits = false
        }
        let categories = PluralCategory.allCases.map(\.rawValue)
        plural.checkKeys(categories)
        var forms: [String: String] = [:]
        var state = Translation.State.translated
        for member in plural.object.members where categories.contains(member.key) {
            let formWhat = "\(what) (\(member.key))"
            guard let (text, valueNode, formState) = stringUnitWrapper(member.value, what: formWhat, reportsState: context.reportsState)
            else { fits = false; continue }
            if formState != .translated { state = formState }
            let format = PrintfFormat.parse(text, substitutionForm: true) ?? PrintfFormat(pieces: [.text(text)], specifiers: [])
            if !checkSpecifiers(format.specifiers, paths: paths, kinds: kinds, node: valueNode, context, what: formWhat).fits { fits = false }
            forms[member.key] = format.message(paths: paths, pluralForm: true, pluralArgument: nil)
        }
        let missing = PluralRules.categories(for: context.locale).map(\.rawValue).filter { plural.object[$0] == nil }
        let fallback = missing.filter { $0 != PluralCategory.other.rawValue }
        if !fallback.isEmpty {
            sink.add(.pluralVariationFallback(in: what, missing: fallback, locale: context.locale, at: plural.location))
        }
        if plural.object[PluralCategory.other.rawValue] == nil {
            sink.add(.missingPluralVariation(in: what, missing: [PluralCategory.other.rawValue], locale: context.locale, at: plural.location))
            fits = false
        }
        guard fits else { return nil }
        // As for plural variations, a zero form is used for 0 in every language.
        var cases = forms[PluralCategory.zero.rawValue].map { ["=0 {\($0)}"] } ?? []
        cases += categories.compactMap { category in forms[category].map { "\(category) {\($0)}" } }
        return ("{\(path), plural, " + cases.joined(separator: " ") + "}", index, state)
    }

    /// A translation needs a text for nil wherever the source text has one (`{x, select, nil {…} …}`): the
    /// argument may be absent there.
    private func checkAbsentCases(_ message: Message, source: Message, node: JSONNode, what: String) {
        let absent = source.pathsWithAbsentCase
        guard !absent.isEmpty else { return }
        let unhandled = message.placeholdersWithoutAbsentCase(mayBeAbsent: absent.contains)
        guard !unhandled.isEmpty else { return }
        let locator = JSONStringLocator(node, in: document)
        for placeholder in unhandled {
            let path = Message.prefixesOfPath(placeholder.path).first(where: absent.contains) ?? placeholder.path
            sink.add(.optionalPlaceholder(placeholder.path, in: what, absent: path, type: nil,
                                          at: locator.location(atUTF8Offset: placeholder.offset)))
        }
    }

    /// Whether both messages use their placeholders in the same order, so their `placeholderPaths` are equal (a
    /// check without building the sets; false says nothing).
    private static func samePlaceholderPaths(_ message: Message, _ source: Message) -> Bool {
        let (mine, theirs) = (message.placeholders, source.placeholders)
        guard mine.count == theirs.count else { return false }
        for index in mine.indices where mine[index].path != theirs[index].path { return false }
        return true
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

/// An entry of a String Catalog in the shape Xcode writes for a key with plain translations, read in place by a
/// `JSONCursor` instead of parsed into a tree (most entries of a large catalog; the tree of each cost a tenth of a
/// first publish): an object of the entry keys `decodeEntry` knows, each once and of its type, whose
/// `localizations` are each `{"stringUnit": {"state": …, "value": …}}` with a known state. Anything else — variations,
/// substitutions, a key written twice, an unknown key or state, a wrong type, escapes in a key, invalid JSON — reads
/// as nil, and the entry is parsed and decoded as usual, which reports what is there.
struct PlainEntry {
    var comment: String?
    /// The text and the offset of its opening quote.
    var extractionState: (String, Int)?
    var shouldTranslate: Bool?
    /// Nil without `localizations`.
    var localizations: [Unit]?

    /// One localization's `stringUnit`.
    struct Unit {
        var locale: String
        var localeOffset: Int
        var state: Translation.State
        var stateOffset: Int
        var value: String
        var valueOffset: Int
        /// Whether the file holds the value byte for byte (no escapes).
        var isVerbatim: Bool
    }

    static func read(_ cursor: inout JSONCursor) -> PlainEntry? {
        guard cursor.enterObject() else { return nil }
        var entry = PlainEntry()
        // The keys read so far, one bit each: a key written twice is left to the tree (which reports it).
        var seen = 0
        func once(_ bit: Int) -> Bool {
            defer { seen |= bit }
            return seen & bit == 0
        }
        while true {
            switch cursor.nextMember() {
            case .end: return entry
            case .other: return nil
            case .key(let key):
                if cursor.key(key, is: "localizations") {
                    guard once(1), let units = readLocalizations(&cursor) else { return nil }
                    entry.localizations = units
                } else if cursor.key(key, is: "extractionState") {
                    guard once(2), let (text, offset, _) = cursor.string() else { return nil }
                    entry.extractionState = (text, offset)
                } else if cursor.key(key, is: "comment") {
                    guard once(4), let (text, _, _) = cursor.string() else { return nil }
                    entry.comment = text
                } else if cursor.key(key, is: "shouldTranslate") {
                    guard once(8), let value = cursor.bool() else { return nil }
                    entry.shouldTranslate = value
                } else if cursor.key(key, is: "isCommentAutoGenerated") {
                    guard once(16), cursor.bool() != nil else { return nil }
                } else {
                    return nil
                }
            }
        }
    }

    /// `{"<locale>": {"stringUnit": {"state": …, "value": …}}, …}`, each locale once.
    private static func readLocalizations(_ cursor: inout JSONCursor) -> [Unit]? {
        guard cursor.enterObject() else { return nil }
        // Room for the dozen locales of a typical catalog, made once.
        var units: [Unit] = []
        units.reserveCapacity(16)
        var keys: [JSONCursor.Key] = []
        keys.reserveCapacity(16)
        while true {
            switch cursor.nextMember() {
            case .end: return units
            case .other: return nil
            case .key(let locale):
                if keys.contains(where: { cursor.key(locale, equals: $0) }) { return nil }
                keys.append(locale)
                guard cursor.enterObject(), case .key(let unitKey) = cursor.nextMember(), cursor.key(unitKey, is: "stringUnit"),
                      cursor.enterObject() else { return nil }
                var state: (Translation.State, Int)?
                var value: (text: String, offset: Int, verbatim: Bool)?
                members: while true {
                    switch cursor.nextMember() {
                    case .end: break members
                    case .other: return nil
                    case .key(let key):
                        if cursor.key(key, is: "state"), state == nil, let (text, offset, _) = cursor.string(),
                           let known = Translation.State(rawValue: text) {
                            state = (known, offset)
                        } else if cursor.key(key, is: "value"), value == nil, let read = cursor.string() {
                            value = read
                        } else {
                            return nil
                        }
                    }
                }
                // Only the `stringUnit` in the localization, with both its members.
                guard case .end = cursor.nextMember(), let (state, stateOffset) = state, let value else { return nil }
                units.append(Unit(locale: cursor.text(of: locale), localeOffset: locale.offset, state: state, stateOffset: stateOffset,
                                  value: value.text, valueOffset: value.offset, isVerbatim: value.verbatim))
            }
        }
    }
}
