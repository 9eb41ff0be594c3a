import TipcatCatalog
import TipcatCore
import TipcatLocalization
#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a `StringsDecoding` kept between loads (`StringsCacheDirectory` writes one per String Catalog).
///
/// Layout: the magic `TCSTRCCH`, the format (4 bytes), the String Catalog's fingerprint and the context's
/// (32 bytes each), the payload's length and checksum (8 bytes each), then the payload: the leading findings,
/// the duplicate keys, and the entries in runs of `runLength`, each run's byte length and `FastChecksum` first,
/// so that runs are checked and decoded on every core. A run starts with the locales its entries name, which
/// they name by index. The header's checksum covers everything but the runs' bytes (their checksums included).
/// A file with another magic, format, fingerprint or context, a wrong length or checksum, or anything
/// inconsistent inside is refused whole: the String Catalog is then decoded as if there were no cache.
enum StringsCacheFile {
    static let magic = Array("TCSTRCCH".utf8)
    /// Bump whenever what is written changes (both cache files' format).
    static let format: UInt32 = 5
    static let runLength = 512
    /// The main file's header, for a fingerprint and a context of 32 bytes (SHA-256 digests).
    static let headerLength = headerLength([32, 32])

    /// The length of a header with fields of these lengths (see `header`).
    static func headerLength(_ fields: [Int]) -> Int { 8 + 4 + fields.reduce(0, +) + 8 + 8 }

    /// A cache file's header: `magic`, the format (4 bytes), `fields` as they are, then the payload's length and
    /// checksum (8 bytes each).
    static func header(_ magic: [UInt8], _ fields: [[UInt8]], length: Int, checksum: UInt64) -> [UInt8] {
        var header = magic
        LittleEndian.append(UInt64(format), bytes: 4, to: &header)
        for field in fields { header += field }
        LittleEndian.append(UInt64(length), bytes: 8, to: &header)
        LittleEndian.append(checksum, bytes: 8, to: &header)
        return header
    }

    /// The payload's length and checksum, and the header's length, when `bytes` start with the header `header`
    /// writes for `magic`, this format and exactly `fields`; nil otherwise.
    static func checkHeader(_ bytes: UnsafeRawBufferPointer, _ magic: [UInt8], _ fields: [[UInt8]]) -> (length: Int, checksum: UInt64, size: Int)? {
        let size = headerLength(fields.map(\.count))
        guard bytes.count >= size, bytes.starts(with: magic), LittleEndian.word(bytes, at: magic.count, bytes: 4) == UInt64(format)
        else { return nil }
        var offset = magic.count + 4
        for field in fields {
            guard bytes[offset..<(offset + field.count)].elementsEqual(field) else { return nil }
            offset += field.count
        }
        let length = LittleEndian.word(bytes, at: offset, bytes: 8)
        guard length <= UInt64(Int.max / 2) else { return nil }
        return (Int(length), LittleEndian.word(bytes, at: offset + 8, bytes: 8), size)
    }

    /// The header's length and the payload's checksum, when `bytes` are a header `checkHeader` accepts followed
    /// by exactly the payload it announces, whose checksum is the one it holds; nil otherwise.
    static func checkedPayload(_ bytes: UnsafeRawBufferPointer, _ magic: [UInt8], _ fields: [[UInt8]]) -> (headerLength: Int, checksum: UInt64)? {
        guard let (length, checksum, headerLength) = checkHeader(bytes, magic, fields), length == bytes.count - headerLength,
              FastChecksum.of(UnsafeRawBufferPointer(rebasing: bytes[headerLength...])) == checksum
        else { return nil }
        return (headerLength, checksum)
    }

    /// The file for `decoding`, given to `write` a piece at a time after the header: the runs are encoded on every
    /// core a batch at a time, so no copy of the whole file is ever held. Returns the header (`headerLength`
    /// bytes, for the file's start) and the file's checksum; nil when `write` fails.
    static func encode(
        _ decoding: StringsDecoding, path: String, file: [UInt8], context: [UInt8], write: (ArraySlice<UInt8>) -> Bool
    ) -> (header: [UInt8], checksum: UInt64)? {
        var prefix = BinaryWriter()
        prefix.diagnostics(decoding.leadingFindings, path: path)
        prefix.count(decoding.duplicates.count)
        for duplicate in decoding.duplicates {
            prefix.string(duplicate.key)
            prefix.location(duplicate.location, path: path)
            prefix.location(duplicate.first, path: path)
        }
        let entries = decoding.entries
        prefix.count(entries.count)
        guard let (length, checksum) = CacheRuns.write(
            prefix: prefix.bytes, count: entries.count, runLength: runLength,
            encode: { range in encodeEntries(entries, range, path: path) }, write: write)
        else { return nil }
        return (header(magic, [file, context], length: length, checksum: checksum), checksum)
    }

