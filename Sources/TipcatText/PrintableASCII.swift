/// Word-at-a-time scanning for runs of printable ASCII (U+0020–U+007E), the common case that sanitizing,
/// wrapping and escape detection can skip over without looking at each byte.
enum PrintableASCII {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The length of the run of printable ASCII bytes at the start of `bytes`.
    static func prefixLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let count = bytes.count
        var index = 0
        let raw = UnsafeRawPointer(base)
        while index + 8 <= count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            if !isPrintable(word) { break }
            index += 8
        }
        while index < count, bytes[index] >= 0x20, bytes[index] < 0x7F { index += 1 }
        return index
    }

    /// Whether all eight bytes of `word` are printable ASCII.
    @inline(__always)
    static func isPrintable(_ word: UInt64) -> Bool {
        // A byte b is printable when b < 0x80, b >= 0x20 and b != 0x7F. `word &- ones &* 0x20` borrows into
        // a byte's high bit when it is below 0x20; adding 0x01 to each byte of a 0x7F byte sets its high bit.
        // Every test is done only when no byte has its high bit set, so no borrow or carry crosses bytes.
        guard word & highBits == 0 else { return false }
        let belowSpace = (word &- ones &* 0x20) & highBits
        let isDelete = (word &+ ones) & highBits
        return belowSpace | isDelete == 0
    }
}
