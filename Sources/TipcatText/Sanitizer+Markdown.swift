extension Sanitizer {
    /// `text` as Markdown that renders as exactly that literal text under CommonMark.
    ///
    /// First `terminalSafe`, then every ASCII punctuation character gets a backslash (CommonMark §2.4: any ASCII
    /// punctuation may be backslash-escaped), so no value can open a link, image, autolink, raw HTML, emphasis,
    /// code span, entity, heading, list, quote, table or thematic break. Each newline becomes a hard line break
    /// (`\` + newline): the next line continues the same paragraph (lazily, inside a quote or list item) and, since its
    /// punctuation is escaped too, cannot start a block. Trailing newlines are dropped, because a hard break at the
    /// end of a paragraph would show as a literal backslash. A space (any Unicode Zs) that starts a line or ends the
    /// value becomes a numeric character reference (`&#32;`): four leading spaces would otherwise open an indented
    /// code block, and a space at either edge would stop the template's `**…**` around the value from being emphasis.
    public static func markdownLiteral(_ text: String) -> String {
        var safe = terminalSafe(text)
        while safe.utf8.last == 0x0A { safe.removeLast() }
        var output: [UInt8] = []
        output.reserveCapacity(safe.utf8.count + safe.utf8.count / 4 + 8)
        let scalars = safe.unicodeScalars
        var atLineStart = true
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            index = scalars.index(after: index)
            let value = scalar.value
            if value < 0x80, isASCIIPunctuation(UInt8(value)) {
                output.append(0x5C)
                output.append(UInt8(value))
            } else if value == 0x0A {
                output.append(0x5C)
                output.append(0x0A)
                atLineStart = true
                continue
            } else if (atLineStart || index == scalars.endIndex), scalar.properties.generalCategory == .spaceSeparator {
                output.append(contentsOf: "&#\(value);".utf8)
            } else {
                UTF8.encode(scalar) { output.append($0) }
            }
            atLineStart = false
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~`
    @inline(__always)
    static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte)
            || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }
}