    /// Entries with the locales they name first, sorted (named by index after): equal entries give equal bytes.
    static func encodeEntries(_ entries: [StringsDecoding.Entry], path: String) -> [UInt8] {
        encodeEntries(entries, entries.indices, path: path)
    }

    /// `encodeEntries` of `entries[range]`, read where they are (a copy of the range would retain all they hold).
    static func encodeEntries(_ entries: [StringsDecoding.Entry], _ range: Range<Int>, path: String) -> [UInt8] {
        var named = Set<LocaleID>()
        // Entries mostly share one array of locales: each array is added once, when it differs from the last.
        var last: [LocaleID] = []
        func add(_ locales: [LocaleID]) {
            guard !locales.isEmpty, !locales.isSameArray(as: last) else { return }
            named.formUnion(locales)
            last = locales
        }
        for index in range where entries[index].entry != nil {
            add(entries[index].entry?.translationLocales ?? [])
            add(entries[index].entry?.deviceLocales ?? [])
        }
        let identifiers = named.map(\.identifier).sorted()
        var slots = LocaleSlots()
        for locale in named { slots.byLocale[locale] = identifiers.firstIndex(of: locale.identifier) }
        var writer = BinaryWriter()
        writer.count(identifiers.count)
        for identifier in identifiers { writer.string(identifier) }
        for index in range { writer.entry(entries[index], path: path, locales: &slots) }
        return writer.bytes
    }

    /// Reads what `encodeEntries` wrote, `count` entries.
    static func decodeEntries(_ reader: inout BinaryReader, count: Int, path: String) throws(BinaryDecodingError) -> [StringsDecoding.Entry] {
        var entries: [StringsDecoding.Entry] = []
        entries.reserveCapacity(count)
        try decodeEntries(&reader, count: count, path: path) { entries.append($0) }
        return entries
    }

    /// `decodeEntries`, each entry given to `emit` as it is read.
    static func decodeEntries(
        _ reader: inout BinaryReader, count: Int, path: String, _ emit: (StringsDecoding.Entry) -> Void
    ) throws(BinaryDecodingError) {
        var locales: [LocaleID] = []
        for _ in 0..<(try reader.count()) {
            guard let locale = LocaleID(try reader.string()) else { throw BinaryDecodingError("an invalid locale") }
            locales.append(locale)
        }
        var state = EntryReading(locales: locales, path: path)
        for _ in 0..<count { emit(try reader.entry(path: path, state: &state)) }
    }

    /// What reading a run of entries shares: the file's locales, the entries' lists of locales (one array for
    /// each run of entries with the same list, as a decoded String Catalog shares them), and one function that
    /// decodes any entry's translations when asked for (a function for each entry would be an allocation each).
    struct EntryReading {
        let locales: [LocaleID]
        let decode: @Sendable (FileBytes, Range<Int>, [LocaleID], [LocaleID]) -> DeferredTranslations.Decoded
        var lastSlots: [Int] = []
        var lastList: [LocaleID] = []
        var slots: [Int] = []

        init(locales: [LocaleID], path: String) {
            self.locales = locales
            decode = { bytes, range, plain, devices in
                var reader = BinaryReader(bytes)
                reader.position = range.lowerBound
                // The run was checked whole, so a failure here is a bug, not damage.
                return (try? reader.translations(path: path, locales: plain, devices: devices)) ?? ([:], [:])
            }
        }
    }

