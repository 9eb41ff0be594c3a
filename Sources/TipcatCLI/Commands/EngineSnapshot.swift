import Foundation
import TipcatCatalog
import TipcatCodec
import TipcatCore
import TipcatEngine
import TipcatJSON
import TipcatLocalization
import TipcatStore

/// A published version prepared for the engine commands, in one file beside the state database
/// (`<state>.engine-snapshot`), so an engine call reads a few hundred kilobytes instead of decoding and
/// re-hashing the whole version.
///
/// Layout (integers little-endian):
///
/// | offset | bytes | what |
/// |---|---|---|
/// | 0 | 8 | magic `TCENGSNP` |
/// | 8 | 4 | format version (`formatVersion`) |
/// | 12 | 4 | length P of the declarations: the engine section's first P bytes (settings, parameters, events) |
/// | 16 | 64 | the version's content hash, hex |
/// | 80 | 8 | length E of the engine section |
/// | 88 | 8 | checksum of the engine section (`checksum`) |
/// | 96 | 8 | length D of the detail section |
/// | 104 | 8 | checksum of the declarations (the engine section's first P bytes) |
/// | 112 | E | engine section (below) |
/// | 112+E | D | detail section: per tip, its canonical definition, a zero byte, its canonical translations |
///
/// The engine section holds the settings and declarations (its first P bytes), whether `CatalogLimits` found
/// no problem in the catalog (so the engine does not look again), the number of tips, the offset
/// of every `chunkSize`-th tip's record (so runs of records are decoded on every core), the records (per tip
/// what the engine reads; actions by id only), each tip's revision hash (32 bytes), where each tip's detail
/// is, the compiled rules (`PreparedCatalog.compiledRules`), and last the groups, in binary (read faster than
/// JSON, and apart from the declarations: they list tips, so they grow with the catalog). A call reads each tip's facts (`TipFacts`), its texts stepped over, and decodes a whole
/// record only when it needs that tip. Hashes and detail positions are read only when a command needs them (a
/// republish comparison, `engine show`).
///
/// The file is trusted only when its size is exactly 112+E+D, the magic, format version and content hash
/// match, and the engine section's checksum matches (a command that reads only the declarations, `engine
/// donate` and `engine set`, checks their own checksum instead of reading the whole engine section); a tip's detail (read by `engine show`) must hash to the
/// tip's revision hash (SHA-256). Anything else is rebuilt from the store. Writers write a temporary file
/// and rename it over the snapshot, so readers see a whole old or a whole new file.
struct EngineSnapshot: Sendable {
    static let magic: [UInt8] = Array("TCENGSNP".utf8)
    /// Raise when the layout or the engine section's contents change.
    static let formatVersion: UInt32 = 10
    static let headerSize = 112

    /// The snapshot file for a state database.
    static func path(forState state: String) -> String { state + ".engine-snapshot" }

    /// Tips per run of records decoded on its own.
    static let chunkSize = 512

    /// The catalog with its rules compiled, read back from the snapshot.
    let prepared: PreparedCatalog
    var catalog: Catalog { prepared.catalog }
    let revision: CatalogRevision
    /// The settings as stored (what a tip's detail is decoded with).
    let settings: JSONValue
    let path: String
    let detailStart: Int
    let detailLength: Int
    /// Per tip in catalog order, its revision hash (32 bytes).
    let hashes: [UInt8]
    /// Per tip in catalog order, its detail's offset and length (two counts).
    let detailTable: FileBytes

    // MARK: building

    /// What the first engine call on a version computes from its pieces: the catalog the engine runs
    /// (translations left out: `engine show` reads a tip's own), the revision, and the snapshot's bytes: the
    /// header and engine section, then each tip's detail in catalog order (written one after the other, never
    /// joined into one copy of the file: at 20,000 tips the details are about 120 MB).
    struct Prepared {
        var catalog: PreparedCatalog
        var revision: CatalogRevision
        var head: [UInt8]
        var details: [[UInt8]]

