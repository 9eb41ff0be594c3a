/// (SPI, not API: `@_spi(Tipcat) import TipcatCore`; public only so that other modules can inline it.)
/// Tests on the eight bytes of a little-endian word at once (SWAR), for scans that skip plain text eight bytes
/// at a time. Each test is exact about whether such a byte is there (never a false answer either way); the
/// masks it returns may mark other bytes after a match, so they are only tested against zero.
@_spi(Tipcat) public enum WordBytes {
    public static let ones: UInt64 = 0x0101_0101_0101_0101
    public static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Non-zero when a byte of `word` equals `byte`.
    @inlinable @inline(__always)
    public static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highBits
    }

    /// Non-zero when a byte of `word` is below `limit` (at most 0x80; bytes from 0x80 up never count).
    @inlinable @inline(__always)
    public static func below(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highBits
    }

    /// Where a scan of `bytes` for some bytes must go on byte by byte: the start of the first eight-byte word,
    /// from `start` in steps of eight, for which `mayMatch` is true, or where fewer than eight bytes are left.
    /// The words before it were tested whole and hold none of those bytes.
    @inlinable @inline(__always)
    public static func plainPrefix(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0, mayMatch: (UInt64) -> Bool) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var index = start
        while index + 8 <= bytes.count, !mayMatch(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) { index += 8 }
        return index
    }

    /// The offset of the first `byte` in `bytes` at or after `start`, or `bytes.count` when there is none; plain
    /// words are skipped eight bytes at a time.
    public static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int {
        var index = plainPrefix(bytes, from: max(0, start)) { equal($0, byte) != 0 }
        while index < bytes.count, bytes[index] != byte { index += 1 }
        return index
    }

    /// Whether a byte of `word` is `"`, `\` or a control character (below 0x20): the bytes a JSON string must
    /// escape, and that end its plain text.
    @inlinable @inline(__always)
    public static func hasJSONSpecial(_ word: UInt64) -> Bool {
        equal(word, 0x22) | equal(word, 0x5C) | below(word, 0x20) != 0
    }
}
