/// Small helpers over the rule text's bytes for messages.
enum RuleText {
    /// The 1-based column of the byte at `offset` on its line, counting Unicode scalars.
    static func column(of offset: Int, in bytes: [UInt8]) -> Int {
        let end = max(0, min(offset, bytes.count))
        var lineStart = end
        while lineStart > 0, bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
        var column = 1
        for index in lineStart..<end where bytes[index] & 0xC0 != 0x80 { column += 1 }
        return column
    }

    /// The source text of `range`, shortened to about `limit` bytes with `…` for long expressions.
    static func snippet(_ range: Range<Int>, in bytes: [UInt8], limit: Int = 40) -> String {
        let lower = max(0, min(range.lowerBound, bytes.count))
        let upper = max(lower, min(range.upperBound, bytes.count))
        guard upper - lower > limit else { return String(decoding: bytes[lower..<upper], as: UTF8.self) }
        var cut = lower + limit
        while cut > lower, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }  // do not split a character
        return String(decoding: bytes[lower..<cut], as: UTF8.self) + "…"
    }
}
