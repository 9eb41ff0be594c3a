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
    /// UTF-8 offsets into the scanned text.
    var start: Int
    var end: Int
    /// Display columns: 0, 1 or 2.
    var width: Int
    /// The cluster's first scalar (line-breaking decisions); 0 for escapes.
    var base: UInt32
    /// Set by the wrapper: a line may break before this cluster although no space precedes it.
    var breakBefore = false
}

/// Splits text into `TextSegment`s: bytes for ASCII and escape sequences, the standard library's grapheme
/// breaking (Swift `Character`) everywhere else.
enum TextScanner {
    /// Calls `body` with every segment of `text`, in order.
    static func forEachSegment(in text: Substring, _ body: (TextSegment) -> Void) {
        var contiguous = text
        let original = text
        contiguous.withUTF8 { bytes in
            scan(bytes, original, body)
        }
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ text: Substring, _ body: (TextSegment) -> Void) {
        let count = bytes.count
        var index = 0
        while index < count {
            let byte = bytes[index]
            if EscapeSequence.starts(in: bytes, at: index) {
                let end = EscapeSequence.end(in: bytes, from: index)
                body(TextSegment(kind: .escape, start: index, end: end, width: 0, base: 0))
                index = end
                continue
            }
            // An ASCII byte followed by ASCII (or the end) is a whole cluster, except CR LF.
            if byte < 0x80, index + 1 == count || bytes[index + 1] < 0x80 {
                let start = index
                index += 1
                switch byte {
                case 0x20:
                    body(TextSegment(kind: .space, start: start, end: index, width: 1, base: 0x20))
                case 0x0A:
                    body(TextSegment(kind: .newline, start: start, end: index, width: 0, base: 0x0A))
                case 0x0D where index < count && bytes[index] == 0x0A:
                    index += 1
                    body(TextSegment(kind: .newline, start: start, end: index, width: 0, base: 0x0D))
                case 0x21...0x7E:
                    body(TextSegment(kind: .cluster, start: start, end: index, width: 1, base: UInt32(byte)))
                default:
                    body(TextSegment(kind: .cluster, start: start, end: index, width: 0, base: UInt32(byte)))
                }
                continue
            }
            // Grapheme breaking from here, as if the text started here (so a mark after an escape sequence
            // forms its own zero-width cluster instead of joining the sequence's final byte).
            let utf8 = text.utf8
            let position = utf8.index(utf8.startIndex, offsetBy: index)
            guard let character = text[position...].first else { return }
            let length = max(1, character.utf8.count)
            let start = index
            index += length
            let base = character.unicodeScalars.first?.value ?? 0
            switch character {
            case " ":
                body(TextSegment(kind: .space, start: start, end: index, width: 1, base: base))
            case "\n", "\r\n":
                body(TextSegment(kind: .newline, start: start, end: index, width: 0, base: base))
            default:
                body(TextSegment(kind: .cluster, start: start, end: index, width: DisplayWidth.of(character), base: base))
            }
        }
    }
}