    /// The decoding `bytes` hold for `file` and `context` at `path`, with the file's checksum (what a delta file
    /// is bound to); nil when they are anything else.
    /// Read in place: the entries' translations stay in `source` until asked for.
    static func decode(_ source: FileBytes, path: String, file: [UInt8], context: [UInt8]) -> (decoding: StringsDecoding, checksum: UInt64)? {
        let bytes = source.buffer
        guard let (length, checksum, headerLength) = checkHeader(bytes, magic, [file, context]), bytes.count == headerLength + length
        else { return nil }
        var reader = BinaryReader(source)
        reader.position = headerLength
        do {
            let leading = try reader.diagnostics(path: path)
            var duplicates: [StringsDecoding.Duplicate] = []
            for _ in 0..<(try reader.count()) {
                duplicates.append(StringsDecoding.Duplicate(
                    key: try reader.string(), location: try reader.location(path: path), first: try reader.location(path: path)))
            }
            let entryCount = try reader.index()
            guard let runTable = try CacheRuns.read(&reader, prefixStart: headerLength, count: entryCount, runLength: runLength, checksum: checksum)
            else { return nil }
            // Each run decoded into its place in the entries, on every core (one run for each `runLength` entries, as
            // the chunks are).
            let entries = concurrentArray(count: entryCount, chunkSize: runLength) { (range, emit: (StringsDecoding.Entry) -> Void) -> Bool in
                let run = runTable[range.lowerBound / runLength]
                guard var reader = CacheRuns.checkedRun(run, in: source) else { return false }
                do {
                    try decodeEntries(&reader, count: range.count, path: path, emit)
                } catch {
                    return false
                }
                // The run's pages are given back: its entries' translations are read from it again if asked for.
                source.releasePages(in: run.range)
                return reader.position == run.range.upperBound
            }
            guard let entries else { return nil }
            return (StringsDecoding(leadingFindings: leading, entries: entries, duplicates: duplicates), checksum)
        } catch {
            return nil
        }
    }

    // MARK: Delta files

    static let deltaMagic = Array("TCSTRDLT".utf8)

    /// A delta file: `entries` (by index) that replace those of the main file whose payload has `checksum`.
    static func encodeDelta(_ entries: [(Int, StringsDecoding.Entry)], path: String, file: [UInt8], context: [UInt8], checksum: UInt64) -> [UInt8] {
        var payload = BinaryWriter()
        payload.count(entries.count)
        for (index, _) in entries { payload.count(index) }
        payload.bytes += encodeEntries(entries.map(\.1), path: path)
        return header(deltaMagic, [binding(checksum), file, context], length: payload.bytes.count, checksum: FastChecksum.of(payload.bytes[...]))
            + payload.bytes
    }

    /// The entries of a delta file bound to the main file with `checksum`, for `file` and `context`; nil when
    /// `bytes` are anything else.
    static func decodeDelta(_ source: FileBytes, path: String, file: [UInt8], context: [UInt8], checksum: UInt64) -> [(Int, StringsDecoding.Entry)]? {
        guard let (headerLength, _) = checkedPayload(source.buffer, deltaMagic, [binding(checksum), file, context]) else { return nil }
        var reader = BinaryReader(source)
        reader.position = headerLength
        do {
            var indices: [Int] = []
            for _ in 0..<(try reader.count()) { indices.append(try reader.index()) }
            let entries = try decodeEntries(&reader, count: indices.count, path: path)
            return reader.isAtEnd ? Array(zip(indices, entries)) : nil
        } catch {
            return nil
        }
    }

    /// The field of a delta's header naming the main file it belongs to: that file's checksum.
    static func binding(_ checksum: UInt64) -> [UInt8] {
        var field: [UInt8] = []
        LittleEndian.append(checksum, bytes: 8, to: &field)
        return field
    }
}

// MARK: Writing

extension BinaryWriter {
    /// A location; its file is written only when it is not `path` (the String Catalog's).
    mutating func location(_ location: SourceLocation, path: String) {
        if location.file == path {
            bool(false)
        } else {
            bool(true)
            string(location.file)
        }
        count(location.line)
        count(location.column)
    }

    mutating func optionalLocation(_ location: SourceLocation?, path: String) {
        bool(location != nil)
        if let location { self.location(location, path: path) }
    }

    mutating func diagnostics(_ diagnostics: [Diagnostic], path: String) {
        count(diagnostics.count)
        for diagnostic in diagnostics {
            bytes.append(Severity.allCases.firstIndex(of: diagnostic.severity).map(UInt8.init) ?? 0)
            string(diagnostic.message)
            string(diagnostic.ruleID)
            optionalLocation(diagnostic.location, path: path)
            count(diagnostic.notes.count)
            for note in diagnostic.notes {
                string(note.message)
                optionalLocation(note.location, path: path)
            }
        }
    }

