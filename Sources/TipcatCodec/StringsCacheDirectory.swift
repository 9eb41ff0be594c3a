public import TipcatCatalog
import TipcatCore
import Synchronization
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
/// What it returns is checked against the String Catalog's SHA-256, the context's, and `build` (this tipcat:
/// another build may decode differently), then the file's length and checksum; anything else is a miss. The
/// directory holds nothing that cannot be rebuilt: deleting it is always safe.
public final class StringsCacheDirectory: StringsDecodingCache {
    public let directory: String
    /// Identifies the tipcat that writes and reads the files (its version and executable).
    public let build: [UInt8]
    /// What `decoding` returned last: the main file it came from and the delta's entries.
    private let loaded = Mutex<Loaded?>(nil)
    /// With `writesWhenAsked`, what `keep` was given, written by `writePending`.
    private let pending = Mutex<[@Sendable () -> Void]>([])
    /// Whether `keep` waits for `writePending` (a command that may still fail writes nothing until it succeeds).
    public let writesWhenAsked: Bool

    private struct Loaded {
        var path: String
        var fingerprint: [UInt8]
        var context: [UInt8]
        var checksum: UInt64
        var delta: Set<Int>
    }

    public init(directory: String, build: [UInt8], writesWhenAsked: Bool = false) {
        self.directory = directory
        self.build = build
        self.writesWhenAsked = writesWhenAsked
    }

    /// Writes what `keep` was given since (with `writesWhenAsked`).
    public func writePending() {
        for write in pending.withLock({ writes in defer { writes = [] }; return writes }) { write() }
    }

    /// The file kept for the String Catalog at `path`.
    public func file(for path: String) -> String {
        let name = "strings-" + String(SHA256.hash(Array(path.utf8)).hex.prefix(16)) + ".cache"
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// SHA-256; a large input is hashed in 4 MiB pieces on every core and the pieces' digests hashed in turn
    /// (equal bytes still give equal fingerprints, and different bytes different ones).
    public func fingerprint(_ bytes: [UInt8]) -> [UInt8] {
        let piece = 4 << 20
        guard bytes.count > 2 * piece else { return SHA256.hash(bytes).bytes }
        let digests = concurrentChunks(count: (bytes.count + piece - 1) / piece, chunkSize: 1) { range in
            range.map { index in
                var hasher = SHA256()
                bytes.withUnsafeBytes { buffer in
                    hasher.update(UnsafeRawBufferPointer(rebasing: buffer[(index * piece)..<min(bytes.count, (index + 1) * piece)]))
                }
                return hasher.finalize().bytes
            }
        }.flatMap { $0 }
        var hasher = SHA256()
        hasher.update(Array("pieces \(bytes.count)\n".utf8))
        for digest in digests { hasher.update(digest) }
        return hasher.finalize().bytes
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
        guard let bytes = try? DiskFileSystem().read(file),
              case (var decoding, let checksum)? = StringsCacheFile.decodeIdentified(bytes, path: path, file: fingerprint, context: context)
        else { return nil }
        var delta = Set<Int>()
        if let deltaBytes = try? DiskFileSystem().read(file + ".delta"),
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

    public func keep(_ decoding: StringsDecoding, ofFile path: String, fingerprint: [UInt8], context: [UInt8], changed: [Int]?) {
        guard !writesWhenAsked else {
            pending.withLock {
                $0.append { self.write(decoding, ofFile: path, fingerprint: fingerprint, context: context, changed: changed) }
            }
            return
        }
        write(decoding, ofFile: path, fingerprint: fingerprint, context: context, changed: changed)
    }

    private func write(_ decoding: StringsDecoding, ofFile path: String, fingerprint: [UInt8], context: [UInt8], changed: [Int]?) {
        let file = file(for: path)
        let context = contextDigest(context)
        let previous = loaded.withLock { $0 }
        if let changed, let previous, previous.path == path, previous.fingerprint == fingerprint, previous.context == context {
            let delta = previous.delta.union(changed).filter { $0 < decoding.entries.count }.sorted()
            if delta.count <= max(64, decoding.entries.count / 8) {
                let bytes = StringsCacheFile.encodeDelta(
                    delta.map { ($0, decoding.entries[$0]) }, path: path, file: fingerprint, context: context, checksum: previous.checksum)
                if StringsCacheDirectory.writeReplacing(bytes, at: file + ".delta") {
                    loaded.withLock { $0?.delta = Set(delta) }
                }
                return
            }
        }
        let (bytes, checksum) = StringsCacheFile.encodeIdentified(decoding, path: path, file: fingerprint, context: context)
        guard StringsCacheDirectory.writeReplacing(bytes, at: file) else { return }
        // A delta is bound to the main file it was written for: the old one is void now; removed all the same.
        unlink(file + ".delta")
        loaded.withLock { $0 = Loaded(path: path, fingerprint: fingerprint, context: context, checksum: checksum, delta: []) }
    }

    /// Writes `bytes` to a temporary file beside `path` and renames it over `path`, creating the directory (and
    /// its parents) first; false (and nothing left behind) when any step fails.
    static func writeReplacing(_ bytes: [UInt8], at path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in parts.dropLast() where !part.isEmpty {
            prefix += "/" + part
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { return false }
        }
        let temporary = path + ".tmp.\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        let complete = bytes.withUnsafeBytes { buffer -> Bool in
            var written = 0
            while written < buffer.count, let base = buffer.baseAddress {
                let result = Glibc.write(descriptor, base + written, buffer.count - written)
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { return false }
                written += result
            }
            return true
        }
        close(descriptor)
        guard complete, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
