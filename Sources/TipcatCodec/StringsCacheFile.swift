public import TipcatCatalog
import TipcatCore
import TipcatLocalization

/// The bytes of a `StringsDecoding` kept between loads (`StringsCacheDirectory` writes one per String Catalog).
///
/// Layout: the magic `TCSTRCCH`, the format (4 bytes), the String Catalog's fingerprint and the context's
/// (32 bytes each), the payload's length and checksum (8 bytes each), then the payload: the leading findings,
/// the duplicate keys, and the entries in runs of `runLength`, each run's byte length and `FastChecksum` first,
/// so that runs are checked and decoded on every core. A run starts with the locales its entries name, which
/// they name by index. The header's checksum covers everything but the runs' bytes (their checksums included).
/// A file with another magic, format, fingerprint or context, a wrong length or checksum, or anything
/// inconsistent inside is refused whole: the String Catalog is then decoded as if there were no cache.
public enum StringsCacheFile {
    static let magic = Array("TCSTRCCH".utf8)
    /// Bump whenever what is written changes.
    static let format: UInt32 = 2
    static let runLength = 512
    static let headerLength = 8 + 4 + 32 + 32 + 8 + 8

    /// The file for `decoding` of the String Catalog with `file` fingerprint under `context` (both 32 bytes).
    public static func encode(_ decoding: StringsDecoding, path: String, file: [UInt8], context: [UInt8]) -> [UInt8] {
        encodeIdentified(decoding, path: path, file: file, context: context).bytes
    }

    /// `encode`, with the file's checksum.
    static func encodeIdentified(_ decoding: StringsDecoding, path: String, file: [UInt8], context: [UInt8]) -> (bytes: [UInt8], checksum: UInt64) {
        var body: [UInt8] = []
        let (header, checksum) = encode(decoding, path: path, file: file, context: context) { piece in
            body += piece
            return true
        } ?? ([], 0)
        return (header + body, checksum)
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
        guard write(prefix.bytes[...]) else { return nil }
        // The checksum of the header's part: the prefix, then each run's length and checksum.
        var covered = prefix.bytes
        var length = prefix.bytes.count
        let batch = runLength * 16
        var start = 0
        while start < entries.count {
            let (first, end) = (start, min(entries.count, start + batch))
            let runs = concurrentChunks(count: end - first, chunkSize: runLength) { range in
                let run = encodeEntries(range.map { entries[first + $0] }, path: path)
                var head = BinaryWriter()
                head.count(run.count)
                appendWord(FastChecksum.of(run[...]), count: 8, to: &head.bytes)
                return (head.bytes, run)
            }
            for (head, run) in runs {
                covered += head
                guard write(head[...]), write(run[...]) else { return nil }
                length += head.count + run.count
            }
            start = end
        }
        let checksum = FastChecksum.of(covered[...])
        var header = magic
        appendWord(UInt64(format), count: 4, to: &header)
        header += file.count == 32 ? file : [UInt8](repeating: 0, count: 32)
        header += context.count == 32 ? context : [UInt8](repeating: 0, count: 32)
        appendWord(UInt64(length), count: 8, to: &header)
        appendWord(checksum, count: 8, to: &header)
        return (header, checksum)
    }

    /// Entries with the locales they name first, sorted (named by index after): equal entries give equal bytes.
    static func encodeEntries(_ entries: [StringsDecoding.Entry], path: String) -> [UInt8] {
        var named = Set<LocaleID>()
        for entry in entries {
            guard let decoded = entry.entry else { continue }
            named.formUnion(decoded.translations.keys)
            named.formUnion(decoded.devices.keys)
        }
        let identifiers = named.map(\.identifier).sorted()
        var locales: [LocaleID: Int] = [:]
        for locale in named { locales[locale] = identifiers.firstIndex(of: locale.identifier) }
        var writer = BinaryWriter()
        writer.count(identifiers.count)
        for identifier in identifiers { writer.string(identifier) }
        for entry in entries { writer.entry(entry, path: path, locales: locales) }
        return writer.bytes
    }