        /// The whole file, as `write` writes it.
        var bytes: [UInt8] { head + details.joined() }
    }

    /// Prepares a version for the engine from its (verified) pieces.
    /// `stored`: the owners' objects as the store holds them (canonical bytes), which are then their details
    /// as they are; without, the details are written from `pieces`.
    static func prepare(
        contentHash: String, pieces: CatalogPieces, stored: [String: TreeReader.StoredOwner]? = nil, origin: String
    ) throws(CatalogDecodingError) -> Prepared {
        var engineOnly = pieces
        for name in engineOnly.owners.keys { engineOnly.owners[name]?.strings = nil }
        let prepared = PreparedCatalog(try CatalogCodec.decode(engineOnly, origin: origin))
        let catalog = prepared.catalog
        var engine = BinaryWriter()
        engine.blob(pieces.settings.canonicalBytes)
        engine.blob(pieces.parameters.canonicalBytes)
        engine.blob(pieces.events.canonicalBytes)
        let declarationsLength = engine.bytes.count
        engine.bool(CatalogLimits.problems(in: catalog).isEmpty)
        // The revision hash of a tip: its definition, a zero byte, its translations (what republish compares);
        // those bytes are the tip's detail. Computed on every core: most of a first call's time.
        let tips = catalog.tips
        let owners = pieces.owners
        let revisions = concurrentChunks(count: tips.count, chunkSize: 128) { range in
            range.map { index -> (bytes: [UInt8], hash: SHA256Digest) in
                let name = tips[index].id.rawValue
                let bytes: [UInt8]
                if let object = stored?[name] {
                    bytes = CatalogPieces.Owner.revisionBytes(tip: object.tip, strings: object.strings)
                } else {
                    bytes = (owners[name] ?? CatalogPieces.Owner()).revisionBytes
                }
                return (bytes, SHA256.hash(bytes))
            }
        }.joinedArrays()
        var detailLength = 0
        var records = BinaryWriter()
        var chunkOffsets: [Int] = []
        var hashBytes: [UInt8] = []
        hashBytes.reserveCapacity(32 * tips.count)
        var detailTable = BinaryWriter()
        for (index, (tip, (bytes, hash))) in zip(tips, revisions).enumerated() {
            if index % chunkSize == 0 { chunkOffsets.append(records.bytes.count) }
            records.record(tip)
            hashBytes += hash.bytes
            detailTable.count(detailLength)
            detailTable.count(bytes.count)
            detailLength += bytes.count
        }
        engine.count(tips.count)
        engine.count(chunkOffsets.count)
        for offset in chunkOffsets { engine.count(offset) }
        engine.blob(records.bytes)
        engine.blob(hashBytes)
        engine.blob(detailTable.bytes)
        // What checking the rules computed, so later calls check none.
        engine.blob(prepared.compiledRules)
        // The groups, in binary (they list every grouped tip: read faster than JSON, and apart from the declarations,
        // which `engine donate` reads on its own).
        var groups = BinaryWriter()
        groups.groups(catalog.groups)
        engine.blob(groups.bytes)
        var file = magic
        LittleEndian.append(UInt64(formatVersion), bytes: 4, to: &file)
        LittleEndian.append(UInt64(declarationsLength), bytes: 4, to: &file)
        file += Array(contentHash.utf8.prefix(64)) + [UInt8](repeating: 0x30, count: max(0, 64 - contentHash.utf8.count))
        LittleEndian.append(UInt64(engine.bytes.count), bytes: 8, to: &file)
        LittleEndian.append(FastChecksum.of(engine.bytes[...]), bytes: 8, to: &file)
        LittleEndian.append(UInt64(detailLength), bytes: 8, to: &file)
        LittleEndian.append(FastChecksum.of(engine.bytes[0..<declarationsLength]), bytes: 8, to: &file)
        file += engine.bytes
        return Prepared(
            catalog: prepared, revision: revision(contentHash, ids: tips.map(\.id), hashes: hashBytes), head: file, details: revisions.map(\.bytes))
    }

