/// Recognizes terminal escape sequences (ECMA-48) in UTF-8 bytes, so width, wrapping and truncation can treat
/// each one as a single zero-width unit that is never split.
///
/// Recognized, in 7-bit form (ESC …) and as UTF-8 encoded C1 introducers (U+009B …):
/// - CSI: `ESC [` parameter bytes (0x30–0x3F), intermediate bytes (0x20–0x2F), one final byte (0x40–0x7E).
///   A byte outside those classes ends the sequence before it (the terminal aborts it too).
/// - Control strings — OSC `ESC ]`, DCS `ESC P`, SOS `ESC X`, PM `ESC ^`, APC `ESC _` — up to and including BEL,
///   `ESC \` or U+009C (ST); CAN, SUB or any other ESC ends them before that byte; unterminated, they run to the
///   end of the text, as a terminal would swallow it.
/// - Other escapes: `ESC` intermediate bytes (0x20–0x2F) and one final byte (0x30–0x7E), e.g. `ESC 7`, `ESC ( B`.
/// A lone ESC (at the end, or before a control or a non-ASCII byte) is a one-byte sequence.
enum EscapeSequence {
    /// Whether a sequence starts at `index`: ESC, or the UTF-8 form (C2 xx) of a C1 CSI, OSC, DCS, SOS, PM or APC.
    @inline(__always)
    static func starts(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let byte = bytes[index]
        if byte == 0x1B { return true }
        guard byte == 0xC2, index + 1 < bytes.count else { return false }
        switch bytes[index + 1] {
        case 0x90, 0x98, 0x9B, 0x9D, 0x9E, 0x9F: return true
        default: return false
        }
    }

    /// The byte offset just past the sequence that starts at `start` (where `starts(in:at:)` is true).
    static func end(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let count = bytes.count
        if bytes[start] == 0xC2 {
            // 8-bit introducer: CSI, or one of the control strings.
            return bytes[start + 1] == 0x9B
                ? controlSequenceEnd(bytes, from: start + 2)
                : controlStringEnd(bytes, from: start + 2)
        }
        let next = start + 1
        guard next < count else { return next }
        switch bytes[next] {
        case 0x5B: // [
            return controlSequenceEnd(bytes, from: next + 1)
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F: // ] P X ^ _
            return controlStringEnd(bytes, from: next + 1)
        case 0x20...0x2F:
            var index = next
            while index < count, (0x20...0x2F).contains(bytes[index]) { index += 1 }
            if index < count, (0x30...0x7E).contains(bytes[index]) { index += 1 }
            return index
        case 0x30...0x7E:
            return next + 1
        default:
            return next
        }
    }

    private static func controlSequenceEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let count = bytes.count
        var index = start
        while index < count, (0x30...0x3F).contains(bytes[index]) { index += 1 }
        while index < count, (0x20...0x2F).contains(bytes[index]) { index += 1 }
        if index < count, (0x40...0x7E).contains(bytes[index]) { index += 1 }
        return index
    }

    private static func controlStringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let count = bytes.count
        var index = start
        while index < count {
            switch bytes[index] {
            case 0x07:
                return index + 1
            case 0x1B:
                return index + 1 < count && bytes[index + 1] == 0x5C ? index + 2 : index
            case 0x18, 0x1A:
                return index
            case 0xC2 where index + 1 < count && bytes[index + 1] == 0x9C:
                return index + 2
            default:
                index += 1
            }
        }
        return count
    }
}
