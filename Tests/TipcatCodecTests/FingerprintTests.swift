import Foundation
import Testing
import TipcatCatalog
import TipcatCore
import TipcatTestSupport
@testable import TipcatCodec

/// The publish cache's fingerprints: the keyed polynomial hash (`tipcat_polyhash`) against a plain evaluation of
/// its definition, and the keys a cache directory keeps (`fingerprint.key`).
@Suite struct FingerprintTests {
    static let prime = UInt128(FingerprintKey.prime)

    /// The definition, one word at a time: 7-byte little-endian words, the last zero-padded, then the byte
    /// count; Horner's rule mod 2^61 - 1.
    static func reference(_ bytes: [UInt8], key: UInt64) -> UInt64 {
        var hash: UInt128 = 0
        var words = stride(from: 0, to: bytes.count, by: 7).map { LittleEndian.word(bytes, at: $0, bytes: min(7, bytes.count - $0)) }
        words.append(UInt64(bytes.count))
        for word in words { hash = (hash * UInt128(key) + UInt128(word)) % prime }
        return UInt64(hash)
    }

    static func key(_ first: UInt64, _ second: UInt64) throws -> FingerprintKey {
        var bytes = FingerprintKey.magic
        LittleEndian.append(first, bytes: 8, to: &bytes)
        LittleEndian.append(second, bytes: 8, to: &bytes)
        return try #require(FingerprintKey(file: bytes))
    }

    static func words(_ digest: [UInt8]) -> [UInt64] {
        stride(from: 0, to: digest.count, by: 8).map { LittleEndian.word(digest, at: $0, bytes: 8) }
    }