    /// Writes the snapshot to `path` through a temporary file and a rename, its details gathered into writes of
    /// about 4 MB; failures leave no snapshot (the engine works without one). Creates the directory when needed.
    static func write(_ prepared: Prepared, to path: String) {
        StringsCacheDirectory.stage(at: path, headerLength: 0) { write -> [UInt8]? in
            guard write(prepared.head[...]) else { return nil }
            var buffer: [UInt8] = []
            buffer.reserveCapacity(4 << 20)
            for detail in prepared.details {
                buffer += detail
                if buffer.count >= 4 << 20 {
                    guard write(buffer[...]) else { return nil }
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            return buffer.isEmpty || write(buffer[...]) ? [] : nil
        }?.commit()
    }

    // MARK: loading

    /// The snapshot at `path` for the version `contentHash`; nil when there is none or it is stale or damaged.
    /// `alongside` starts on a thread of its own as soon as the file's header shows it is the snapshot of this
    /// version (so it overlaps reading, checking and decoding the file), and has finished when this returns.
    static func load(path: String, contentHash: String, origin: String, alongside: (@Sendable () -> Void)? = nil) -> EngineSnapshot? {
        let companion = BackgroundResult<Bool>()
        defer { if companion.started { _ = companion.wait() } }
        guard let section = checkedPart(.engine, path: path, contentHash: contentHash, headerMatched: {
            if let alongside { companion.start { alongside(); return true } }
        }) else { return nil }
        PhaseTrace.mark("snapshot: engine section checked")
        do {
            return try decode(section.bytes, path: path, contentHash: contentHash, origin: origin,
                              detailStart: section.detailStart, detailLength: section.detailLength)
        } catch {
            return nil
        }
    }

    /// Only the catalog's settings, app parameters and events (no tips, and no groups: they list tips, so they
    /// grow with the catalog) from the snapshot at `path` for the version `contentHash`, checked like `load` but
    /// against the declarations' own checksum; nil when there is none or it is stale or damaged. What a command
    /// that reads no tip (`engine donate`, `engine set`) needs.
    static func declarations(path: String, contentHash: String, origin: String) -> Catalog? {
        guard let part = checkedPart(.declarations, path: path, contentHash: contentHash) else { return nil }
        var reader = BinaryReader(part.bytes)
        guard let blobs = try? Declarations(&reader), reader.isAtEnd else { return nil }
        return try? declarations(blobs, origin: origin).catalog
    }

    /// The parts of the engine section a reader checks on their own: the whole section, or its first P bytes
    /// (the declarations).
    private enum Part {
        case engine, declarations
    }

    /// A part of the engine section of the snapshot at `path`, when the file is whole and for the version
    /// `contentHash`: size, magic, format version, content hash and the part's checksum all match.
    /// `headerMatched` runs once the header is read and matches, before the part is read and checked.
    private static func checkedPart(
        _ part: Part, path: String, contentHash: String, headerMatched: () -> Void = {}
    ) -> (bytes: FileBytes, detailStart: Int, detailLength: Int)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, Int(info.st_size) >= headerSize,
              let header = read(descriptor, offset: 0, count: headerSize),
              Array(header[0..<8]) == magic, LittleEndian.word(header, at: 8, bytes: 4) == UInt64(formatVersion),
              Array(header[16..<80]) == Array(contentHash.utf8)
        else { return nil }
        let engineLength = Int(truncatingIfNeeded: LittleEndian.word(header, at: 80, bytes: 8))
        let detailLength = Int(truncatingIfNeeded: LittleEndian.word(header, at: 96, bytes: 8))
        let (length, checksumOffset) = part == .engine ? (engineLength, 88) : (Int(LittleEndian.word(header, at: 12, bytes: 4)), 104)
        guard engineLength >= 0, detailLength >= 0, engineLength <= Int(info.st_size), detailLength <= Int(info.st_size),
              headerSize + engineLength + detailLength == Int(info.st_size), length <= engineLength
        else { return nil }
        headerMatched()
        // Mapped, not read: the decoders read it in place, every core at once (a snapshot is only ever replaced
        // by renaming a new file over it, which leaves this mapping as it was).
        guard let bytes = FileBytes(mapping: descriptor, offset: headerSize, count: length) ?? FileBytes(reading: descriptor, offset: headerSize, count: length),
              FastChecksum.of(bytes.buffer) == LittleEndian.word(header, at: checksumOffset, bytes: 8)
        else { return nil }
        return (bytes, headerSize + engineLength, detailLength)
    }

    /// The declarations' three blobs, as stored (settings, parameters, events).
    private struct Declarations: Sendable {
        var settings, parameters, events: [UInt8]

        init(_ reader: inout BinaryReader) throws(BinaryReader.Failure) {
            settings = try reader.blob()
            parameters = try reader.blob()
            events = try reader.blob()
        }
    }

    /// The settings and the catalog they declare, without tips or groups.
    private static func declarations(_ blobs: Declarations, origin: String) throws -> (settings: JSONValue, catalog: Catalog) {
        func json(_ bytes: [UInt8], _ name: String) throws -> JSONValue {
            try JSONDocument.parse(SourceFile(path: name, bytes: bytes)).root.value
        }
        let settings = try json(blobs.settings, "settings")
        let parameters = try json(blobs.parameters, "parameters")
        let events = try json(blobs.events, "events")
        let catalog = try CatalogCodec.decode(
            CatalogPieces(settings: settings, parameters: parameters, events: events, groups: .array([]), owners: [:]), origin: origin)
        return (settings, catalog)
    }

    private static func decode(
        _ bytes: FileBytes, path: String, contentHash: String, origin: String, detailStart: Int, detailLength: Int
    ) throws -> EngineSnapshot {
        var reader = BinaryReader(bytes)
        let blobs = try Declarations(&reader)
        let withinLimits = try reader.bool()
        let count = try reader.count()
        let chunks = (count + chunkSize - 1) / chunkSize
        guard try reader.count() == chunks else { throw BinaryReader.Failure("records in other runs") }
        var starts: [Int] = []
        for _ in 0..<chunks { starts.append(try reader.size()) }
        let offsets = starts
        let recordsLength = try reader.count()
        let recordsStart = reader.position
        reader.position += recordsLength
        let hashes = try reader.blob()
        let detailTable = FileBytes(copying: try reader.blob())
        guard hashes.count == 32 * count else { throw BinaryReader.Failure("hashes for other tips") }
        // Each run of records from its offset to the next run's (the last to the end of the records).
        let ends = offsets.dropFirst() + [recordsLength]
        guard zip(offsets, ends).allSatisfy({ $0 <= $1 }) else {
            throw BinaryReader.Failure("records out of order")
        }
        let rules = try reader.blob()
        let groupBytes = try reader.blob()
        guard reader.isAtEnd else { throw BinaryReader.Failure("trailing bytes") }
        /// What the units before the tips' runs give: the settings and declarations (groups left out), the groups,
        /// and the two halves of the compiled rules (`PreparedCatalog.Half`).
        enum Unit: Sendable {
            case declared(Result<(settings: JSONValue, catalog: Catalog), any Error>)
            case groups(Result<[TipGroup], any Error>)
            case rules(PreparedCatalog.RulesHalf)
            /// A run of tips' facts written in place, or why it was not (nothing of it is left written).
            case tips(BinaryReader.Failure?)
        }
        /// Units before the tips' runs: the rules' halves (the largest first), the declarations, the groups
        /// (they list every tip, so they grow with the catalog).
        let halves = PreparedCatalog.Half.allCases
        let leading = halves.count + 2
        var declared: (settings: JSONValue, catalog: Catalog)?
        var groups: [TipGroup]?
        var rulesHalves: [PreparedCatalog.RulesHalf] = []
        // Where each tip's record starts (from the records' start), for decoding a whole tip when a call needs it.
        var recordOffsets = [Int](repeating: 0, count: count)
        let facts = try recordOffsets.withUnsafeMutableBufferPointer { offsetBuffer in try [TipFacts](unsafeUninitializedCapacity: count) { buffer, made in
            nonisolated(unsafe) let (out, offsetsOut) = (buffer, offsetBuffer)
            // On every core: the declarations, the groups and the compiled rules' halves (none needs the tips), and
            // the runs of tip records, each tip's facts written at its place.
            let units = concurrentChunks(count: chunks + leading, chunkSize: 1) { unit -> Unit in
                switch unit.lowerBound {
                case ..<halves.count: return .rules(PreparedCatalog.readAhead(halves[unit.lowerBound], of: rules))
                case halves.count: return .declared(Result { try declarations(blobs, origin: origin) })
                case halves.count + 1:
                    return .groups(Result {
                        var reader = BinaryReader(bytes: groupBytes)
                        let groups = try reader.groups()
                        guard reader.isAtEnd else { throw BinaryReader.Failure("groups of another length") }
                        return groups
                    })
                default: break
                }
                let chunk = unit.lowerBound - leading
                guard let base = out.baseAddress, let offsetBase = offsetsOut.baseAddress else {
                    return .tips(BinaryReader.Failure("no room for tips"))
                }
                let first = chunk * chunkSize
                var records = BinaryReader(bytes)
                records.position = recordsStart + offsets[chunk]
                let end = recordsStart + ends[ends.startIndex + chunk]
                var shapes = BinaryReader.ParameterShapes()
                var written = 0
                do throws(BinaryReader.Failure) {
                    for index in first..<min(first + chunkSize, count) {
                        offsetBase[index] = records.position - recordsStart
                        (base + index).initialize(to: try records.facts(shapes: &shapes))
                        written += 1
                    }
                    guard records.position == end else { throw BinaryReader.Failure("a record of another length") }
                } catch {
                    (base + first).deinitialize(count: written)
                    return .tips(error)
                }
                return .tips(nil)
            }
            var failure: (any Error)?
            for unit in units {
                switch unit {
                case .declared(let result):
                    do { declared = try result.get() } catch { failure = failure ?? error }
                case .groups(let result):
                    do { groups = try result.get() } catch { failure = failure ?? error }
                case .rules(let half): rulesHalves.append(half)
                case .tips(let error?): failure = failure ?? error
                case .tips(nil): break
                }
            }
            if let failure {
                // Every run that was written is unwritten: the array is left empty.
                for (chunk, unit) in units.dropFirst(leading).enumerated() {
                    if case .tips(nil) = unit, let base = out.baseAddress {
                        (base + chunk * chunkSize).deinitialize(count: min(chunkSize, count - chunk * chunkSize))
                    }
                }
                throw failure
            }
            made = count
        } }
        PhaseTrace.mark("snapshot: tips and declarations decoded")
        guard let declared, let groups else { throw BinaryReader.Failure("no declarations") }
        let settings = declared.settings
        let ahead = PreparedCatalog.readAhead(joining: rulesHalves, declarations: declared.catalog)
        var catalog = declared.catalog
        catalog.groups = groups
        // A whole tip is decoded from its record when a call needs it (its facts read, so its record does).
        let startOfRecords = recordsStart
        let positions = recordOffsets
        let decodeTip: @Sendable (Int) -> Tip = { index in
            var records = BinaryReader(bytes)
            records.position = startOfRecords + positions[index]
            var shapes = BinaryReader.ParameterShapes()
            if let tip = try? records.tip(origin: origin, shapes: &shapes) { return tip }
            // Not reached (the facts of the same bytes read): the tip by its facts, with no actions and a rule that
            // never holds, so a damaged tip never shows.
            let known = facts[index]
            return Tip(
                id: known.id, title: BinaryReader.noText, parameters: known.parameters, rules: [TipRule(source: "false")], options: known.options,
                republish: known.republish, file: origin)
        }
        let prepared = try PreparedCatalog(declarations: catalog, facts: facts, tip: decodeTip, rules: ahead, withinLimits: withinLimits)
        PhaseTrace.mark("snapshot: engine catalog assembled")
        return EngineSnapshot(
            prepared: prepared, revision: revision(contentHash, ids: facts.map(\.id), hashes: hashes), settings: settings, path: path,
            detailStart: detailStart, detailLength: detailLength, hashes: hashes, detailTable: detailTable)
    }

    /// The revision of the version `contentHash` whose tips' revision hashes are `hashes` (32 bytes a tip, in
    /// `tips`' order), made into hex strings only if the engine asks for them (when the channel moved).
    static func revision(_ contentHash: String, ids: [TipID], hashes: [UInt8]) -> CatalogRevision {
        CatalogRevision(version: contentHash, contentHashes: TipContentHashes(deferred: {
            var table: [TipID: String] = [:]
            table.reserveCapacity(ids.count)
            for (index, id) in ids.enumerated() { table[id] = hash(index, in: hashes) }
            return table
        }))
    }

    /// The hex revision hash of the tip at `index` in `hashes` (32 bytes a tip).
    static func hash(_ index: Int, in hashes: [UInt8]) -> String {
        SHA256Digest(bytes: Array(hashes[(32 * index)..<(32 * index + 32)]))?.hex ?? ""
    }

    /// Where the detail of the tip at `index` is in the detail section; nil when the table is damaged.
    func detail(_ index: Int) -> (offset: Int, length: Int)? {
        var reader = BinaryReader(detailTable)
        do throws(BinaryReader.Failure) {
            for _ in 0..<index {
                _ = try reader.size()
                _ = try reader.size()
            }
            let (offset, length) = (try reader.size(), try reader.size())
            return offset + length <= detailLength ? (offset, length) : nil
        } catch {
            return nil
        }
    }

    /// The catalog with `tip`'s whole definition and translations (for `engine show`), read from the detail
    /// section and checked against the tip's revision hash; nil when the tip is unknown or its bytes are damaged.
    func detailCatalog(for tip: TipID) -> Catalog? {
        guard let index = prepared.index(of: tip), 32 * index + 32 <= hashes.count,
              let detail = detail(index)
        else { return nil }
        let expected = Self.hash(index, in: hashes)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let bytes = Self.read(descriptor, offset: detailStart + detail.offset, count: detail.length),
              SHA256.hash(bytes).hex == expected, let zero = bytes.firstIndex(of: 0)
        else { return nil }
        do {
            let definition = try JSONDocument.parse(SourceFile(path: "tip", bytes: Array(bytes[..<zero]))).root.value
            let rest = Array(bytes[(zero + 1)...])
            let strings = rest.isEmpty ? nil : try JSONDocument.parse(SourceFile(path: "strings", bytes: rest)).root.value
            let policy = prepared.facts(at: index).republish.rawValue
            return try Self.catalog(prepared.declarations, settings: settings, showing: CatalogPieces.Owner(tip: definition, strings: strings, republish: policy), named: tip)
        } catch {
            return nil
        }
    }

    /// `catalog` (the engine's) with one owner's whole tip and translations decoded, for `engine show`.
    static func catalog(_ catalog: Catalog, settings: JSONValue, showing owner: CatalogPieces.Owner, named tip: TipID) throws -> Catalog {
        let pieces = CatalogPieces(
            settings: settings, parameters: .array([]), events: .array([]), groups: .array([]), owners: [tip.rawValue: owner])
        var decoded = try CatalogCodec.decode(pieces, origin: catalog.root)
        decoded.parameters = catalog.parameters
        decoded.events = catalog.events
        decoded.groups = catalog.groups
        return decoded
    }

    // MARK: bytes

    /// `count` bytes at `offset`, or nil when the file is shorter.
    static func read(_ descriptor: Int32, offset: Int, count: Int) -> [UInt8]? {
        guard count >= 0 else { return nil }
        var complete = false
        // Read straight into the array's storage (no zero fill first); a short read gives nil.
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            if let base = buffer.baseAddress {
                while done < count {
                    let result = pread(descriptor, base + done, count - done, off_t(offset + done))
                    if result < 0 && errno == EINTR { continue }
                    guard result > 0 else { break }
                    done += result
                }
            }
            complete = done == count
            initialized = complete ? count : 0
        }
        return complete ? bytes : nil
    }
}

