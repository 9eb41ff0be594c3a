import TipcatCatalog
import TipcatCore
import TipcatLocalization

/// The bytes of a catalog's `TipDecodings` kept between loads (`StringsCacheDirectory` writes one per catalog).
///
/// Layout: the magic `TCTIPSCH`, the format (4 bytes), the context's digest (32 bytes), the payload's length and
/// checksum (8 bytes each), then the payload: the tip IDs' fingerprint, the number of files, then the files in
/// runs of `runLength` (`CacheRuns`: each run's byte length and checksum first), so that a file is written a few
/// runs at a time and its runs are checked and decoded on every core. The header's checksum covers the payload but
/// the runs' bytes, which their own checksums cover. Anything inconsistent refuses the file whole: every tip file
/// is then decoded.
enum TipsCacheFile {
    static let magic = Array("TCTIPSCH".utf8)
    static let runLength = 256
    /// The main file's header, for a context of 32 bytes (a SHA-256 digest).
    static let headerLength = StringsCacheFile.headerLength([32])

    /// The file for `decodings`, given to `write` a piece at a time after the header (see `CacheRuns.write`); its
    /// header (`headerLength` bytes, for the file's start), nil when `write` fails. `reusing` gives a file's record
    /// as an earlier file holds it, when it is the same (it is then not encoded again: an edit rewrites the file,
    /// and thousands of tips did not change).
    static func encode(
        _ decodings: TipDecodings, context: [UInt8], reusing: @Sendable (String, TipDecoding) -> UnsafeRawBufferPointer? = { _, _ in nil },
        write: (ArraySlice<UInt8>) -> Bool
    ) -> [UInt8]? {
        // Sorted by path: equal decodings give equal bytes.
        let files = decodings.byPath.sorted { $0.key < $1.key }
        var prefix = BinaryWriter()
        prefix.blob(decodings.tipIDs)
        prefix.count(files.count)
        guard let (length, checksum) = CacheRuns.write(
            prefix: prefix.bytes, count: files.count, runLength: runLength,
            encode: { range in
                var writer = BinaryWriter()
                for index in range {
                    if let record = reusing(files[index].key, files[index].value) {
                        writer.bytes.append(contentsOf: record)
                    } else {
                        writer.tipFile(path: files[index].key, files[index].value)
                    }
                }
                return writer.bytes
            },
            write: write)
        else { return nil }
        return StringsCacheFile.header(magic, [context], length: length, checksum: checksum)
    }

    /// The decodings `bytes` hold for `context`, with where each file's record is in `bytes` (for `encode`'s
    /// `reusing`); nil when they are anything else.
    /// Read in place (a mapped file is not copied).
    static func decode(_ source: FileBytes, context: [UInt8]) -> (decodings: TipDecodings, records: [String: Range<Int>], checksum: UInt64)? {
        let bytes = source.buffer
        guard let (length, checksum, headerLength) = StringsCacheFile.checkHeader(bytes, magic, [context]), bytes.count == headerLength + length
        else { return nil }
        var reader = BinaryReader(source)
        reader.position = headerLength
        do {
            let tipIDs = try reader.blob()
            let fileCount = try reader.count()
            guard let runs = try CacheRuns.read(&reader, prefixStart: headerLength, count: fileCount, runLength: runLength, checksum: checksum)
            else { return nil }
            let decoded = concurrentChunks(count: runs.count, chunkSize: 1) { range -> [(String, TipDecoding, Range<Int>)]? in
                var files: [(String, TipDecoding, Range<Int>)] = []
                for index in range {
                    guard var run = CacheRuns.checkedRun(runs[index], in: source) else { return nil }
                    let count = min(runLength, fileCount - index * runLength)
                    do {
                        for _ in 0..<count {
                            let start = run.position
                            let (path, decoding) = try run.tipFile()
                            files.append((path, decoding, start..<run.position))
                        }
                    } catch {
                        return nil
                    }
                    guard run.position == runs[index].range.upperBound else { return nil }
                    // Decoded: the run's pages are given back (read again only if its records are written back).
                    source.releasePages(in: runs[index].range)
                }
                return files
            }
            var byPath: [String: TipDecoding] = [:]
            var records: [String: Range<Int>] = [:]
            byPath.reserveCapacity(fileCount)
            records.reserveCapacity(fileCount)
            for run in decoded {
                guard let run else { return nil }
                for (path, decoding, record) in run {
                    byPath[path] = decoding
                    records[path] = record
                }
            }
            guard byPath.count == fileCount else { return nil }
            return (TipDecodings(tipIDs: tipIDs, byPath: byPath), records, checksum)
        } catch {
            return nil
        }
    }

