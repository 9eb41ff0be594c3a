import Testing
@testable import TipcatText

/// The word-at-a-time printable-ASCII scan agrees with a byte-by-byte check for every byte value in every
/// position of a word, and around word boundaries.
@Suite struct PrintableASCIITests {
    static func isPrintable(_ byte: UInt8) -> Bool { (0x20...0x7E).contains(byte) }

    static func prefixLength(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { PrintableASCII.prefixLength($0) }
    }

    @Test func everyByteInEveryPositionOfAWord() {
        for byte in UInt8.min...UInt8.max {
            for position in 0..<8 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                bytes[position] = byte
                let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
                #expect(PrintableASCII.isPrintable(word) == Self.isPrintable(byte), "byte \(byte) at \(position)")
                #expect(Self.prefixLength(bytes) == (Self.isPrintable(byte) ? 8 : position), "byte \(byte) at \(position)")
            }
        }
    }

    @Test func edgesOfTheRangeNextToEachOther() {
        // 0x1F borrows into its neighbour and 0x7F carries: neither may hide or invent a neighbour's verdict.
        let word: [UInt8] = [0x20, 0x7E, 0x20, 0x7E, 0x1F, 0x20, 0x7F, 0x7E]
        #expect(Self.prefixLength(word) == 4)
        #expect(Self.prefixLength([0x7E, 0x7E, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x7F]) == 8)
        #expect(Self.prefixLength([0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0xC2, 0x9B]) == 9)
    }

    @Test func lengthsAroundWordBoundaries() {
        for length in 0...33 {
            let clean = [UInt8](repeating: UInt8(ascii: "x"), count: length)
            #expect(Self.prefixLength(clean) == length)
            for stop in 0..<length {
                var bytes = clean
                bytes[stop] = 0x1B
                #expect(Self.prefixLength(bytes) == stop, "ESC at \(stop) of \(length)")
            }
        }
    }
}
