/// Terminal display width, in columns, of grapheme clusters and text.
///
/// Rules, per extended grapheme cluster (Swift `Character`), decided by its base with the tables generated from
/// the Unicode data in `Tests/Fixtures/unicode` (`DisplayWidth+Tables.swift`):
/// - C0 and C1 controls and DEL: 0.
/// - A cluster whose scalars are all combining marks (Mn, Me), format characters (Cf: ZWJ, bidi marks, zero-width
///   space, soft hyphen) or variation selectors: 0.
/// - East Asian Wide (W) or Fullwidth (F), default emoji presentation, or an Emoji base followed by U+FE0F (VS16),
///   regional-indicator flags: 2.
/// - Everything else, including East Asian Ambiguous and Halfwidth: 1.
///
/// A cluster's width is the widest of its scalars, so marks, ZWJ, skin-tone modifiers and the parts of an emoji
/// ZWJ sequence never add columns to their base.
public enum DisplayWidth {
    /// The number of terminal columns one grapheme cluster occupies: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        var scalars = character.unicodeScalars.makeIterator()
        guard let base = scalars.next() else { return 0 }
        var width = columns(base)
        var emojiPresentationSelector = false
        while let scalar = scalars.next() {
            if scalar.value == 0xFE0F {
                emojiPresentationSelector = true
            } else if width < 2 {
                width = max(width, columns(scalar))
            }
        }
        return presented(width, base: base.value, emojiPresentationSelector: emojiPresentationSelector)
    }

    /// A cluster's `width` (the widest of its scalars), shown as emoji when it has the emoji presentation selector
    /// (VS16) and its base is an emoji: then two columns.
    @inline(__always)
    static func presented(_ width: Int, base: UInt32, emojiPresentationSelector: Bool) -> Int {
        emojiPresentationSelector && width < 2 && contains(emojiRanges, base) ? 2 : width
    }

    /// The number of terminal columns `text` occupies on one line.
    ///
    /// ANSI escape sequences (CSI … final byte, OSC/DCS/APC/PM/SOS … BEL or ST, two-byte ESC sequences, and their
    /// 8-bit C1 forms) take no columns; so do newlines and other controls.
    public static func of(_ text: some StringProtocol) -> Int {
        let substring: Substring
        if let text = text as? Substring {
            substring = text
        } else if let text = text as? String {
            substring = text[...]
        } else {
            substring = String(text)[...]
        }
        if let fast = asciiWidth(substring) { return fast }
        var total = 0
        TextScanner.forEachSegment(in: substring) { total += $0.width }
        return total
    }

    /// `columns` of a scalar value decoded from valid UTF-8 (a value that is no scalar, which such text cannot hold,
    /// counts as one column).
    @inline(__always)
    static func columns(ofValue value: UInt32) -> Int {
        Unicode.Scalar(value).map(columns) ?? 1
    }

    /// Columns of one Unicode scalar on its own: 0, 1 or 2.
    static func columns(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }
        // Below U+0300 nothing is wide or combining; the only format character is the soft hyphen.
        if value < 0x300 { return value == 0xAD ? 0 : 1 }
        // Shortcuts for the commonest wide blocks (all W in EastAsianWidth.txt; the tables agree, see the tests).
        if (0x4E00...0x9FFF).contains(value) || (0xAC00...0xD7A3).contains(value)
            || (0x3041...0x3096).contains(value) || (0x30A1...0x30FA).contains(value) {
            return 2
        }
        if value < 0x10000 { return Int(basicPlaneColumns[Int(value)]) }
        return tableColumns(value)
    }

    /// Columns of a scalar from U+0300 on, by searching the range tables (what `basicPlaneColumns` holds for the
    /// Basic Multilingual Plane).
    static func tableColumns(_ value: UInt32) -> Int {
        if contains(zeroWidthRanges, value) { return 0 }
        if contains(eastAsianWideRanges, value) || contains(narrowEmojiPresentationRanges, value) { return 2 }
        return 1
    }

    /// The columns of every scalar of the Basic Multilingual Plane, one byte each, filled from the range tables on
    /// first use (about 64 KB): text in Cyrillic, Arabic, Hebrew, Thai or Indic scripts would otherwise search
    /// three tables for every scalar. Only entries from U+0300 on are read.
    private static let basicPlaneColumns: [UInt8] = {
        var table = [UInt8](repeating: 1, count: 0x10000)
        func fill(_ ranges: [UInt32], with columns: UInt8) {
            for pair in stride(from: 0, to: ranges.count - 1, by: 2) where ranges[pair] <= 0xFFFF {
                for value in Int(ranges[pair])...Int(min(ranges[pair + 1], 0xFFFF)) { table[value] = columns }
            }
        }
        // Zero width wins over wide, as in `tableColumns`.
        fill(eastAsianWideRanges, with: 2)
        fill(narrowEmojiPresentationRanges, with: 2)
        fill(zeroWidthRanges, with: 0)
        return table
    }()

    /// The width of pure-ASCII text without escape sequences, or nil when the text needs the full scanner.
    private static func asciiWidth(_ text: Substring) -> Int? {
        var printable = 0
        for byte in text.utf8 {
            if byte >= 0x80 || byte == 0x1B { return nil }
            if byte >= 0x20, byte != 0x7F { printable += 1 }
        }
        return printable
    }

    /// Whether `value` lies in one of the inclusive (first, last) pairs of a sorted range table.
    static func contains(_ table: [UInt32], _ value: UInt32) -> Bool {
        table.withUnsafeBufferPointer { pairs in
            let count = pairs.count / 2
            guard count > 0, value >= pairs[0], value <= pairs[pairs.count - 1] else { return false }
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high) >> 1
                if pairs[2 * middle + 1] < value { low = middle + 1 } else { high = middle }
            }
            return low < count && pairs[2 * low] <= value
        }
    }
}
