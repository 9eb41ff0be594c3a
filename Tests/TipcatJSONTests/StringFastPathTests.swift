import Testing
@testable import TipcatJSON

/// `parseString`'s fast path (strings scanned eight bytes at a time, validated as UTF-8 by the standard library)
/// gives exactly what the byte-by-byte path gives: the same string and end, or the same error at the same byte.
@Suite struct StringFastPathTests {
    /// What parsing the string at the start of `bytes` gives, with one path or the other.
    static func outcome(_ bytes: [UInt8], exactly: Bool) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return "empty" }
            var parser = JSONParser(base: base, count: buffer.count, maxDepth: 1)
            do throws(JSONSyntaxError) {
                let string = exactly ? try parser.parseStringExactly() : try parser.parseString()
                return "\(Array(string.utf8)) to \(parser.position)"
            } catch {
                return "error \(error.offset): \(error.message)"
            }
        }
    }

    @Test func bothPathsAgreeOnEveryKindOfByte() {
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("abcdefgh".utf8), Array("é".utf8), Array("日本".utf8), Array("🙂".utf8), Array(" ".utf8),
            Array("\\n".utf8), Array("\\u00e9".utf8), Array("\\\"".utf8), Array("\\x".utf8), Array("\\".utf8),
            [0xC0, 0x80], [0xC2], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xE2, 0x82], [0x80], [0xBF], [0xF5], [0xFF], [0x00], [0x01], [0x1F], [0x7F], [0x0A],
        ]
        var state: UInt64 = 13
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        var fastOnes = 0
        for _ in 0..<20_000 {
            var bytes: [UInt8] = [UInt8(ascii: "\"")]
            for _ in 0..<next(14) { bytes += pieces[next(next(4) == 0 ? pieces.count : 6)] }
            if next(8) != 0 { bytes.append(UInt8(ascii: "\"")) }
            bytes += Array(" ,".utf8)
            let exact = Self.outcome(bytes, exactly: true)
            if !exact.hasPrefix("error") { fastOnes += 1 }
            #expect(Self.outcome(bytes, exactly: false) == exact, "\(bytes)")
        }
        #expect(fastOnes > 5_000)
    }
}
