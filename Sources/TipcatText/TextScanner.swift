/// One unit of terminal text: a grapheme cluster, a space, a line break or an escape sequence.
struct TextSegment {
    enum Kind: UInt8 {
        /// One extended grapheme cluster (controls other than newline included, at width 0).
        case cluster
        /// U+0020 on its own (a space followed by a combining mark is a cluster).
        case space
        /// `\n` or `\r\n`.
        case newline
        /// A whole escape sequence; never split, zero columns.
        case escape
    }

    var kind: Kind
    /// Set by the wrapper: a line may break before this cluster although no space precedes it.
    var breakBefore = false
    /// Display columns (0, 1 or 2), kept in a byte: the wrapper holds a segment per cluster of long texts.
    private var columns: Int8
    /// The cluster's first scalar (line-breaking decisions); 0 for escapes.
    var base: UInt32
    /// UTF-8 offsets into the scanned text.
    var start: Int
    var end: Int

    init(kind: Kind, start: Int, end: Int, width: Int, base: UInt32) {
        self.kind = kind
        self.columns = Int8(clamping: width)
        self.base = base
        self.start = start
        self.end = end
    }

    /// Display columns: 0, 1 or 2.
    var width: Int { Int(columns) }
}

/// Splits text into `TextSegment`s, working on UTF-8 bytes: escape sequences by `EscapeSequence`; scalars that no
/// grapheme rule joins (`isSimple`: ASCII, Latin, Greek, Cyrillic, Hebrew and Arabic letters, kana, CJK, Hangul
/// syllables, single emoji) directly; the standard library's grapheme breaking (Swift `Character`) everywhere else.
enum TextScanner {
    /// Calls `body` with every segment of `text`, in order.
    static func forEachSegment(in text: Substring, _ body: (TextSegment) -> Void) {
        var contiguous = text
        let original = text
        contiguous.withUTF8 { bytes in
            var cursor = Cursor(bytes: bytes, text: original)
            while let segment = cursor.next() { body(segment) }
        }
    }

    /// The segments of `bytes` (the UTF-8 of `text`), one at a time: `next()` is small enough to inline into a
    /// caller's loop; clusters that need grapheme breaking are made out of line.
    struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        let text: Substring
        private(set) var index = 0
        /// Where the last look at the following scalar found a simple one (it is not tested twice).
        private var simpleAt = -1

        init(bytes: UnsafeBufferPointer<UInt8>, text: Substring) {
            self.bytes = bytes
            self.text = text
        }

        /// Goes back or on to `index`, where a segment starts.
        mutating func seek(_ index: Int) {
            self.index = index
            simpleAt = -1
        }

        @inline(__always)
        mutating func next() -> TextSegment? {
            let count = bytes.count
            guard index < count else { return nil }
            let byte = bytes[index]
            if EscapeSequence.starts(in: bytes, at: index) {
                let start = index
                index = EscapeSequence.end(in: bytes, from: index)
                return TextSegment(kind: .escape, start: start, end: index, width: 0, base: 0)
            }
            // Fast path: a scalar that no grapheme rule joins to its neighbour, followed by another such scalar
            // (or the end), is a whole cluster; no grapheme breaking needed.
            let (scalar, scalarLength) = decode(bytes, at: index)
            let next = index + scalarLength
            if byte == 0x0D, next < count, bytes[next] == 0x0A {
                defer { index = next + 1 }
                return TextSegment(kind: .newline, start: index, end: next + 1, width: 0, base: 0x0D)
            }
            guard TextScanner.isLone(scalar, at: index, next: next, in: bytes, simpleAt: &simpleAt) else { return cluster() }
            let start = index
            index = next
            switch scalar {
            case 0x20:
                return TextSegment(kind: .space, start: start, end: next, width: 1, base: scalar)
            case 0x0A:
                return TextSegment(kind: .newline, start: start, end: next, width: 0, base: scalar)
            case 0x21...0x7E:
                return TextSegment(kind: .cluster, start: start, end: next, width: 1, base: scalar)
            default:
                let width = DisplayWidth.columns(ofValue: scalar)
                return TextSegment(kind: .cluster, start: start, end: next, width: width, base: scalar)
            }
        }

