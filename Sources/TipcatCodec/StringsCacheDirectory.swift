public import TipcatCatalog
public import TipcatCore
import Synchronization
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `StringsDecodingCache` in a directory: one file per String Catalog path (`strings-<hash of the path>.cache`,
/// `StringsCacheFile`), replaced whole through a rename, so readers see an old file or a new one. Entries
/// decoded again since (a few tips edited) go to a small delta file beside it (`….delta`, bound to the main
/// file's checksum) instead of rewriting tens of megabytes; the main file is rewritten once the delta holds
/// more than an eighth of the entries.
///
/// What it returns is checked against the String Catalog's fingerprint (a keyed hash, `fingerprint(_:)`), the
/// context's digest and `build` (this tipcat: another build may decode differently), then the file's length and
/// checksum; anything else is a miss. The directory holds nothing that cannot be rebuilt: deleting it is always
/// safe (its `fingerprint.key` too: new keys only make every file a miss once).
public final class StringsCacheDirectory: StringsDecodingCache {
    public let directory: String
    /// Identifies the tipcat that writes and reads the files (its version and executable).
    public let build: [UInt8]
    /// What `decoding` returned last: the main file it came from and the delta's entries.
    private let loaded = Mutex<Loaded?>(nil)
    /// With `writesWhenAsked`, what `keep` was given: each makes its files, written by `startWrites`.
    private let pending = Mutex<[@Sendable () -> [StagedFile]]>([])
    /// Whether `keep` waits for `startWrites` (a command that may still fail keeps nothing unless it succeeds).
    public let writesWhenAsked: Bool

    /// What `tipDecodings` returned last: the file's bytes and where each tip file's record is in them.
    private let loadedTips = Mutex<LoadedTips?>(nil)

    private struct LoadedTips: Sendable {
        var directory: String
        var context: [UInt8]
        var tipIDs: [UInt8]
        var bytes: FileBytes
        /// Where each file's record is in `bytes` (not for the files the delta replaced).
        var records: [String: Range<Int>]
        /// The main file's decodings, its checksum, and the files its delta replaced.
        var main: [String: TipDecoding]
        var checksum: UInt64
        var delta: Set<String>
    }

    private struct Loaded {
        var path: String
        var fingerprint: [UInt8]
        var context: [UInt8]
        var checksum: UInt64
        var delta: Set<Int>
    }

    /// The fingerprints' keys once read or made, and whether they are in the directory's key file (or staged to be).
    private let key = Mutex<(key: FingerprintKey, stored: Bool)?>(nil)

    /// The keys (`<kind>-<key>.cache`) of the paths this process asked about: its catalog's files, never pruned.
    private let usedKeys = Mutex<Set<String>>([])

    public init(directory: String, build: [UInt8], writesWhenAsked: Bool = false) {
        self.directory = directory
        self.build = build
        self.writesWhenAsked = writesWhenAsked
    }

    /// Starts writing what `keep` was given (with `writesWhenAsked`) since the last call on another thread, beside
    /// the files' places: the command goes on meanwhile, then `commit`s (the files take their places) or `discard`s
    /// them.
    public func startWrites() -> PendingWrites {
        let writes = pending.withLock { writes in defer { writes = [] }; return writes }
        return PendingWrites(writes)
    }

    /// Files being written beside their places (`StringsCacheDirectory.startWrites`).
    public final class PendingWrites: Sendable {
        private let written: BackgroundValue<[StagedFile]>?
        private let taken = Mutex(false)

        init(_ writes: [@Sendable () -> [StagedFile]]) {
            written = writes.isEmpty ? nil : BackgroundValue { writes.flatMap { $0() } }
        }

        /// Waits for the files, then moves each into its place.
        public func commit() {
            for file in finished() { file.commit() }
        }

        /// Waits for the files, then removes them.
        public func discard() {
            // Every file first: a directory made for one file may hold others.
            let files = finished()
            for file in files { unlink(file.temporary) }
            for directory in files.reversed().flatMap({ $0.madeDirectories.reversed() }) { rmdir(directory) }
        }

        /// The files, once: a second commit or discard has none.
        private func finished() -> [StagedFile] {
            let files = written?.value ?? []
            return taken.withLock { taken in
                defer { taken = true }
                return taken ? [] : files
            }
        }
    }

    /// A file written beside `path`, renamed over it by `commit` (then `afterwards` runs).
    package struct StagedFile: Sendable {
        var temporary: String
        var path: String
        /// The directories made for it, outermost first (removed again, when empty, if it is discarded).
        var madeDirectories: [String] = []
        var afterwards: @Sendable () -> Void = {}

        /// Removes the file, and the directories made for it when nothing else is in them.
        package func discard() {
            unlink(temporary)
            for directory in madeDirectories.reversed() { rmdir(directory) }
        }

        /// Renames the file over `path`; false (and the file removed) when that fails.
        @discardableResult
        package func commit() -> Bool {
            guard rename(temporary, path) == 0 else {
                unlink(temporary)
                return false
            }
            afterwards()
            return true
        }
    }

    /// Stages `files` now, or keeps them for `startWrites` (with `writesWhenAsked`).
    /// The fingerprints' key file goes first, when this process made the keys.
    private func write(_ files: @escaping @Sendable () -> [StagedFile]) {
        let withKey: @Sendable () -> [StagedFile] = { self.stagedKey() + files() }
        if writesWhenAsked {
            pending.withLock { $0.append(withKey) }
        } else {
            for file in withKey() { file.commit() }
        }
    }

    /// The file kept for the String Catalog at `path`.
    public func file(for path: String) -> String { file("strings", for: path) }

    /// `<kind>-<hash of path>.cache` in the directory.
    private func file(_ kind: String, for path: String) -> String {
        let key = String(SHA256.hash(Array(path.utf8)).hex.prefix(16))
        usedKeys.withLock { _ = $0.insert(key) }
        return joined(kind + "-" + key + ".cache")
    }

    private func joined(_ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Removes what the cache keeps for catalogs not published from within `age` seconds of `now` (30 days by
    /// default): the files of a key (`<kind>-<key>.cache` and its `.delta`, every kind) when none of them was
    /// written since, and the key is not one this process used. Also a file staged to replace one of them
    /// (`<name>.tmp.<pid>.<n>`) that its process, gone, left behind (killed before it committed its caches) and that
    /// is an hour old. Files not named that way are left alone. Returns the names removed, sorted.
    @discardableResult
    public func prune(olderThan age: Double = 30 * 86_400, now: Double) -> [String] {
        let disk = DiskFileSystem()
        guard let names = disk.list(directory) else { return [] }
        var groups: [String: [String]] = [:]
        var removed: [String] = []
        for name in names {
            if let writer = StringsCacheDirectory.stagingProcess(ofFileNamed: name) {
                let modified = disk.modificationTime(joined(name)) ?? now
                if now - modified > 3600, writer != getpid(), kill(writer, 0) != 0, errno == ESRCH, unlink(joined(name)) == 0 {
                    removed.append(name)
                }
                continue
            }
            guard let key = StringsCacheDirectory.key(ofFileNamed: name) else { continue }
            groups[key, default: []].append(name)
        }
        let used = usedKeys.withLock { $0 }
        for (key, files) in groups where !used.contains(key) {
            let newest = files.compactMap { disk.modificationTime(joined($0)) }.max() ?? now
            guard now - newest > age else { continue }
            for name in files where unlink(joined(name)) == 0 { removed.append(name) }
        }
        return removed.sorted()
    }

    /// The process that staged the file `name`, when it is a cache file's staged replacement
    /// (`strings-0123456789abcdef.cache.tmp.<pid>.<n>`, likewise a delta's or `fingerprint.key`'s); nil for any other.
    static func stagingProcess(ofFileNamed name: String) -> pid_t? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[parts.count - 3] == "tmp",
              let process = pid_t(parts[parts.count - 2]), process > 0, UInt32(parts[parts.count - 1]) != nil
        else { return nil }
        let staged = parts.dropLast(3).joined(separator: ".")
        return staged == "fingerprint.key" || key(ofFileNamed: staged) != nil ? process : nil
    }

    /// The key of a cache file's name (`strings-0123456789abcdef.cache`, `tips-….cache.delta`), nil for any other.
    static func key(ofFileNamed name: String) -> String? {
        let base = name.hasSuffix(".cache.delta") ? name.dropLast(".cache.delta".count)
            : name.hasSuffix(".cache") ? name.dropLast(".cache".count) : nil
        guard let base, let dash = base.lastIndex(of: "-") else { return nil }
        let kind = base[..<dash]
        let key = base[base.index(after: dash)...]
        guard !kind.isEmpty, kind.allSatisfy({ $0 >= "a" && $0 <= "z" }), key.count == 16,
              key.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) })
        else { return nil }
        return String(key)
    }

    /// The keyed polynomial hashes (`FingerprintKey`, the directory's own keys) of the input's 4 MiB pieces, then
    /// SHA-256 of the input's length and those hashes: 32 bytes (equal bytes give equal fingerprints, and different
    /// bytes different ones). On one core: the loader hashes the String Catalog on another thread while it reads
    /// the tips, and work spread over every core there would leave the loader's own parallel work a core short.
    public func fingerprint(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        fingerprint(bytes, afterPiece: { _ in })
    }

    /// A keyed digest of each 4 MiB piece, the pieces' digests hashed together; `afterPiece` is told each piece's
    /// range once it is hashed.
    public func fingerprint(_ bytes: UnsafeRawBufferPointer, afterPiece: (Range<Int>) -> Void) -> [UInt8] {
        let key = fingerprintKey()
        let piece = 4 << 20
        var hasher = SHA256()
        hasher.update(Array("pieces \(bytes.count)\n".utf8))
        for start in stride(from: 0, to: max(bytes.count, 1), by: piece) {
            let range = start..<min(bytes.count, start + piece)
            hasher.update(key.digest(UnsafeRawBufferPointer(rebasing: bytes[range])))
            afterPiece(range)
        }
        return hasher.finalize().bytes
    }

    /// The fingerprints' keys: the directory's key file's, else new ones (written with the first files this
    /// cache writes; until then, or when that fails, nothing this process keeps is found by another).
    private func fingerprintKey() -> FingerprintKey {
        key.withLock { key in
            if let known = key { return known.key }
            let path = joined(FingerprintKey.fileName)
            if let bytes = try? DiskFileSystem().read(path), let stored = FingerprintKey(file: bytes) {
                key = (stored, true)
                return stored
            }
            let made = FingerprintKey.random()
            key = (made, false)
            return made
        }
    }

    /// The key file staged, the first time files are staged after this process made its keys (once: the files
    /// staged with it are committed or discarded together).
    private func stagedKey() -> [StagedFile] {
        let made: FingerprintKey? = key.withLock { key in
            guard let known = key, !known.stored else { return nil }
            key?.stored = true
            return known.key
        }
        guard let made, let staged = StringsCacheDirectory.stage(made.fileBytes, at: joined(FingerprintKey.fileName)) else { return [] }
        // Readable by its owner only: whoever knows the keys could make two files with the same fingerprint.
        guard chmod(staged.temporary, 0o600) == 0 else {
            staged.discard()
            return []
        }
        return [staged]
    }

    private func contextDigest(_ context: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(Array("\(build.count)\n".utf8))
        hasher.update(build)
        hasher.update(context)
        return hasher.finalize().bytes
    }

    public func decoding(ofFile path: String, fingerprint: [UInt8], context: [UInt8]) -> StringsDecoding? {
        let file = file(for: path)
        let context = contextDigest(context)
        guard let bytes = try? DiskFileSystem().map(file),
              case (var decoding, let checksum)? = StringsCacheFile.decode(bytes, path: path, file: fingerprint, context: context)
        else { return nil }
        var delta = Set<Int>()
        if let deltaBytes = try? DiskFileSystem().map(file + ".delta"),
           let entries = StringsCacheFile.decodeDelta(deltaBytes, path: path, file: fingerprint, context: context, checksum: checksum),
           entries.allSatisfy({ $0.0 < decoding.entries.count }) {
            for (index, entry) in entries {
                decoding.entries[index] = entry
                delta.insert(index)
            }
        }
        loaded.withLock { $0 = Loaded(path: path, fingerprint: fingerprint, context: context, checksum: checksum, delta: delta) }
        return decoding
    }

    /// Whether the directory has a file for the String Catalog at `path` (which `decoding` may then accept).
    public func mayHaveDecoding(ofFile path: String) -> Bool {
        access(file(for: path), F_OK) == 0
    }

    public func keep(_ decoding: StringsDecoding, ofFile path: String, fingerprint: [UInt8], context: [UInt8], changed: [Int: StringsDecoding.Entry]?) {
        write { self.stage(decoding, ofFile: path, fingerprint: fingerprint, context: context, changed: changed) }
    }

    private func stage(
        _ decoding: StringsDecoding, ofFile path: String, fingerprint: [UInt8], context: [UInt8], changed: [Int: StringsDecoding.Entry]?
    ) -> [StagedFile] {
        let file = file(for: path)
        let context = contextDigest(context)
        let previous = loaded.withLock { $0 }
        if let changed, let previous, previous.path == path, previous.fingerprint == fingerprint, previous.context == context {
            let delta = previous.delta.union(changed.keys).filter { $0 < decoding.entries.count }.sorted()
            if delta.count <= max(64, decoding.entries.count / 8) {
                let bytes = StringsCacheFile.encodeDelta(
                    delta.map { ($0, changed[$0] ?? decoding.entries[$0]) }, path: path, file: fingerprint, context: context, checksum: previous.checksum)
                guard var staged = StringsCacheDirectory.stage(bytes, at: file + ".delta") else { return [] }
                staged.afterwards = { self.loaded.withLock { $0?.delta = Set(delta) } }
                return [staged]
            }
        }
        // The whole file, the entries decoded again in their places (copied once, here, when it is rewritten).
        var decoding = decoding
        for (index, entry) in changed ?? [:] where index < decoding.entries.count { decoding.entries[index] = entry }
        // Streamed: the tens of megabytes are never held whole.
        var checksum: UInt64 = 0
        guard var staged = StringsCacheDirectory.stage(at: file, headerLength: StringsCacheFile.headerLength, { write in
            guard let (header, fileChecksum) = StringsCacheFile.encode(decoding, path: path, file: fingerprint, context: context, write: write)
            else { return nil }
            checksum = fileChecksum
            return header
        }) else { return [] }
        let written = checksum
        staged.afterwards = {
            // A delta is bound to the main file it was written for: the old one is void now; removed all the same.
            unlink(file + ".delta")
            self.loaded.withLock { $0 = Loaded(path: path, fingerprint: fingerprint, context: context, checksum: written, delta: []) }
        }
        return [staged]
    }

    // MARK: The tip files' decodings

    /// The file of tip decodings kept for the catalog at `directory`.
    public func tipsFile(for directory: String) -> String { file("tips", for: directory) }

    /// The main file's decodings with its delta's (`….delta`, bound to the main file's checksum) in their places.
    public func tipDecodings(ofCatalog directory: String, context: [UInt8]) -> TipDecodings? {
        let context = contextDigest(context)
        let file = tipsFile(for: directory)
        guard let bytes = try? DiskFileSystem().map(file), let decoded = TipsCacheFile.decode(bytes, context: context) else { return nil }
        var (decodings, records) = (decoded.decodings, decoded.records)
        let checksum = decoded.checksum
        let main = decodings.byPath
        var delta = Set<String>()
        if let deltaBytes = try? DiskFileSystem().map(file + ".delta"),
           let changed = TipsCacheFile.decodeDelta(deltaBytes, context: context, checksum: checksum) {
            for (path, decoding) in changed {
                decodings.byPath[path] = decoding
                records[path] = nil
                delta.insert(path)
            }
        }
        loadedTips.withLock {
            $0 = LoadedTips(
                directory: directory, context: context, tipIDs: decodings.tipIDs, bytes: bytes, records: records, main: main, checksum: checksum,
                delta: delta)
        }
        return decodings
    }

    /// Keeps `decodings`: when they differ from what was loaded (same context and tip IDs) in a few files, as a
    /// delta of those beside the main file; otherwise as a new main file, each unchanged file's record copied.
    public func keep(_ decodings: TipDecodings, ofCatalog directory: String, context: [UInt8]) {
        write {
            let context = self.contextDigest(context)
            let file = self.tipsFile(for: directory)
            let loaded = self.loadedTips.withLock { $0 }.flatMap { loaded in
                loaded.directory == directory && loaded.context == context && loaded.tipIDs == decodings.tipIDs ? loaded : nil
            }
            // Files whose decoding is not the main file's: the delta's so far, and those that changed since.
            if let loaded, decodings.byPath.count == loaded.main.count, decodings.byPath.keys.allSatisfy({ loaded.main[$0] != nil }) {
                let differing = decodings.byPath.filter { path, decoding in decoding.fingerprint != loaded.main[path]?.fingerprint || loaded.delta.contains(path) }
                if differing.count <= max(64, decodings.byPath.count / 8) {
                    let records = differing.sorted { $0.key < $1.key }
                    let paths = Set(differing.keys)
                    let bytes = TipsCacheFile.encodeDelta(records, context: context, checksum: loaded.checksum)
                    guard var staged = StringsCacheDirectory.stage(bytes, at: file + ".delta") else { return [] }
                    staged.afterwards = { self.loadedTips.withLock { $0?.delta = paths } }
                    return [staged]
                }
            }
            // A file decoded to what the loaded main file holds for it (same bytes, context and tip IDs) keeps its record.
            let staging = StringsCacheDirectory.stage(at: file, headerLength: TipsCacheFile.headerLength) { write in
                TipsCacheFile.encode(decodings, context: context, reusing: { path, decoding in
                    guard let loaded, let record = loaded.records[path], decoding.fingerprint == loaded.main[path]?.fingerprint else { return nil }
                    return UnsafeRawBufferPointer(rebasing: loaded.bytes.buffer[record])
                }, write: write)
            }
            guard var staged = staging else { return [] }
            // A delta is bound to the main file it was written for: the old one is void now; removed all the same.
            staged.afterwards = {
                unlink(file + ".delta")
                self.loadedTips.withLock { $0 = nil }
            }
            return [staged]
        }
    }

    // MARK: The owners' objects memo

    /// The file of `ContentTree` memo records for the catalog whose String Catalog is at `path`.
    public func ownersFile(for path: String) -> String { file("owners", for: path) }

    /// The memo records kept for `path` (none when there are none, or they are damaged or from another build):
    /// read on their own, so a publish can read them while the catalog loads.
    public func ownerRecords(for path: String) -> [ByteKey: OwnerObjectsMemo.Record] {
        let records = (try? DiskFileSystem().map(ownersFile(for: path))).flatMap {
            StringsCacheFile.decodeOwners($0, context: contextDigest([]))
        }
        return records ?? [:]
    }

    /// Keeps `memo`'s records for `path` (see `writesWhenAsked`), encoded as they are written.
    public func keep(_ memo: OwnerObjectsMemo, for path: String) {
        write { self.staged(self.encoded(memo), for: path) }
    }

    /// A memo's file, encoded (`encoded(_:)`) ahead of `keep(_:for:)`: a command can encode it while other work goes
    /// on and write it only once it knows the memo is wanted.
    public struct EncodedMemo: Sendable {
        fileprivate let bytes: [UInt8]
    }

    /// `memo`'s file, for `keep(_:for:)`.
    public func encoded(_ memo: OwnerObjectsMemo) -> EncodedMemo {
        EncodedMemo(bytes: StringsCacheFile.encodeOwners(memo.records, context: contextDigest([])))
    }

    /// Keeps an encoded memo for `path` (see `writesWhenAsked`).
    public func keep(_ memo: EncodedMemo, for path: String) {
        write { self.staged(memo, for: path) }
    }

    /// The memo's file for `path`, staged beside its place (none when that fails).
    private func staged(_ memo: EncodedMemo, for path: String) -> [StagedFile] {
        StringsCacheDirectory.stage(memo.bytes, at: ownersFile(for: path)).map { [$0] } ?? []
    }

    /// Writes `bytes` to a temporary file beside `path`, creating the directory (and its parents) first; nil
    /// (and nothing left behind) when any step fails.
    package static func stage(_ bytes: [UInt8], at path: String) -> StagedFile? {
        stage(at: path, headerLength: 0) { write in write(bytes[...]) ? [] : nil }
    }

    /// `stage`, the file written by `body` a piece at a time after `headerLength` bytes; `body` returns those
    /// bytes (written at the start last), nil when it failed.
    package static func stage(at path: String, headerLength: Int, _ body: ((ArraySlice<UInt8>) -> Bool) -> [UInt8]?) -> StagedFile? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        var prefix = path.hasPrefix("/") ? "" : "."
        var made: [String] = []
        for part in parts.dropLast() where !part.isEmpty {
            prefix += "/" + part
            if mkdir(prefix, 0o755) == 0 {
                made.append(prefix)
            } else if errno != EEXIST {
                for directory in made.reversed() { rmdir(directory) }
                return nil
            }
        }
        let temporary = path + ".tmp.\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            for directory in made.reversed() { rmdir(directory) }
            return nil
        }
        func write(_ piece: ArraySlice<UInt8>, at offset: Int? = nil) -> Bool {
            piece.withUnsafeBytes { buffer -> Bool in
                var written = 0
                while written < buffer.count, let base = buffer.baseAddress {
                    let result = offset.map { pwrite(descriptor, base + written, buffer.count - written, off_t($0 + written)) }
                        ?? Glibc.write(descriptor, base + written, buffer.count - written)
                    if result < 0 && errno == EINTR { continue }
                    guard result > 0 else { return false }
                    written += result
                }
                return true
            }
        }
        var complete = lseek(descriptor, off_t(headerLength), SEEK_SET) == off_t(headerLength)
        if complete, let header = body({ write($0) }), header.count == headerLength {
            complete = headerLength == 0 || write(header[...], at: 0)
        } else {
            complete = false
        }
        close(descriptor)
        let staged = StagedFile(temporary: temporary, path: path, madeDirectories: made)
        guard complete else {
            staged.discard()
            return nil
        }
        return staged
    }
}