    fileprivate mutating func entry(_ entry: StringsDecoding.Entry, path: String, locales: inout LocaleSlots) {
        string(entry.key)
        count(entry.keyOffset)
        count(entry.keyLine)
        count(entry.keyColumn)
        count(entry.valueOffset)
        int(entry.valueEnd)
        blob(entry.checkedAgainst)
        diagnostics(entry.findings, path: path)
        bool(entry.entry != nil)
        guard let decoded = entry.entry else { return }
        optionalString(decoded.comment)
        optionalLocation(decoded.location, path: path)
        // The locales first (read without the translations), then the translations in their order, behind their
        // length: a reader defers them (`DeferredTranslations`), and one read so is written back as it was.
        if let deferred = decoded.deferred {
            slots(deferred.locales, &locales)
            slots(deferred.deviceLocales, &locales)
            count(deferred.range.count)
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: deferred.bytes.buffer[deferred.range]))
            return
        }
        // In canonical order (`LocaleMap`): equal entries give equal bytes. The translations are read in place, by
        // index: iterating the map would copy each (and retain everything it holds) on the way.
        let (translations, devices) = (decoded.translations.values, decoded.devices.values)
        slots(decoded.translations.keys, &locales)
        slots(decoded.devices.keys, &locales)
        var body = BinaryWriter()
        // By index into the array (a constant: its elements are read where they are, where through a buffer
        // pointer each would be copied, retaining all it holds, for fear that a call writes it).
        for index in translations.indices {
            // A whole message without its tree (nearly every translation) is written from its parts, as `translation`
            // writes it: passing the translation on would copy it.
            if let textOnly = translations[index].content.messageTextOnly {
                body.bytes.append(0)
                body.textOnlyMessage(textOnly, translations[index].content.text)
                body.translationTail(
                    translations[index].state, translations[index].location, isVerbatim: translations[index].isVerbatim, path: path)
            } else {
                body.translation(translations[index], path: path)
            }
        }
        for variations in devices {
            body.count(variations.count)
            for (device, translation) in variations.sorted(by: { $0.key < $1.key }) {
                body.string(device)
                body.translation(translation, path: path)
            }
        }
        count(body.bytes.count)
        bytes += body.bytes
    }

    /// The count of `locales`, then each one's slot in the file's list of locales.
    private mutating func slots(_ locales: [LocaleID], _ known: inout LocaleSlots) {
        count(locales.count)
        for slot in known.slots(of: locales) { count(slot) }
    }

    fileprivate mutating func translation(_ translation: Translation, path: String) {
        switch translation.content {
        case .message(let message):
            bytes.append(0)
            self.message(message)
        case .plural(let argument, let forms):
            bytes.append(1)
            string(argument)
            count(forms.count)
            for (category, message) in forms.sorted(by: { $0.key < $1.key }) {
                string(category)
                self.message(message)
            }
        }
        translationTail(translation.state, translation.location, isVerbatim: translation.isVerbatim, path: path)
    }

    /// What follows a translation's content: its state (by its index among the states), location and verbatim flag.
    fileprivate mutating func translationTail(_ state: Translation.State, _ location: SourceLocation?, isVerbatim: Bool, path: String) {
        bytes.append(Translation.State.allCases.firstIndex(of: state).map(UInt8.init) ?? 0)
        optionalLocation(location, path: path)
        bool(isVerbatim)
    }

    /// A message that keeps no tree: tag 1 + how it holds its text, then the text.
    fileprivate mutating func textOnlyMessage(_ textOnly: Message.TextOnly, _ text: String) {
        bytes.append(1 + textOnly.rawValue)
        string(text)
    }

    /// A message as it is kept: its text alone when it keeps no tree (tag 1 + `Message.TextOnly`; a checked
    /// translation's tree is parsed again only when asked for, never to be written here), else its tree (tag 0).
    mutating func message(_ message: Message) {
        if let textOnly = message.textOnly {
            textOnlyMessage(textOnly, message.text)
            return
        }
        bytes.append(0)
        string(message.text)
        parts(message.parts, whole: message.text)
        count(message.placeholders.count)
        for placeholder in message.placeholders {
            string(placeholder.path)
            bytes.append(StringsCacheFile.placeholderKinds.firstIndex(of: placeholder.kind).map(UInt8.init) ?? 0)
            count(placeholder.offset)
            count(placeholder.length)
            count(placeholder.selectors.count)
            for selector in placeholder.selectors { string(selector) }
        }
    }

    /// `whole`: the message's text (a text part that is all of it is written as a reference to it).
    mutating func parts(_ parts: [MessagePart], whole: String) {
        count(parts.count)
        for part in parts {
            switch part {
            case .text(let text) where text == whole:
                bytes.append(6)
            case .text(let text):
                bytes.append(0)
                string(text)
            case .placeholder(let path):
                bytes.append(1)
                string(path)
            case .plural(let path, let offset, let cases):
                bytes.append(2)
                string(path)
                int(offset)
                self.cases(cases)
            case .select(let path, let cases):
                bytes.append(3)
                string(path)
                self.cases(cases)
            case .number(let path, let minimum, let maximum):
                bytes.append(4)
                string(path)
                int(minimum)
                optionalInt(maximum)
            case .pound:
                bytes.append(5)
            }
        }
    }

    mutating func cases(_ cases: [MessageCase]) {
        count(cases.count)
        for messageCase in cases {
            string(messageCase.selector)
            parts(messageCase.parts, whole: "")
        }
    }
}