        /// Grapheme breaking from `index`, as if the text started there (so a mark after an escape sequence forms
        /// its own zero-width cluster instead of joining the sequence's final byte).
        @inline(never)
        private mutating func cluster() -> TextSegment? {
            let utf8 = text.utf8
            let position = utf8.index(utf8.startIndex, offsetBy: index)
            guard let character = text[position...].first else {
                index = bytes.count
                return nil
            }
            let start = index
            let byte = bytes[index]
            index += max(1, character.utf8.count)
            // A lone space or line feed, or CR LF, is told by its bytes (comparing characters costs more).
            switch (index - start, byte) {
            case (1, 0x20):
                return TextSegment(kind: .space, start: start, end: index, width: 1, base: 0x20)
            case (1, 0x0A), (2, 0x0D): // a cluster that starts with CR is CR alone or CR LF
                return TextSegment(kind: .newline, start: start, end: index, width: 0, base: UInt32(byte))
            default:
                let base = character.unicodeScalars.first?.value ?? 0
                return TextSegment(kind: .cluster, start: start, end: index, width: DisplayWidth.of(character), base: base)
            }
        }
    }

    /// Whether the scalar at `index` (whose successor starts at `next`) is a cluster of its own: no grapheme rule
    /// joins it to its neighbours when it is simple and so is the scalar after it (ASCII, or the end, ends it too:
    /// CR LF aside, which a caller tells apart). `simpleAt` is where a look ahead last found a simple scalar, so that
    /// it is not tested twice.
    @inline(__always)
    static func isLone(_ scalar: UInt32, at index: Int, next: Int, in bytes: UnsafeBufferPointer<UInt8>, simpleAt: inout Int) -> Bool {
        guard index == simpleAt || isSimple(scalar) else { return false }
        if next == bytes.count || bytes[next] < 0x80 { return true }
        guard isSimple(decode(bytes, at: next).scalar) else { return false }
        simpleAt = next
        return true
    }

    /// The cluster at `index` when it is a simple scalar followed by combining diacritical marks (U+0300–U+036F)
    /// and variation selectors (U+FE00–U+FE0F), at least one, and then by ASCII, a simple scalar or `limit`: no
    /// grapheme rule joins the marks to what follows (they are Extend). Its end, its base and its display width; nil
    /// for any other cluster (the standard library's grapheme breaking then decides).
    static func markedCluster(in bytes: UnsafeBufferPointer<UInt8>, at index: Int, before limit: Int) -> (end: Int, base: UInt32, columns: Int)? {
        let (base, length) = decode(bytes, at: index)
        guard base != 0x0D, isSimple(base) else { return nil }
        var end = index + length
        var emojiPresentationSelector = false
        while end < limit, bytes[end] >= 0x80 {
            let (mark, markLength) = decode(bytes, at: end)
            if mark == 0xFE0F {
                emojiPresentationSelector = true
            } else if !(0x300...0x36F).contains(mark), !(0xFE00...0xFE0E).contains(mark) {
                break
            }
            end += markLength
        }
        guard end > index + length, end == limit || bytes[end] < 0x80 || isSimple(decode(bytes, at: end).scalar) else { return nil }
        let width = DisplayWidth.columns(ofValue: base)
        return (end, base, DisplayWidth.presented(width, base: base, emojiPresentationSelector: emojiPresentationSelector))
    }

    /// The scalar value whose UTF-8 encoding starts at `index`, and its length (the text is valid UTF-8).
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (scalar: UInt32, length: Int) {
        let lead = UInt32(bytes[index])
        if lead < 0x80 { return (lead, 1) }
        let count = bytes.count
        @inline(__always) func continuation(_ offset: Int) -> UInt32 {
            index + offset < count ? UInt32(bytes[index + offset]) & 0x3F : 0
        }
        if lead < 0xE0 { return ((lead & 0x1F) << 6 | continuation(1), 2) }
        if lead < 0xF0 { return ((lead & 0x0F) << 12 | continuation(1) << 6 | continuation(2), 3) }
        return ((lead & 0x07) << 18 | continuation(1) << 12 | continuation(2) << 6 | continuation(3), 4)
    }

    /// Scalars with Grapheme_Cluster_Break "Other" (or Hangul LV/LVT syllables, which only join following jamo):
    /// between two of them there is always a cluster boundary (emoji join only after a zero-width joiner).
    /// `TextScannerTests` checks every one against the standard library's grapheme breaking.
    @inline(__always)
    static func isSimple(_ value: UInt32) -> Bool {
        if value < 0x300 { return value != 0x0D }
        if value >= 0x3000, value <= 0x9FFF { // CJK punctuation, kana and ideographs: the common case
            return value < 0x302A || value > 0x302F && value != 0x3099 && value != 0x309A
        }
        return isSimpleBeyondLatin(value)
    }

    private static func isSimpleBeyondLatin(_ value: UInt32) -> Bool {
        switch value {
        case 0x0370...0x0482, 0x048A...0x052F, // Greek, Cyrillic (without combining marks)
             0x05D0...0x05EA, // Hebrew letters
             0x0620...0x064A, // Arabic letters
             0x1E00...0x1EFF, // Latin Extended Additional
             0x2010...0x2027, 0x2030...0x205E, // General Punctuation (without format characters)
             0x3000...0x3029, 0x3030...0x3098, 0x309B...0x9FFF, // CJK symbols, kana, ideographs
             0xAC00...0xD7A3, // Hangul syllables
             0xFF01...0xFF9D, // fullwidth and halfwidth forms (without the halfwidth sound marks)
             0x2600...0x27BF, // miscellaneous symbols, dingbats
             0x1F000...0x1F1E5, 0x1F200...0x1F3FA, 0x1F400...0x1FAFF: // emoji (without regional indicators and skin tones)
            return true
        default:
            return false
        }
    }
}
