/// Splits one script line into words, on UTF-8 bytes.
///
/// Words are separated by spaces and tabs, except inside double quotes (with `\"`, `\\`, `\n`, `\t` escapes)
/// and inside `[…]` / `{…}`. `#` at the start of a word starts a comment.
enum SimulationLexer {
    struct Word {
        /// The word as written (quotes included).
        var text: String
        /// The byte offset of its first byte in the file.
        var offset: Int
        /// The byte offset just after it (the text may hold replacement characters for invalid UTF-8).
        var end: Int
    }

    struct Failure: Error {
        var message: String
        var offset: Int
    }

    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")

    /// The words of `bytes[range]` (one line without its terminator).
    static func words(_ bytes: [UInt8], _ range: Range<Int>) throws(Failure) -> [Word] {
        var words: [Word] = []
        var index = range.lowerBound
        let end = range.upperBound
        while index < end {
            while index < end, bytes[index] == space || bytes[index] == tab { index += 1 }
            guard index < end, bytes[index] != UInt8(ascii: "#") else { break }
            let start = index
            var depth = 0
            while index < end {
                let byte = bytes[index]
                if byte == quote {
                    index = try closingQuote(bytes, from: index, end: end) + 1
                    continue
                }
                if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") { depth += 1 }
                if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { depth = max(0, depth - 1) }
                if depth == 0, byte == space || byte == tab { break }
                index += 1
            }
            words.append(Word(text: String(decoding: bytes[start..<index], as: UTF8.self), offset: start, end: index))
        }
        return words
    }

    /// The index of the quote closing the string that opens at `start`.
    static func closingQuote(_ bytes: [UInt8], from start: Int, end: Int) throws(Failure) -> Int {
        var index = start + 1
        while index < end {
            if bytes[index] == backslash {
                index += 2
                continue
            }
            if bytes[index] == quote { return index }
            index += 1
        }
        throw Failure(message: "unterminated string: add a closing '\"'", offset: start)
    }

    /// The text of a quoted string (`"a \"b\""` → `a "b"`), or nil when `text` is not exactly one.
    static func unquote(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes.first == quote, bytes.last == quote else { return nil }
        var result: [UInt8] = []
        var index = 1
        while index < bytes.count - 1 {
            var byte = bytes[index]
            if byte == quote { return nil }
            if byte == backslash, index + 1 < bytes.count - 1 {
                index += 1
                switch bytes[index] {
                case UInt8(ascii: "n"): byte = UInt8(ascii: "\n")
                case UInt8(ascii: "t"): byte = UInt8(ascii: "\t")
                default: byte = bytes[index]
                }
            }
            result.append(byte)
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Splits `text` at top-level commas (outside quotes and brackets); parts are trimmed, with the byte
    /// offset of each part within `text`.
    static func splitList(_ text: String) -> [(text: String, offset: Int)] {
        let bytes = Array(text.utf8)
        var parts: [(String, Int)] = []
        var depth = 0
        var start = 0
        var index = 0
        var inString = false
        func flush(_ upper: Int) {
            var lower = start
            var top = upper
            while lower < top, bytes[lower] == space || bytes[lower] == tab { lower += 1 }
            while top > lower, bytes[top - 1] == space || bytes[top - 1] == tab { top -= 1 }
            parts.append((String(decoding: bytes[lower..<top], as: UTF8.self), lower))
        }
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == backslash { index += 1 } else if byte == quote { inString = false }
            } else if byte == quote {
                inString = true
            } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                depth = max(0, depth - 1)
            } else if byte == UInt8(ascii: ","), depth == 0 {
                flush(index)
                start = index + 1
            }
            index += 1
        }
        flush(bytes.count)
        return parts
    }
}
