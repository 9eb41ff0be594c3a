/// ANSI escape sequences: SGR styling, and removal of every sequence.
public enum ANSI {
    /// `ESC [ 0 m`: back to the terminal's default style.
    public static let reset = "\u{1B}[0m"

    /// `ESC ] 8 ; ; URI ST`: what follows, up to `closeHyperlink`, links to `uri` (OSC 8). `uri` must already be
    /// free of control characters.
    public static func openHyperlink(_ uri: String) -> String { "\u{1B}]8;;" + uri + "\u{1B}\\" }

    /// `ESC ] 8 ; ; ST`: ends a hyperlink.
    public static let closeHyperlink = "\u{1B}]8;;\u{1B}\\"

    /// Whether `text` holds an ESC byte (the start of every 7-bit escape sequence): a quick test before work
    /// that only matters for styled text.
    public static func containsEscape(_ text: String) -> Bool {
        let utf8 = text.utf8
        return utf8.withContiguousStorageIfAvailable { bytes in
            let start = PrintableASCII.prefixLength(bytes)
            return start < bytes.count && UnsafeBufferPointer(rebasing: bytes[start...]).contains(0x1B)
        } ?? utf8.contains(0x1B)
    }

    /// `text` without any escape sequence (the same sequences `DisplayWidth` skips).
    public static func strip(_ text: String) -> String {
        var result = ""
        var copied = 0
        var found = false
        let utf8 = text.utf8
        TextScanner.forEachSegment(in: text[...]) { segment in
            guard segment.kind == .escape else { return }
            found = true
            let from = utf8.index(utf8.startIndex, offsetBy: copied)
            let to = utf8.index(utf8.startIndex, offsetBy: segment.start)
            result += text[from..<to]
            copied = segment.end
        }
        guard found else { return text }
        result += text[utf8.index(utf8.startIndex, offsetBy: copied)...]
        return result
    }
}