    static let republishPolicies = RepublishPolicy.allCases

    // MARK: Delta files

    static let deltaMagic = Array("TCTIPDLT".utf8)

    /// A delta file: tip files' decodings that replace (or join) those of the main file whose payload has
    /// `checksum`, decoded with the same tip IDs.
    static func encodeDelta(_ decodings: [(String, TipDecoding)], context: [UInt8], checksum: UInt64) -> [UInt8] {
        var payload = BinaryWriter()
        payload.count(decodings.count)
        for (path, decoding) in decodings { payload.tipFile(path: path, decoding) }
        return StringsCacheFile.header(
            deltaMagic, [StringsCacheFile.binding(checksum), context], length: payload.bytes.count, checksum: FastChecksum.of(payload.bytes[...]))
            + payload.bytes
    }

    /// The decodings of a delta file bound to the main file with `checksum`, for `context`; nil when `bytes` are
    /// anything else.
    static func decodeDelta(_ source: FileBytes, context: [UInt8], checksum: UInt64) -> [(String, TipDecoding)]? {
        guard let (headerLength, _) = StringsCacheFile.checkedPayload(source.buffer, deltaMagic, [StringsCacheFile.binding(checksum), context])
        else { return nil }
        var reader = BinaryReader(source)
        reader.position = headerLength
        do {
            var decodings: [(String, TipDecoding)] = []
            for _ in 0..<(try reader.count()) { decodings.append(try reader.tipFile()) }
            return reader.isAtEnd ? decodings : nil
        } catch {
            return nil
        }
    }
}

// MARK: Writing

extension BinaryWriter {
    fileprivate mutating func tipFile(path: String, _ decoding: TipDecoding) {
        string(path)
        blob(decoding.fingerprint)
        optionalString(decoding.id)
        diagnostics(decoding.findings, path: path)
        bool(decoding.tip != nil)
        if let tip = decoding.tip { self.tip(tip, path: path) }
    }

    /// Every field of `tip`; locations in `path` (the tip's file) are written without it.
    fileprivate mutating func tip(_ tip: Tip, path: String) {
        string(tip.id.rawValue)
        optionalText(tip.customID, path: path)
        text(tip.title, path: path)
        optionalText(tip.message, path: path)
        optionalString(tip.image)
        actions(tip.actions, path: path)
        count(tip.parameters.count)
        for parameter in tip.parameters { recordField(parameter) }
        count(tip.rules.count)
        for rule in tip.rules {
            string(rule.source)
            optionalLocation(rule.location, path: path)
        }
        optionalInt(tip.options.maxDisplayCount)
        optionalDouble(tip.options.maxDisplayDuration?.seconds)
        bool(tip.options.ignoresDisplayFrequency)
        count(TipsCacheFile.republishPolicies.firstIndex(of: tip.republish) ?? 0)
        optionalString(tip.comment)
        bool(tip.example != nil)
        if let example = tip.example { blob(StoredValueCodec.encode(record: example)) }
        let platforms = Device.allCases.enumerated().filter { tip.platforms[$0.element] != nil }
        count(platforms.count)
        for (index, device) in platforms {
            guard let content = tip.platforms[device] else { continue }
            count(index)
            optionalText(content.title, path: path)
            optionalText(content.message, path: path)
            optionalString(content.image)
            bool(content.actions != nil)
            if let actions = content.actions { self.actions(actions, path: path) }
        }
        optionalString(tip.file == path ? nil : tip.file)
        optionalLocation(tip.location, path: path)
    }

