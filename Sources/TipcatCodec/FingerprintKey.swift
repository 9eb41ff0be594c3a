import CPolyHash
import TipcatCore

/// The secret of a publish cache's fingerprints: two random keys of a polynomial hash over GF(2^61 - 1)
/// (`tipcat_polyhash`), kept in the cache directory (`fingerprint.key`).
///
/// A fingerprint says whether a file's bytes are the ones a cached result was computed from. A keyed universal
/// hash makes two different files collide with probability below 2^-72 at the String Catalog's sizes, for
/// files chosen without knowing the keys, which live only in the user's cache directory; and it runs several
/// times faster than SHA-256 (a 200 MB String Catalog is hashed on every publish).
struct FingerprintKey: Sendable, Equatable {
    static let fileName = "fingerprint.key"
    static let magic = Array("TCFPKEY1".utf8)
    static let prime = TIPCAT_POLYHASH_PRIME

    let first: UInt64
    let second: UInt64

    /// Keys from the system's cryptographically secure generator.
    static func random() -> FingerprintKey {
        var generator = SystemRandomNumberGenerator()
        return FingerprintKey(first: .random(in: 1...(prime - 2), using: &generator), second: .random(in: 1...(prime - 2), using: &generator))
    }

    private init(first: UInt64, second: UInt64) {
        self.first = first
        self.second = second
    }

    /// The keys a key file holds; nil for any other bytes (another length, magic, or a key out of range).
    init?(file bytes: [UInt8]) {
        guard bytes.count == Self.magic.count + 16, Array(bytes.prefix(Self.magic.count)) == Self.magic else { return nil }
        let first = LittleEndian.word(bytes, at: Self.magic.count, bytes: 8)
        let second = LittleEndian.word(bytes, at: Self.magic.count + 8, bytes: 8)
        guard (1...(Self.prime - 2)).contains(first), (1...(Self.prime - 2)).contains(second) else { return nil }
        self.init(first: first, second: second)
    }

    /// The key file's bytes: the magic, then each key as 8 little-endian bytes.
    var fileBytes: [UInt8] {
        var bytes = Self.magic
        LittleEndian.append(first, bytes: 8, to: &bytes)
        LittleEndian.append(second, bytes: 8, to: &bytes)
        return bytes
    }

    /// The two hashes of `bytes`, as 16 little-endian bytes.
    func digest(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var hashes: (UInt64, UInt64) = (0, 0)
        withUnsafePointer(to: (first, second)) { keys in
            keys.withMemoryRebound(to: UInt64.self, capacity: 2) { keys in
                withUnsafeMutablePointer(to: &hashes) { out in
                    out.withMemoryRebound(to: UInt64.self, capacity: 2) { out in
                        tipcat_polyhash(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, keys, out)
                    }
                }
            }
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(16)
        LittleEndian.append(hashes.0, bytes: 8, to: &digest)
        LittleEndian.append(hashes.1, bytes: 8, to: &digest)
        return digest
    }
}