    /// Reads what `encodeEntries` wrote, `count` entries.
    static func decodeEntries(_ reader: inout BinaryReader, count: Int, path: String) throws(BinaryDecodingError) -> [StringsDecoding.Entry] {
        var locales: [LocaleID] = []
        for _ in 0..<(try reader.count()) {
            guard let locale = LocaleID(try reader.string()) else { throw BinaryDecodingError("an invalid locale") }
            locales.append(locale)
        }
        var entries: [StringsDecoding.Entry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count { entries.append(try reader.entry(path: path, locales: locales)) }
        return entries
    }

    /// Whether `header` (at least `headerLength` bytes) is a cache file of this format for `file` and `context`;
    /// the payload's length and the checksum when it is.
    static func check(_ header: ArraySlice<UInt8>, file: [UInt8], context: [UInt8]) -> (length: Int, checksum: UInt64)? {
        let header = Array(header)
        guard header.count >= headerLength, Array(header[0..<8]) == magic, word(header, at: 8, count: 4) == UInt64(format),
              Array(header[12..<44]) == file, Array(header[44..<76]) == context
        else { return nil }
        let length = word(header, at: 76, count: 8)
        guard length <= UInt64(Int.max / 2) else { return nil }
        return (Int(length), word(header, at: 84, count: 8))
    }

    /// The decoding `bytes` hold for `file` and `context` at `path`; nil when they are anything else.
    public static func decode(_ bytes: [UInt8], path: String, file: [UInt8], context: [UInt8]) -> StringsDecoding? {
        decodeIdentified(bytes, path: path, file: file, context: context)?.decoding
    }

    /// `decode`, with the file's checksum (what a delta file is bound to).
    static func decodeIdentified(_ bytes: [UInt8], path: String, file: [UInt8], context: [UInt8]) -> (decoding: StringsDecoding, checksum: UInt64)? {
        guard let (length, checksum) = check(bytes.prefix(headerLength), file: file, context: context),
              bytes.count == headerLength + length
        else { return nil }
        var reader = BinaryReader(bytes: bytes)
        reader.position = headerLength
        do {
            let leading = try reader.diagnostics(path: path)
            var duplicates: [StringsDecoding.Duplicate] = []
            for _ in 0..<(try reader.count()) {
                duplicates.append(StringsDecoding.Duplicate(
                    key: try reader.string(), location: try reader.location(path: path), first: try reader.location(path: path)))
            }
            let entryCount = try reader.index()
            var covered = Array(bytes[headerLength..<reader.position])
            var runs: [(range: Range<Int>, checksum: UInt64)] = []
            var remaining = entryCount
            while remaining > 0 {
                let start = reader.position
                let length = try reader.count()
                guard reader.position + 8 <= bytes.count else { return nil }
                let runChecksum = word(bytes, at: reader.position, count: 8)
                reader.position += 8
                covered += bytes[start..<reader.position]
                guard length <= bytes.count - reader.position else { return nil }
                runs.append((reader.position..<(reader.position + length), runChecksum))
                reader.position += length
                remaining -= min(runLength, remaining)
            }
            guard reader.isAtEnd, FastChecksum.of(covered[...]) == checksum else { return nil }
            let runTable = runs
            let decoded = concurrentChunks(count: runTable.count, chunkSize: 1) { range -> [StringsDecoding.Entry]? in
                var entries: [StringsDecoding.Entry] = []
                for index in range {
                    let (runRange, runChecksum) = runTable[index]
                    guard FastChecksum.of(bytes[runRange]) == runChecksum else { return nil }
                    var run = BinaryReader(bytes: bytes)
                    run.position = runRange.lowerBound
                    do {
                        entries += try decodeEntries(&run, count: min(runLength, entryCount - index * runLength), path: path)
                    } catch {
                        return nil
                    }
                    guard run.position == runRange.upperBound else { return nil }
                }
                return entries
            }
            var entries: [StringsDecoding.Entry] = []
            entries.reserveCapacity(entryCount)
            for run in decoded {
                guard let run else { return nil }
                entries += run
            }
            return (StringsDecoding(leadingFindings: leading, entries: entries, duplicates: duplicates), checksum)
        } catch {
            return nil
        }
    }

    // MARK: Delta files

    static let deltaMagic = Array("TCSTRDLT".utf8)
    static let deltaHeaderLength = 8 + 4 + 8 + 32 + 32 + 8 + 8

    /// A delta file: `entries` (by index) that replace those of the main file whose payload has `checksum`.
    static func encodeDelta(_ entries: [(Int, StringsDecoding.Entry)], path: String, file: [UInt8], context: [UInt8], checksum: UInt64) -> [UInt8] {
        var payload = BinaryWriter()
        payload.count(entries.count)
        for (index, _) in entries { payload.count(index) }
        payload.bytes += encodeEntries(entries.map(\.1), path: path)
        var bytes = deltaMagic
        appendWord(UInt64(format), count: 4, to: &bytes)
        appendWord(checksum, count: 8, to: &bytes)
        bytes += file.count == 32 ? file : [UInt8](repeating: 0, count: 32)
        bytes += context.count == 32 ? context : [UInt8](repeating: 0, count: 32)
        appendWord(UInt64(payload.bytes.count), count: 8, to: &bytes)
        appendWord(FastChecksum.of(payload.bytes[...]), count: 8, to: &bytes)
        bytes += payload.bytes
        return bytes
    }

    /// The entries of a delta file bound to the main file with `checksum`, for `file` and `context`; nil when
    /// `bytes` are anything else.
    static func decodeDelta(_ bytes: [UInt8], path: String, file: [UInt8], context: [UInt8], checksum: UInt64) -> [(Int, StringsDecoding.Entry)]? {
        guard bytes.count >= deltaHeaderLength, Array(bytes[0..<8]) == deltaMagic, word(bytes, at: 8, count: 4) == UInt64(format),
              word(bytes, at: 12, count: 8) == checksum, Array(bytes[20..<52]) == file, Array(bytes[52..<84]) == context,
              word(bytes, at: 84, count: 8) == UInt64(bytes.count - deltaHeaderLength),
              FastChecksum.of(bytes[deltaHeaderLength...]) == word(bytes, at: 92, count: 8)
        else { return nil }
        var reader = BinaryReader(bytes: bytes)
        reader.position = deltaHeaderLength
        do {
            var indices: [Int] = []
            for _ in 0..<(try reader.count()) { indices.append(try reader.index()) }
            let entries = try decodeEntries(&reader, count: indices.count, path: path)
            return reader.isAtEnd ? Array(zip(indices, entries)) : nil
        } catch {
            return nil
        }
    }

    static func appendWord(_ value: UInt64, count: Int, to bytes: inout [UInt8]) {
        for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    static func word(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        return value
    }
}

// MARK: Writing

extension BinaryWriter {
    /// A location; its file is written only when it is not `path` (the String Catalog's).
    fileprivate mutating func location(_ location: SourceLocation, path: String) {
        if location.file == path {
            bool(false)
        } else {
            bool(true)
            string(location.file)
        }
        count(location.line)
        count(location.column)
    }

    fileprivate mutating func optionalLocation(_ location: SourceLocation?, path: String) {
        bool(location != nil)
        if let location { self.location(location, path: path) }
    }

    fileprivate mutating func diagnostics(_ diagnostics: [Diagnostic], path: String) {
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

    fileprivate mutating func entry(_ entry: StringsDecoding.Entry, path: String, locales: [LocaleID: Int]) {
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
        // Sorted: equal entries give equal bytes.
        let translations = decoded.translations.sorted { $0.key.identifier < $1.key.identifier }
        count(translations.count)
        for (locale, translation) in translations {
            count(locales[locale] ?? 0)
            self.translation(translation, path: path)
        }
        let devices = decoded.devices.sorted { $0.key.identifier < $1.key.identifier }
        count(devices.count)
        for (locale, variations) in devices {
            count(locales[locale] ?? 0)
            count(variations.count)
            for (device, translation) in variations.sorted(by: { $0.key < $1.key }) {
                string(device)
                self.translation(translation, path: path)
            }
        }
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
        bytes.append(Translation.State.allCases.firstIndex(of: translation.state).map(UInt8.init) ?? 0)
        optionalLocation(translation.location, path: path)
        bool(translation.isVerbatim)
    }

    fileprivate mutating func message(_ message: Message) {
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
    fileprivate mutating func parts(_ parts: [MessagePart], whole: String) {
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

    fileprivate mutating func cases(_ cases: [MessageCase]) {
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
    fileprivate mutating func location(path: String) throws(Failure) -> SourceLocation {
        let file = try bool() ? try string() : path
        return SourceLocation(file: file, line: try index(), column: try index())
    }

    fileprivate mutating func optionalLocation(path: String) throws(Failure) -> SourceLocation? {
        try bool() ? try location(path: path) : nil
    }

    fileprivate mutating func diagnostics(path: String) throws(Failure) -> [Diagnostic] {
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

    fileprivate mutating func entry(path: String, locales: [LocaleID]) throws(Failure) -> StringsDecoding.Entry {
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
            var entry = LocalizationTable.Entry(comment: try optionalString(), location: try optionalLocation(path: path))
            let translations = try count()
            entry.translations.reserveCapacity(translations)
            for _ in 0..<translations {
                let locale = try self.locale(locales)
                entry.translations[locale] = try translation(path: path)
            }
            for _ in 0..<(try count()) {
                let locale = try self.locale(locales)
                var variations: [String: Translation] = [:]
                for _ in 0..<(try count()) {
                    let device = try string()
                    variations[device] = try translation(path: path)
                }
                entry.devices[locale] = variations
            }
            decoded = entry
        }
        return StringsDecoding.Entry(
            key: key, keyOffset: keyOffset, keyLine: keyLine, keyColumn: keyColumn, valueOffset: valueOffset, valueEnd: valueEnd,
            checkedAgainst: checkedAgainst, findings: findings, entry: decoded)
    }

    /// A locale named by its index in `locales`.
    fileprivate mutating func locale(_ locales: [LocaleID]) throws(Failure) -> LocaleID {
        let index = try self.index()
        guard index < locales.count else { throw Failure("a locale out of range") }
        return locales[index]
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

    fileprivate mutating func message() throws(Failure) -> Message {
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

    fileprivate mutating func parts(depth: Int, whole: String) throws(Failure) -> [MessagePart] {
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

    fileprivate mutating func cases(depth: Int) throws(Failure) -> [MessageCase] {
        var cases: [MessageCase] = []
        for _ in 0..<(try count()) {
            cases.append(MessageCase(selector: try string(), parts: try parts(depth: depth + 1, whole: "")))
        }
        return cases
    }
}

// MARK: The owners' objects memo

extension StringsCacheFile {
    static let ownersMagic = Array("TCOWNERS".utf8)
    static let ownersHeaderLength = 8 + 4 + 32 + 8 + 8

    /// A file of `ContentTree` memo records (their keys and the objects' digests), for the build with `context`.
    static func encodeOwners(_ records: [[UInt8]: OwnerObjectsMemo.Record], context: [UInt8]) -> [UInt8] {
        var payload = BinaryWriter()
        payload.count(records.count)
        for (key, record) in records.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            payload.blob(key)
            payload.string(record.name)
            payload.optionalDigest(record.tip)
            payload.optionalDigest(record.strings)
            payload.optionalString(record.republish)
        }
        var bytes = ownersMagic
        appendWord(UInt64(format), count: 4, to: &bytes)
        bytes += context.count == 32 ? context : [UInt8](repeating: 0, count: 32)
        appendWord(UInt64(payload.bytes.count), count: 8, to: &bytes)
        appendWord(FastChecksum.of(payload.bytes[...]), count: 8, to: &bytes)
        return bytes + payload.bytes
    }

    /// The records of a memo file for the build with `context`; nil when `bytes` are anything else.
    static func decodeOwners(_ bytes: [UInt8], context: [UInt8]) -> [[UInt8]: OwnerObjectsMemo.Record]? {
        guard bytes.count >= ownersHeaderLength, Array(bytes[0..<8]) == ownersMagic, word(bytes, at: 8, count: 4) == UInt64(format),
              Array(bytes[12..<44]) == context, word(bytes, at: 44, count: 8) == UInt64(bytes.count - ownersHeaderLength),
              FastChecksum.of(bytes[ownersHeaderLength...]) == word(bytes, at: 52, count: 8)
        else { return nil }
        var reader = BinaryReader(bytes: bytes)
        reader.position = ownersHeaderLength
        var records: [[UInt8]: OwnerObjectsMemo.Record] = [:]
        do {
            let count = try reader.count()
            records.reserveCapacity(count)
            for _ in 0..<count {
                let key = try reader.blob()
                records[key] = OwnerObjectsMemo.Record(
                    name: try reader.string(), tip: try reader.optionalDigest(), strings: try reader.optionalDigest(),
                    republish: try reader.optionalString())
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
        if let digest { bytes += digest.bytes }
    }
}

extension BinaryReader {
    fileprivate mutating func optionalDigest() throws(Failure) -> SHA256Digest? {
        guard try bool() else { return nil }
        guard position + 32 <= bytes.count, let digest = SHA256Digest(bytes: Array(bytes[position..<(position + 32)])) else {
            throw Failure("cut short")
        }
        position += 32
        return digest
    }
}
