@_spi(Tipcat) import TipcatCore

/// Escapers for untrusted values (parameters, translations, labels) before they meet a template.
///
/// Templates themselves are trusted; only the values inserted into them pass through here.
public enum Sanitizer {
    /// Spaces that replace one TAB: tab stops depend on where the value lands in a template, so a fixed run of
    /// spaces is the only predictable choice.
    public static let tabReplacement = "    "

    /// `text` with nothing a terminal would interpret: printable text and newlines only.
    ///
    /// Drops C0 controls except `\n` (so `\r`, BEL and ESC go: `ESC ] 52 ; c ; … BEL` and `ESC [ 2 J` are left as
    /// harmless printable remains), DEL, C1 controls U+0080–U+009F (U+009B is an 8-bit CSI), and the bidi embedding,
    /// override and isolate controls U+202A–U+202E and U+2066–U+2069 (Trojan Source spoofing). A TAB becomes
    /// `tabReplacement`. ZWJ, variation selectors and the bidi marks LRM/RLM/ALM stay: emoji and right-to-left text
    /// need them and they cannot reorder text outside the value. Returns `text` itself when nothing changes.
    public static func terminalSafe(_ text: String) -> String {
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            guard let first = firstUnsafeByte(bytes) else { return text }
            let count = bytes.count
            // Only a TAB grows (to four bytes).
            var tabs = 0
            for byte in UnsafeBufferPointer(rebasing: bytes[first...]) where byte == 0x09 { tabs += 1 }
            return UTF8Builder.build(capacity: count + 3 * tabs) { output in
                output.append(UnsafeBufferPointer(rebasing: bytes[..<first]))
                var index = first
                while index < count {
                    let length = unsafeLength(bytes, at: index)
                    if length == 0 {
                        output.append(bytes[index])
                        index += 1
                    } else {
                        if bytes[index] == 0x09 { for byte in tabReplacement.utf8 { output.append(byte) } }
                        index += length
                    }
                }
            }
        }
    }

    /// The offset of the first byte that starts a removed scalar, or nil when the text is already safe.
    private static func firstUnsafeByte(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = PrintableASCII.prefixLength(bytes)
        let count = bytes.count
        while index < count {
            // Eight bytes at a time past words with no byte that can start a removal (a control, DEL, or the lead
            // bytes C2 and E2): most of a translated text, which is not ASCII, and every line after a newline.
            index = WordBytes.plainPrefix(bytes, from: index) { word in
                WordBytes.below(word, 0x20) | WordBytes.equal(word, 0x7F) | WordBytes.equal(word, 0xC2)
                    | WordBytes.equal(word, 0xE2) != 0
            }
            guard index < count else { break }
            let byte = bytes[index]
            // Printable ASCII, newline and continuation or lead bytes other than C2/E2 can never start a removal.
            if (byte >= 0x20 && byte < 0x7F) || byte == 0x0A || (byte >= 0x80 && byte != 0xC2 && byte != 0xE2) {
                index += 1
                continue
            }
            if unsafeLength(bytes, at: index) > 0 { return index }
            index += 1
        }
        return nil
    }

    /// The UTF-8 length of the removed scalar starting at `index`, or 0 when the byte there is kept.
    @inline(__always)
    private static func unsafeLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        if byte < 0x20 { return byte == 0x0A ? 0 : 1 }
        if byte == 0x7F { return 1 }
        let count = bytes.count
        if byte == 0xC2, index + 1 < count, (0x80...0x9F).contains(bytes[index + 1]) { return 2 } // C1
        if byte == 0xE2, index + 2 < count {
            let second = bytes[index + 1]
            let third = bytes[index + 2]
            if second == 0x80, (0xAA...0xAE).contains(third) { return 3 } // U+202A–U+202E
            if second == 0x81, (0xA6...0xA9).contains(third) { return 3 } // U+2066–U+2069
        }
        return 0
    }
}