extension StringsCacheFile {
    static let placeholderKinds: [Placeholder.Kind] = [.value, .plural, .select, .number]
}

// MARK: Reading

extension BinaryReader {
    mutating func location(path: String) throws(Failure) -> SourceLocation {
        let file = try bool() ? try string() : path
        return SourceLocation(file: file, line: try index(), column: try index())
    }

    mutating func optionalLocation(path: String) throws(Failure) -> SourceLocation? {
        try bool() ? try location(path: path) : nil
    }

    mutating func diagnostics(path: String) throws(Failure) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for _ in 0..<(try count()) {
            let severity = Int(try byte())
            guard severity < Severity.allCases.count else { throw Failure("an unknown severity") }
            let message = try string()
            let rule = try string()
            let location = try optionalLocation(path: path)
            var notes: [Diagnostic.Note] = []
            for _ in 0..<(try count()) { notes.append(Diagnostic.Note(try string(), at: try optionalLocation(path: path))) }
            diagnostics.append(Diagnostic(Severity.allCases[severity], message, rule: rule, at: location, notes: notes))
        }
        return diagnostics
    }

    fileprivate mutating func entry(path: String, state: inout StringsCacheFile.EntryReading) throws(Failure) -> StringsDecoding.Entry {
        let key = try string()
        let keyOffset = try size()
        let keyLine = try index()
        let keyColumn = try index()
        let valueOffset = try size()
        let valueEnd = try int()
        let checkedAgainst = try blob()
        let findings = try diagnostics(path: path)
        var decoded: LocalizationTable.Entry?
        if try bool() {
            let comment = try optionalString()
            let location = try optionalLocation(path: path)
            let plain = try localeList(&state)
            var devices: [LocaleID] = []
            for _ in 0..<(try count()) { devices.append(try self.locale(state.locales)) }
            let length = try count()
            let range = position..<(position + length)
            position += length
            // Decoded when first asked for.
            let deferred = DeferredTranslations(locales: plain, deviceLocales: devices, bytes: source, range: range, decode: state.decode)
            decoded = LocalizationTable.Entry(comment: comment, location: location, deferred: deferred)
        }
        return StringsDecoding.Entry(
            key: key, keyOffset: keyOffset, keyLine: keyLine, keyColumn: keyColumn, valueOffset: valueOffset, valueEnd: valueEnd,
            checkedAgainst: checkedAgainst, findings: findings, entry: decoded)
    }

    /// An entry's translations, for the locales `entry` read before them.
    fileprivate mutating func translations(
        path: String, locales: [LocaleID], devices: [LocaleID]
    ) throws(Failure) -> DeferredTranslations.Decoded {
        var translations = LocaleMap<Translation>()
        translations.reserveCapacity(locales.count)
        for locale in locales { translations[locale] = try translation(path: path) }
        var variationsByLocale = LocaleMap<[String: Translation]>()
        for locale in devices {
            var variations: [String: Translation] = [:]
            for _ in 0..<(try count()) {
                let device = try string()
                variations[device] = try translation(path: path)
            }
            variationsByLocale[locale] = variations
        }
        return (translations, variationsByLocale)
    }

    /// An entry's list of locales: the array of the entry before when its slots are the same.
    private mutating func localeList(_ state: inout StringsCacheFile.EntryReading) throws(Failure) -> [LocaleID] {
        state.slots.removeAll(keepingCapacity: true)
        for _ in 0..<(try count()) { state.slots.append(try slot(in: state.locales)) }
        if state.slots != state.lastSlots {
            state.lastList = state.slots.map { state.locales[$0] }
            state.lastSlots = state.slots
        }
        return state.lastList
    }

    /// A locale named by its index in `locales`.
    fileprivate mutating func locale(_ locales: [LocaleID]) throws(Failure) -> LocaleID {
        locales[try slot(in: locales)]
    }

    /// The index of a locale in `locales`.
    private mutating func slot(in locales: [LocaleID]) throws(Failure) -> Int {
        let index = try self.index()
        guard index < locales.count else { throw Failure("a locale out of range") }
        return index
    }

    fileprivate mutating func translation(path: String) throws(Failure) -> Translation {
        let content: Translation.Content
        switch try byte() {
        case 0:
            content = .message(try message())
        case 1:
            let argument = try string()
            var forms: [String: Message] = [:]
            for _ in 0..<(try count()) {
                let category = try string()
                forms[category] = try message()
            }
            content = .plural(argument: argument, forms: forms)
        default:
            throw Failure("an unknown translation")
        }
        let state = Int(try byte())
        guard state < Translation.State.allCases.count else { throw Failure("an unknown state") }
        return Translation(content: content, state: Translation.State.allCases[state], location: try optionalLocation(path: path), isVerbatim: try bool())
    }

    mutating func message() throws(Failure) -> Message {
        let tag = Int(try byte())
        if tag > 0 {
            guard tag - 1 < Message.TextOnly.allCases.count else { throw Failure("an unknown message form") }
            return Message(text: try string(), textOnly: Message.TextOnly.allCases[tag - 1])
        }
        let text = try string()
        let parts = try self.parts(depth: 0, whole: text)
        var placeholders: [Placeholder] = []
        let count = try self.count()
        placeholders.reserveCapacity(count)
        for _ in 0..<count {
            let path = try string()
            let kind = Int(try byte())
            guard kind < StringsCacheFile.placeholderKinds.count else { throw Failure("an unknown placeholder") }
            let offset = try size()
            let length = try size()
            var selectors: [String] = []
            for _ in 0..<(try self.count()) { selectors.append(try string()) }
            placeholders.append(Placeholder(path: path, kind: StringsCacheFile.placeholderKinds[kind], offset: offset, length: length, selectors: selectors))
        }
        return Message(text: text, parts: parts, placeholders: placeholders)
    }

    mutating func parts(depth: Int, whole: String) throws(Failure) -> [MessagePart] {
        // Messages nest as deep as their text does; a damaged file must not recurse without end.
        guard depth < 256 else { throw Failure("messages nested too deep") }
        var parts: [MessagePart] = []
        let count = try self.count()
        parts.reserveCapacity(count)
        for _ in 0..<count {
            switch try byte() {
            case 0: parts.append(.text(try string()))
            case 1: parts.append(.placeholder(path: try string()))
            case 2: parts.append(.plural(path: try string(), offset: try int(), cases: try cases(depth: depth)))
            case 3: parts.append(.select(path: try string(), cases: try cases(depth: depth)))
            case 4: parts.append(.number(path: try string(), minimumFractionDigits: try int(), maximumFractionDigits: try optionalInt()))
            case 5: parts.append(.pound)
            case 6: parts.append(.text(whole))
            default: throw Failure("an unknown message part")
            }
        }
        return parts
    }

    mutating func cases(depth: Int) throws(Failure) -> [MessageCase] {
        var cases: [MessageCase] = []
        for _ in 0..<(try count()) {
            cases.append(MessageCase(selector: try string(), parts: try parts(depth: depth + 1, whole: "")))
        }
        return cases
    }
}