    @Test func theHashIsItsDefinitionAtEveryLengthAndForExtremeKeys() throws {
        var generator = SeededGenerator(seed: 13)
        let keys = [
            try Self.key(1, FingerprintKey.prime - 2),
            try Self.key(0x1234_5678_9abc_def0 & FingerprintKey.prime, 3),
            try Self.key(FingerprintKey.prime - 2, FingerprintKey.prime - 3),
        ]
        // Every length around the four-word groups (28 bytes) and the 8-byte loads' edge, then some longer ones;
        // bytes of 0xff make the largest words.
        let lengths = Array(0...120) + [255, 256, 1000, 4097, 65_537]
        for length in lengths {
            for fill in [UInt8?.none, 0xff] {
                let bytes = (0..<length).map { _ in fill ?? UInt8.random(in: 0...255, using: &generator) }
                for key in keys {
                    let digest = bytes.withUnsafeBytes { key.digest($0) }
                    #expect(Self.words(digest) == [Self.reference(bytes, key: key.first), Self.reference(bytes, key: key.second)],
                            "\(length) bytes")
                }
            }
        }
    }

    @Test func keyFilesThatAreNotKeysAreRefused() throws {
        let good = try Self.key(5, 6).fileBytes
        #expect(FingerprintKey(file: good) == (try Self.key(5, 6)))
        #expect(FingerprintKey(file: Array(good.dropLast())) == nil)
        #expect(FingerprintKey(file: good + [0]) == nil)
        #expect(FingerprintKey(file: Array("TCFPKEY2".utf8) + good.dropFirst(8)) == nil)
        #expect(FingerprintKey(file: FingerprintKey.magic + [UInt8](repeating: 0, count: 16)) == nil, "a zero key")
        #expect(FingerprintKey(file: FingerprintKey.magic + [UInt8](repeating: 0xff, count: 16)) == nil, "a key beyond the prime")
        #expect(FingerprintKey.random() != FingerprintKey.random())
    }

    /// Equal bytes, equal fingerprints; a byte changed anywhere, in a small input or in any 4 MiB piece of a large
    /// one, or a byte added, another fingerprint.
    @Test func fingerprintsTellBytesApart() throws {
        let directory = try TemporaryDirectory()
        let cache = StringsCacheDirectory(directory: directory.file("cache"), build: [])
        var generator = SeededGenerator(seed: 7)
        for length in [0, 1, 100, 3 << 20, 9 << 20 + 5] {
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let fingerprint = cache.fingerprint(bytes)
            #expect(cache.fingerprint(bytes) == fingerprint)
            #expect(cache.fingerprint(bytes + [0]) != fingerprint, "\(length) bytes and a zero")
            for offset in Set([0, length / 2, (4 << 20) + 1, length - 1]) where offset >= 0 && offset < length {
                bytes[offset] ^= 0x40
                #expect(cache.fingerprint(bytes) != fingerprint, "\(length) bytes, byte \(offset)")
                bytes[offset] ^= 0x40
            }
        }
    }

    /// A mapped file is hashed a 4 MiB piece at a time, each piece's pages given back once it is hashed (a String
    /// Catalog of a hundred megabytes is hashed on every publish): the fingerprint of the same bytes in memory.
    @Test func fingerprintingAMappedFileGivesItsPagesBack() throws {
        let directory = try TemporaryDirectory()
        let cache = StringsCacheDirectory(directory: directory.file("cache"), build: [])
        let (bytes, mapped, resident) = try mappedPatternFile(at: directory.file("Localizable.xcstrings"), count: 9 << 20 + 77, shift: 9)
        #expect(Array(mapped.buffer) == bytes)
        let before = try #require(resident())
        #expect(before >= 9 << 10, "every page was read")
        #expect(cache.fingerprint(mapped) == cache.fingerprint(bytes))
        let after = try #require(resident())
        #expect(after < before / 8, "\(after) KB still resident")
        var pieces: [Range<Int>] = []
        #expect(cache.fingerprint(mapped.buffer, afterPiece: { pieces.append($0) }) == cache.fingerprint(bytes))
        #expect(pieces == [0..<(4 << 20), (4 << 20)..<(8 << 20), (8 << 20)..<bytes.count])
        #expect(Array(mapped.buffer) == bytes, "read again after its pages were given back")
    }

    /// The keys are made once per cache directory and kept in it with the first files it writes: another process
    /// (another instance) finds the same fingerprints, another directory other ones; a damaged key file is replaced.
    @Test func aCacheDirectoryKeepsItsKeys() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache")
        let bytes = Array("the same bytes".utf8)
        let first = StringsCacheDirectory(directory: path, build: [])
        let fingerprint = first.fingerprint(bytes)
        #expect(!FileManager.default.fileExists(atPath: path + "/" + FingerprintKey.fileName), "nothing written until the cache writes")
        first.keep(OwnerObjectsMemo(keys: [], records: [:]), for: "catalog")
        let stored = try #require(FingerprintKey(file: Array(try Data(contentsOf: URL(fileURLWithPath: path + "/" + FingerprintKey.fileName)))))
        let mode = try FileManager.default.attributesOfItem(atPath: path + "/" + FingerprintKey.fileName)[.posixPermissions] as? Int
        #expect(mode == 0o600, "readable by its owner only")
        #expect(StringsCacheDirectory(directory: path, build: []).fingerprint(bytes) == fingerprint)
        #expect(StringsCacheDirectory(directory: directory.file("other"), build: []).fingerprint(bytes) != fingerprint)

        try Data("damaged".utf8).write(to: URL(fileURLWithPath: path + "/" + FingerprintKey.fileName))
        let third = StringsCacheDirectory(directory: path, build: [])
        #expect(third.fingerprint(bytes) != fingerprint)
        third.keep(OwnerObjectsMemo(keys: [], records: [:]), for: "catalog")
        let replaced = try #require(FingerprintKey(file: Array(try Data(contentsOf: URL(fileURLWithPath: path + "/" + FingerprintKey.fileName)))))
        #expect(replaced != stored)
        #expect(StringsCacheDirectory(directory: path, build: []).fingerprint(bytes) == third.fingerprint(bytes))
    }
}
