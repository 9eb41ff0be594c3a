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
        markdownEscaped(text, isStart: true, isEnd: true)
    }

    /// `markdownLiteral` for a piece of a value: the space protection of the value's start applies only when
    /// `isStart`, that of its end (and the dropping of trailing newlines) only when `isEnd`; pieces inside a value
    /// keep their edge spaces, so markup around them flanks as it did in the source.
    public static func markdownEscaped(_ text: String, isStart: Bool, isEnd: Bool) -> String {
        var safe = terminalSafe(text)
        if isEnd { while safe.utf8.last == 0x0A { safe.removeLast() } }
        return safe.withUTF8 { bytes in
            let count = bytes.count
            var newlines = 0
            for byte in bytes where byte == 0x0A { newlines += 1 }
            // Where the value's last scalar starts: a space there becomes a reference too.
            var lastScalar = isEnd ? count : -1
            if isEnd, count > 0 {
                lastScalar -= 1
                while lastScalar > 0, bytes[lastScalar] & 0xC0 == 0x80 { lastScalar -= 1 }
            }
            // Every byte at most doubles; each line start and the end may become a reference of at most 10 bytes.
            return UTF8Builder.build(capacity: 2 * count + 10 * (newlines + 2)) { output in
                var atLineStart = isStart
                var index = 0
                while index < count {
                    let byte = bytes[index]
                    if atLineStart || index == lastScalar {
                        let (scalar, length) = TextScanner.decode(bytes, at: index)
                        if let value = Unicode.Scalar(scalar), value.properties.generalCategory == .spaceSeparator {
                            output.appendCharacterReference(scalar)
                            index += length
                            atLineStart = false
                            continue
                        }
                    }
                    atLineStart = false
                    if byte == 0x0A {
                        output.append(0x5C)
                        atLineStart = true
                    } else if isASCIIPunctuation(byte) {
                        output.append(0x5C)
                    }
                    output.append(byte)
                    index += 1
                }
            }
        }
    }

    /// `!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~`
    @inline(__always)
    static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte)
            || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }
}