// MARK: The owners' objects memo

extension StringsCacheFile {
    /// The second format: each record ends with its `keysFound`.
    static let ownersMagic = Array("TCOWNRS2".utf8)

    /// A file of `ContentTree` memo records (their keys and the objects' digests), for the build with `context`.
    static func encodeOwners(_ records: [ByteKey: OwnerObjectsMemo.Record], context: [UInt8]) -> [UInt8] {
        var payload = BinaryWriter()
        payload.count(records.count)
        // Sorted by key (equal records give equal bytes). The keys are digests: their indices are sorted, the
        // keys compared in one flat buffer (moving records, or comparing arrays, costs a retain each time).
        let entries = Array(records)
        let lengths = entries.map { $0.key.bytes.count }
        let width = lengths.max() ?? 0
        var flat = [UInt8](repeating: 0, count: entries.count * width)
        flat.withUnsafeMutableBytes { flat in
            for (index, entry) in entries.enumerated() {
                entry.key.bytes.withUnsafeBytes { key in
                    guard let base = flat.baseAddress, let source = key.baseAddress else { return }
                    (base + index * width).copyMemory(from: source, byteCount: key.count)
                }
            }
        }
        payload.bytes.reserveCapacity(entries.count * (width + 96))
        let order = flat.withUnsafeBytes { keys in
            Array(entries.indices).sorted { first, second in
                guard let base = keys.baseAddress else { return false }
                let order = memcmp(base + first * width, base + second * width, min(lengths[first], lengths[second]))
                return order != 0 ? order < 0 : lengths[first] < lengths[second]
            }
        }
        for index in order {
            let (key, record) = entries[index]
            payload.blob(key.bytes)
            payload.string(record.name)
            payload.optionalDigest(record.tip)
            payload.optionalDigest(record.strings)
            payload.optionalString(record.republish)
            payload.count(record.keysFound)
        }
        return header(ownersMagic, [context], length: payload.bytes.count, checksum: FastChecksum.of(payload.bytes[...])) + payload.bytes
    }

