import Testing
import TipcatCore
@testable import TipcatText

@Suite("Scanner")
struct TextScannerTests {
    static var simpleScalars: [Unicode.Scalar] {
        (UInt32(0)...0x10FFFF).compactMap { TextScanner.isSimple($0) ? Unicode.Scalar($0) : nil }
    }

    @Test("the fast path's scalars always have a cluster boundary on both sides")
    func simpleScalarsNeverJoin() {
        var joined: [String] = []
        for scalar in Self.simpleScalars {
            let text = String(Character(scalar))
            // Not Extend, ZWJ or SpacingMark; not Prepend; not a regional indicator or a Hangul jamo.
            if ("x" + text).count != 2 || (text + "x").count != 2 || (text + text).count != 2 || ("가" + text).count != 2 {
                joined.append(String(scalar.value, radix: 16))
            }
        }
        #expect(joined.isEmpty, "\(joined.prefix(10))")
        #expect(!TextScanner.isSimple(0x0D))
        #expect(!TextScanner.isSimple(0x301))
        #expect(!TextScanner.isSimple(0x200D))
        #expect(!TextScanner.isSimple(0x1F1EF))
    }

    @Test("segments are exactly the standard library's grapheme clusters")
    func segmentsMatchCharacters() {
        let pieces = ["a", "é", "e\u{301}", "日", "ｱ", "ﾞ", "\u{3099}", "か", "\u{1112}", "\u{1161}", "\u{11AB}", "한",
                      "\u{628}", "\u{64E}", "\u{600}", "1", "\u{5E9}", "\u{5B8}", "\u{915}", "\u{94D}", "\u{937}",
                      "👍", "\u{1F3FD}", "\u{200D}", "\u{FE0F}", "\u{1F1EF}", "\u{1F1F5}", "\r", "\n", " ", "\u{85}",
                      "‼", "Ω", "Ж", "\u{483}", "ạ", "—", "\u{2028}", "\u{200B}", "　"]
        var random = SeededGenerator(seed: 99)
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
            var segments: [String] = []
            let utf8 = Array(text.utf8)
            TextScanner.forEachSegment(in: text[...]) { segment in
                segments.append(String(decoding: utf8[segment.start..<segment.end], as: UTF8.self))
            }
            #expect(segments == text.map(String.init), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("UTF-8 decoding")
    func decode() {
        let text = "a\u{E9}\u{65E5}\u{1F44D}"
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            var values: [UInt32] = []
            while index < buffer.count {
                let (scalar, length) = TextScanner.decode(buffer, at: index)
                values.append(scalar)
                index += length
            }
            #expect(values == [0x61, 0xE9, 0x65E5, 0x1F44D])
        }
    }
}
