import Foundation
import Testing
import TipcatCore
@testable import TipcatCodec
import TipcatTestSupport

@Suite struct SHA256Tests {
    /// The FIPS 180-4 / NIST example messages and their digests.
    @Test(arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func fipsVectors(message: String, digest: String) {
        #expect(SHA256.hash(message).hex == digest)
        #expect(SHA256.hash(Array(message.utf8)).hex == digest)
    }

    /// The processor's SHA instructions (when it has them) and the Swift compression give the same digests, for
    /// every length around block and padding boundaries and for long random messages; both give the NIST digests.
    @Test func hardwareAndSoftwareAgree() {
        print("SHA-256 compression: \(SHA256.usesHardware ? "the processor's SHA instructions" : "Swift (no SHA instructions here)")")
        func digest(_ message: [UInt8], software: Bool) -> SHA256Digest {
            var hasher = SHA256()
            hasher.inSoftware = software
            hasher.update(message)
            return hasher.finalize()
        }
        var software = SHA256()
        software.inSoftware = true
        software.update(Array("abc".utf8))
        #expect(software.finalize().hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        var random = SeededGenerator(seed: 256)
        let lengths = Array(0...300) + [1_000, 4_095, 4_096, 65_537, 1_000_003]
        for length in lengths {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(digest(message, software: false) == digest(message, software: true), "length \(length)")
        }
    }

    @Test func oneMillionTimesA() {
        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        #expect(hasher.finalize().hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every split of a message across `update` calls, around block and padding boundaries, gives one digest.
    @Test func incrementalUpdatesMatchOneShot() {
        var random = SeededGenerator(seed: 7)
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000] {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let expected = SHA256.hash(message)
            for split in Set([0, 1, length / 2, max(0, length - 1), length]) where split <= length {
                var hasher = SHA256()
                hasher.update(Array(message[..<split]))
                hasher.update(Array(message[split...]))
                #expect(hasher.finalize() == expected, "length \(length), split \(split)")
            }
            var bytewise = SHA256()
            for byte in message { bytewise.update([byte]) }
            #expect(bytewise.finalize() == expected, "length \(length), byte by byte")
        }
    }

    /// Random messages agree with coreutils' sha256sum, an independent implementation.
    @Test func agreesWithSha256sum() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sha256sum") else { return }
        var random = SeededGenerator(seed: 42)
        let message = (0..<100_003).map { _ in UInt8.random(in: 0...255, using: &random) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(message))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.hasPrefix(SHA256.hash(message).hex))
    }

    @Test func digestsRoundTripThroughHexAndBytes() throws {
        let digest = SHA256.hash("abc")
        #expect(SHA256Digest(hex: digest.hex) == digest)
        #expect(SHA256Digest(hex: digest.hex.uppercased()) == digest)
        #expect(SHA256Digest(bytes: digest.bytes) == digest)
        #expect(digest.bytes.count == 32)
        #expect(digest.shortHex() == "ba7816bf8f01")
        #expect(digest.nibble(0) == 0xb && digest.nibble(1) == 0xa && digest.nibble(63) == 0xd)
        #expect(SHA256Digest(hex: "xyz") == nil)
        #expect(SHA256Digest(hex: String(repeating: "g", count: 64)) == nil)
        #expect(SHA256Digest(bytes: [1, 2, 3]) == nil)
    }
}