    /// The records of a memo file for the build with `context`; nil when `bytes` are anything else.
    static func decodeOwners(_ source: FileBytes, context: [UInt8]) -> [ByteKey: OwnerObjectsMemo.Record]? {
        guard let (headerLength, _) = checkedPayload(source.buffer, ownersMagic, [context]) else { return nil }
        var reader = BinaryReader(source)
        reader.position = headerLength
        var records: [ByteKey: OwnerObjectsMemo.Record] = [:]
        do {
            let count = try reader.count()
            records.reserveCapacity(count)
            for _ in 0..<count {
                let key = ByteKey(try reader.blob())
                records[key] = OwnerObjectsMemo.Record(
                    name: try reader.string(), tip: try reader.optionalDigest(), strings: try reader.optionalDigest(),
                    republish: try reader.optionalString(), keysFound: try reader.index())
            }
        } catch {
            return nil
        }
        return reader.isAtEnd ? records : nil
    }
}

extension BinaryWriter {
    fileprivate mutating func optionalDigest(_ digest: SHA256Digest?) {
        bool(digest != nil)
        guard let digest else { return }
        // The four words big-endian, without an array for each digest.
        let words = digest.words
        LittleEndian.append(words.0.byteSwapped, bytes: 8, to: &bytes)
        LittleEndian.append(words.1.byteSwapped, bytes: 8, to: &bytes)
        LittleEndian.append(words.2.byteSwapped, bytes: 8, to: &bytes)
        LittleEndian.append(words.3.byteSwapped, bytes: 8, to: &bytes)
    }
}

extension BinaryReader {
    fileprivate mutating func optionalDigest() throws(Failure) -> SHA256Digest? {
        guard try bool() else { return nil }
        guard position + 32 <= bytes.count else { throw Failure("cut short") }
        func word(_ index: Int) -> UInt64 { LittleEndian.word(bytes, at: position + 8 * index, bytes: 8).byteSwapped }
        let digest = SHA256Digest(word(0), word(1), word(2), word(3))
        position += 32
        return digest
    }
}

/// Where each locale is in a strings cache file's list of locales (its slot), with the slots of the last array of
/// locales asked for: a String Catalog's entries mostly share one array (`LocaleMap.shareLocales`), so that an
/// entry's dozen locales cost one comparison instead of a dozen hashed lookups.
struct LocaleSlots {
    var byLocale: [LocaleID: Int] = [:]
    private var lastLocales: [LocaleID] = []
    private var lastSlots: [Int] = []

    mutating func slots(of locales: [LocaleID]) -> [Int] {
        guard !locales.isEmpty else { return [] }
        if !locales.isSameArray(as: lastLocales) {
            lastSlots = locales.map { byLocale[$0] ?? 0 }
            lastLocales = locales
        }
        return lastSlots
    }
}