/// The snapshot's value types on top of the shared binary coding.
extension BinaryWriter {
    /// What the engine reads of a tip (its texts are in the detail section).
    mutating func record(_ tip: Tip) {
        string(tip.id.rawValue)
        optionalString(tip.customID?.source)
        // The parameters as one blob: tips often declare the same ones, which a reader then decodes once.
        var parameters = BinaryWriter()
        parameters.count(tip.parameters.count)
        for parameter in tip.parameters { parameters.recordField(parameter) }
        blob(parameters.bytes)
        count(tip.rules.count)
        for rule in tip.rules { string(rule.source) }
        optionalInt(tip.options.maxDisplayCount)
        optionalDouble(tip.options.maxDisplayDuration?.seconds)
        bool(tip.options.ignoresDisplayFrequency)
        bool(tip.republish == .reset)
        // The actions `engine action` accepts: the tip's own, then each device's that has a list.
        count(tip.actions.count)
        for action in tip.actions { string(action.id) }
        let devices = tip.platforms.keys.sorted { $0.rawValue < $1.rawValue }.filter { tip.platforms[$0]?.actions != nil }
        count(devices.count)
        for device in devices {
            string(device.rawValue)
            let actions = tip.platforms[device]?.actions ?? []
            count(actions.count)
            for action in actions { string(action.id) }
        }
    }
}