    private mutating func text(_ text: LocalizedText, path: String) {
        string(text.key)
        string(text.source)
        bool(text.message != nil)
        if let message = text.message { self.message(message) }
        optionalLocation(text.location, path: path)
        bool(text.isVerbatim)
    }

    private mutating func optionalText(_ text: LocalizedText?, path: String) {
        bool(text != nil)
        if let text { self.text(text, path: path) }
    }

    private mutating func actions(_ actions: [TipAction], path: String) {
        count(actions.count)
        for action in actions {
            string(action.id)
            text(action.title, path: path)
        }
    }
}

// MARK: Reading

extension BinaryReader {
    fileprivate mutating func tipFile() throws(Failure) -> (String, TipDecoding) {
        let path = try string()
        let fingerprint = try blob()
        let id = try optionalString()
        let findings = try diagnostics(path: path)
        let tip = try bool() ? try self.tip(path: path) : nil
        return (path, TipDecoding(fingerprint: fingerprint, id: id, tip: tip, findings: findings))
    }

    fileprivate mutating func tip(path: String) throws(Failure) -> Tip {
        let id = TipID(try string())
        let customID = try optionalText(path: path)
        let title = try text(path: path)
        let message = try optionalText(path: path)
        let image = try optionalString()
        let actions = try self.actions(path: path)
        var parameters: [ValueType.RecordField] = []
        for _ in 0..<(try count()) { parameters.append(try recordField()) }
        var rules: [TipRule] = []
        for _ in 0..<(try count()) { rules.append(TipRule(source: try string(), location: try optionalLocation(path: path))) }
        let options = TipOptions(
            maxDisplayCount: try optionalInt(), maxDisplayDuration: try optionalDouble().map(TimeSpan.init(seconds:)),
            ignoresDisplayFrequency: try bool())
        let republish = try index()
        guard republish < TipsCacheFile.republishPolicies.count else { throw Failure("an unknown republish policy") }
        let comment = try optionalString()
        var example: [String: Value]?
        if try bool() {
            guard let record = try? StoredValueCodec.decodeRecord(try blob()) else { throw Failure("an invalid example") }
            example = record
        }
        var platforms: [Device: TipPlatformContent] = [:]
        for _ in 0..<(try count()) {
            let device = try index()
            guard device < Device.allCases.count else { throw Failure("an unknown device") }
            var content = TipPlatformContent()
            content.title = try optionalText(path: path)
            content.message = try optionalText(path: path)
            content.image = try optionalString()
            content.actions = try bool() ? try self.actions(path: path) : nil
            platforms[Device.allCases[device]] = content
        }
        let file = try optionalString() ?? path
        return Tip(
            id: id, customID: customID, title: title, message: message, image: image, actions: actions, parameters: parameters,
            rules: rules, options: options, republish: TipsCacheFile.republishPolicies[republish], comment: comment, example: example,
            platforms: platforms, file: file, location: try optionalLocation(path: path))
    }

    private mutating func text(path: String) throws(Failure) -> LocalizedText {
        let key = try string()
        let source = try string()
        let message = try bool() ? try self.message() : nil
        return LocalizedText(key: key, source: source, message: message, location: try optionalLocation(path: path), isVerbatim: try bool())
    }

    private mutating func optionalText(path: String) throws(Failure) -> LocalizedText? {
        try bool() ? try text(path: path) : nil
    }

    private mutating func actions(path: String) throws(Failure) -> [TipAction] {
        var actions: [TipAction] = []
        for _ in 0..<(try count()) { actions.append(TipAction(id: try string(), title: try text(path: path))) }
        return actions
    }
}
