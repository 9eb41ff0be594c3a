@_spi(Tipcat) import TipcatCore

extension ANSI {
    /// `text` in `style` at `depth`: every non-empty line gets the style's SGR sequence at its start and a reset at
    /// its end, so wrapping or a newline never carries colors into the next line; a full reset inside a line
    /// (`ESC [ 0 m` or `ESC [ m`, from a nested span) re-opens the style after it.
    ///
    /// Returns `text` unchanged at depth `.none` or when `style` selects nothing.
    public static func apply(_ style: TextStyle, to text: String, depth: ColorDepth) -> String {
        let parameters = style.parameters(depth: depth)
        guard !parameters.isEmpty, !text.isEmpty else { return text }
        let open: [UInt8] = [0x1B, 0x5B] + Array(parameters.utf8) + [0x6D]
        let close = Array(reset.utf8)
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            let count = bytes.count
            var newlines = 0
            var escapes = 0
            // Words without a newline or escape are skipped whole (when counting them, and when copying runs).
            func hasNewlineOrEscape(_ word: UInt64) -> Bool { WordBytes.equal(word, 0x0A) | WordBytes.equal(word, 0x1B) != 0 }
            var index = 0
            while index < count {
                // The others are counted byte by byte.
                index = WordBytes.plainPrefix(bytes, from: index, mayMatch: hasNewlineOrEscape)
                let stop = min(count, index + 8)
                while index < stop {
                    if bytes[index] == 0x0A { newlines += 1 } else if bytes[index] == 0x1B { escapes += 1 }
                    index += 1
                }
            }
            let capacity = count + (open.count + close.count) * (newlines + 1) + open.count * escapes
            return UTF8Builder.build(capacity: capacity) { output in
                var lineIsOpen = false
                var index = 0
                while index < count {
                    let byte = bytes[index]
                    if byte == 0x0A {
                        if lineIsOpen { output.append(close) }
                        lineIsOpen = false
                        output.append(byte)
                        index += 1
                        continue
                    }
                    if !lineIsOpen {
                        output.append(open)
                        lineIsOpen = true
                    }
                    if byte != 0x1B {
                        // The run up to the next newline or escape, copied at once (found eight bytes at a time).
                        var end = WordBytes.plainPrefix(bytes, from: index, mayMatch: hasNewlineOrEscape)
                        end = max(end, index + 1)
                        while end < count, bytes[end] != 0x0A, bytes[end] != 0x1B { end += 1 }
                        output.append(UnsafeBufferPointer(rebasing: bytes[index..<end]))
                        index = end
                        continue
                    }
                    output.append(byte)
                    index += 1
                    // After a full reset (ESC [ m or ESC [ 0 m), re-open the style.
                    if byte == 0x1B, index + 1 < count, bytes[index] == 0x5B {
                        let resetLength = bytes[index + 1] == 0x6D ? 2
                            : index + 2 < count && bytes[index + 1] == 0x30 && bytes[index + 2] == 0x6D ? 3 : 0
                        if resetLength > 0 {
                            output.append(UnsafeBufferPointer(rebasing: bytes[index..<index + resetLength]))
                            output.append(open)
                            index += resetLength
                        }
                    }
                }
                if lineIsOpen { output.append(close) }
            }
        }
    }
}
