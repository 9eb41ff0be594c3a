extension ANSI {
    /// `text` in `style` at `depth`: every non-empty line gets the style's SGR sequence at its start and a reset at
    /// its end, so wrapping or a newline never carries colors into the next line; a full reset inside a line
    /// (`ESC [ 0 m` or `ESC [ m`, from a nested span) re-opens the style after it.
    ///
    /// Returns `text` unchanged at depth `.none` or when `style` selects nothing.
    public static func apply(_ style: TextStyle, to text: String, depth: ColorDepth) -> String {
        let parameters = style.parameters(depth: depth)
        guard !parameters.isEmpty, !text.isEmpty else { return text }
        let open = "\u{1B}[" + parameters + "m"
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        var first = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !first { result += "\n" }
            first = false
            guard !line.isEmpty else { continue }
            result += open
            result += reopening(line, open: open)
            result += reset
        }
        return result
    }

    /// `line` with `open` inserted after every full reset it contains.
    private static func reopening(_ line: Substring, open: String) -> Substring {
        guard line.utf8.contains(0x1B) else { return line }
        var result = ""
        var rest = line
        while let range = firstReset(in: rest) {
            result += rest[..<range.upperBound]
            result += open
            rest = rest[range.upperBound...]
        }
        result += rest
        return result[...]
    }

    private static func firstReset(in text: Substring) -> Range<Substring.Index>? {
        var index = text.startIndex
        while let escape = text[index...].firstIndex(of: "\u{1B}") {
            for form in ["\u{1B}[0m", "\u{1B}[m"] where text[escape...].hasPrefix(form) {
                return escape..<text.index(escape, offsetBy: form.count)
            }
            index = text.index(after: escape)
        }
        return nil
    }
}