extension BinaryWriter {
    /// Groups: per group its id, priority and members' ids.
    mutating func groups(_ groups: [TipGroup]) {
        count(groups.count)
        for group in groups {
            string(group.id.rawValue)
            string(group.priority.rawValue)
            count(group.tips.count)
            for tip in group.tips { string(tip.rawValue) }
        }
    }
}

extension BinaryReader {
    /// Groups as `BinaryWriter.groups` wrote them.
    mutating func groups() throws(Failure) -> [TipGroup] {
        var groups: [TipGroup] = []
        let groupCount = try count()
        groups.reserveCapacity(groupCount)
        for _ in 0..<groupCount {
            let id = GroupID(try string())
            guard let priority = TipGroup.Priority(rawValue: try string()) else { throw Failure("an unknown group priority") }
            let memberCount = try count()
            var tips: [TipID] = []
            tips.reserveCapacity(memberCount)
            for _ in 0..<memberCount { tips.append(TipID(try string())) }
            groups.append(TipGroup(id: id, priority: priority, tips: tips))
        }
        return groups
    }

    /// The text of what the snapshot keeps without its texts.
    static let noText = LocalizedText(key: "", source: "", message: nil)

    /// The parameter list last decoded, with its bytes: the next tip declaring the same shares it.
    struct ParameterShapes {
        var bytes: [UInt8] = []
        var fields: [ValueType.RecordField] = []
    }

    /// A tip as `BinaryWriter.record` wrote it, with what the engine reads: its texts are left empty (they are
    /// in the detail section), its custom-ID template is parsed when the engine needs it, and its file is the
    /// published version (`origin`).
    mutating func tip(origin: String, shapes: inout ParameterShapes) throws(Failure) -> Tip {
        var tip: Tip?
        _ = try record(shapes: &shapes, whole: { tip = $0 }, origin: origin)
        guard let tip else { throw Failure("no tip") }
        return tip
    }

    /// What the engine reads of every tip (`TipFacts`) from a record `BinaryWriter.record` wrote, its texts
    /// stepped over: the whole tip is decoded (`tip(origin:shapes:)`) only when a call needs it. Every part of
    /// the record is checked as `tip` checks it, so a record whose facts read can be decoded whole.
    mutating func facts(shapes: inout ParameterShapes) throws(Failure) -> TipFacts {
        try record(shapes: &shapes, whole: nil, origin: "")
    }

    /// Reads one record: its facts, and with `whole`, the whole tip (given to `whole`).
    private mutating func record(shapes: inout ParameterShapes, whole: ((Tip) -> Void)?, origin: String) throws(Failure) -> TipFacts {
        let keepsTexts = whole != nil
        /// A string, or (facts only) nil after stepping over it.
        func text() throws(Failure) -> String? {
            guard keepsTexts else {
                position += try count()
                return nil
            }
            return try string()
        }
        let id = TipID(try string())
        let customID = try bool() ? try text().map { LocalizedText(key: "", source: $0, message: nil) } : nil
        let length = try count()
        // Compared in place: a slice of the shared array would retain it (from every core at once).
        let start = position
        let same = length == shapes.bytes.count && shapes.bytes.withUnsafeBufferPointer { known in
            guard let all = bytes.baseAddress, let known = known.baseAddress else { return length == 0 }
            return memcmp(all + start, known, length) == 0
        }
        if !same {
            let parameterBytes = Array(bytes[start..<(start + length)])
            var parameters = BinaryReader(bytes: parameterBytes)
            let fieldCount = try parameters.count()
            var fields: [ValueType.RecordField] = []
            fields.reserveCapacity(fieldCount)
            for _ in 0..<fieldCount { fields.append(try parameters.recordField()) }
            guard parameters.isAtEnd else { throw Failure("parameters of another length") }
            shapes = ParameterShapes(bytes: parameterBytes, fields: fields)
        }
        position += length
        let ruleCount = try count()
        var rules: [TipRule] = []
        if keepsTexts { rules.reserveCapacity(ruleCount) }
        for _ in 0..<ruleCount {
            if let source = try text() { rules.append(TipRule(source: source)) }
        }
        let options = TipOptions(
            maxDisplayCount: try optionalInt(), maxDisplayDuration: try optionalDouble().map(TimeSpan.init(seconds:)),
            ignoresDisplayFrequency: try bool())
        let republish: RepublishPolicy = try bool() ? .reset : .keep
        // Actions keep only their ids (what `engine action` checks).
        func actions() throws(Failure) -> [TipAction] {
            let count = try count()
            var actions: [TipAction] = []
            if keepsTexts { actions.reserveCapacity(count) }
            for _ in 0..<count {
                if let id = try text() { actions.append(TipAction(id: id, title: Self.noText)) }
            }
            return actions
        }
        let ownActions = try actions()
        var platforms: [Device: TipPlatformContent] = [:]
        for _ in 0..<(try count()) {
            guard let device = Device(rawValue: try string()) else { throw Failure("an unknown device") }
            let deviceActions = try actions()
            if keepsTexts { platforms[device] = TipPlatformContent(actions: deviceActions) }
        }
        let facts = TipFacts(id: id, parameters: shapes.fields, options: options, republish: republish, ruleCount: ruleCount)
        whole?(Tip(
            id: id, customID: customID, title: Self.noText, actions: ownActions, parameters: shapes.fields, rules: rules,
            options: options, republish: republish, platforms: platforms, file: origin))
        return facts
    }
}
