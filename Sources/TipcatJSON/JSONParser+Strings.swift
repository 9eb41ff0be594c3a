#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(Tipcat) import TipcatCore

/// Strings: a fast path that scans 8 bytes at a time and builds the `String` once from the byte slice,
/// and a slower path for strings with escapes that decodes into a reused scratch buffer.
extension JSONParser {
    /// Reads the string whose opening quote is at `position`; leaves `position` after the closing quote.
    ///
    /// Most strings have no escape and no control character: they are scanned eight bytes at a time (text in any
    /// script alike) and made into a `String` that the standard library validates as UTF-8 as it copies it (a
    /// non-ASCII one is valid when the copy repaired nothing). Any other string, and any that is not valid UTF-8,
    /// is read again by `parseStringExactly`, whose errors say exactly what is wrong and where.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position + 1
        var index = start
        var ascii = true
        let raw = UnsafeRawPointer(base)
        while true {
            while index &+ 8 <= end {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if WordBytes.hasJSONSpecial(word) { break }
                ascii = ascii && word & 0x8080_8080_8080_8080 == 0
                index &+= 8
            }
            guard index < end else { break }
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                let bytes = UnsafeBufferPointer(start: base + start, count: index - start)
                let string = String(decoding: bytes, as: UTF8.self)
                // Non-ASCII bytes are valid UTF-8 exactly when decoding them repaired nothing: the string holds
                // the same bytes. (`String(validating:as:)` is generic: it looks its metadata up on every call.)
                if !ascii, !Self.holdsExactly(string, bytes) { break }
                position = index + 1
                return string
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        return try parseStringExactly()
    }


    /// Whether `string`'s UTF-8 is `bytes`.
    static func holdsExactly(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var string = string
        return string.withUTF8 { utf8 in
            guard utf8.count == bytes.count else { return false }
            guard let mine = utf8.baseAddress, let theirs = bytes.baseAddress else { return true }
            return memcmp(mine, theirs, bytes.count) == 0
        }
    }

    /// `parseString`, byte by byte with every check in order: the first problem is the one reported.
    mutating func parseStringExactly() throws(JSONSyntaxError) -> String {
        let quote = position
        let start = quote + 1
        var index = start
        while true {
            index = skipPlainWords(from: index)
            guard index < end else { throw unterminated(quote) }
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(quote: quote, firstEscape: index)
            }
            if byte < 0x20 { throw controlCharacter(byte, at: index) }
            index = byte < 0x80 ? index + 1 : try validateUTF8(at: index)
        }
    }

    /// Decodes a string that has at least one escape, starting at the first backslash.
    private mutating func parseEscapedString(quote: Int, firstEscape: Int) throws(JSONSyntaxError) -> String {
        unescaped.removeAll(keepingCapacity: true)
        unescaped.append(contentsOf: UnsafeBufferPointer(start: base + quote + 1, count: firstEscape - quote - 1))
        var index = firstEscape
        while true {
            // A run of bytes that need no decoding, copied in one go.
            let runStart = index
            while true {
                index = skipPlainWords(from: index)
                guard index < end else { break }
                let byte = base[index]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                index = byte < 0x80 ? index + 1 : try validateUTF8(at: index)
            }
            if index > runStart {
                unescaped.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
            }
            guard index < end else { throw unterminated(quote) }
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return String(decoding: unescaped, as: UTF8.self)
            }
            if byte < 0x20 { throw controlCharacter(byte, at: index) }
            index = try decodeEscape(at: index, quote: quote)
        }
    }

    /// Decodes the escape whose backslash is at `index` into `unescaped`; returns the index after it.
    private mutating func decodeEscape(at index: Int, quote: Int) throws(JSONSyntaxError) -> Int {
        guard index + 1 < end else { throw unterminated(quote) }
        let decoded: UInt8
        switch base[index + 1] {
        case UInt8(ascii: "\""): decoded = 0x22
        case UInt8(ascii: "\\"): decoded = 0x5C
        case UInt8(ascii: "/"): decoded = 0x2F
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            return try decodeUnicodeEscape(at: index)
        default:
            throw try invalidEscape(at: index)
        }
        unescaped.append(decoded)
        return index + 2
    }

    /// Decodes `\uXXXX` (or a `\uD8xx\uDCxx` surrogate pair) at `index` into `unescaped`.
    private mutating func decodeUnicodeEscape(at index: Int) throws(JSONSyntaxError) -> Int {
        guard let unit = hex4(at: index + 2) else {
            throw JSONSyntaxError("invalid unicode escape '\(escapeText(at: index))': expected 4 hex digits after '\\u'", at: index)
        }
        var scalar = unit
        var next = index + 6
        if (0xD800...0xDBFF).contains(unit) {
            guard next + 1 < end, base[next] == UInt8(ascii: "\\"), base[next + 1] == UInt8(ascii: "u"),
                  let low = hex4(at: next + 2), (0xDC00...0xDFFF).contains(low)
            else {
                throw JSONSyntaxError(
                    "unpaired surrogate escape '\(escapeText(at: index))': a high surrogate must be followed by a low surrogate escape",
                    at: index)
            }
            scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            next += 6
        } else if (0xDC00...0xDFFF).contains(unit) {
            throw JSONSyntaxError(
                "unpaired surrogate escape '\(escapeText(at: index))': a low surrogate must follow a high surrogate escape",
                at: index)
        }
        appendUTF8(scalar)
        return next
    }

    /// The value of 4 hex digits at `index`, or nil.
    private func hex4(at index: Int) -> UInt32? {
        guard index + 4 <= end else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = base[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            unescaped.append(UInt8(scalar))
        case 0x80..<0x800:
            unescaped.append(UInt8(0xC0 | scalar >> 6))
            unescaped.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            unescaped.append(UInt8(0xE0 | scalar >> 12))
            unescaped.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            unescaped.append(UInt8(0x80 | scalar & 0x3F))
        default:
            unescaped.append(UInt8(0xF0 | scalar >> 18))
            unescaped.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            unescaped.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            unescaped.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    // MARK: Errors

    private func unterminated(_ quote: Int) -> JSONSyntaxError {
        JSONSyntaxError("unterminated string", at: quote)
    }

    private func controlCharacter(_ byte: UInt8, at index: Int) -> JSONSyntaxError {
        JSONSyntaxError("control character \(Self.codePoint(UInt32(byte))) in string must be escaped", at: index)
    }

    private func invalidEscape(at index: Int) throws(JSONSyntaxError) -> JSONSyntaxError {
        let byte = base[index + 1]
        switch byte {
        case 0x20...0x7E:
            return JSONSyntaxError("invalid escape '\\\(Character(Unicode.Scalar(byte)))'", at: index)
        case 0x00..<0x20, 0x7F:
            return JSONSyntaxError("invalid escape: '\\' followed by control character \(Self.codePoint(UInt32(byte)))", at: index)
        default:
            let next = try validateUTF8(at: index + 1)
            let text = String(decoding: UnsafeBufferPointer(start: base + index + 1, count: next - index - 1), as: UTF8.self)
            return JSONSyntaxError("invalid escape '\\\(text)'", at: index)
        }
    }

    /// Up to 6 printable ASCII bytes of the escape at `index` (`\u12G4`), for messages.
    private func escapeText(at index: Int) -> String {
        var stop = index
        while stop < end, stop < index + 6, (0x21...0x7E).contains(base[stop]) { stop += 1 }
        return String(decoding: UnsafeBufferPointer(start: base + index, count: stop - index), as: UTF8.self)
    }

    // MARK: Scanning

    /// Skips 8-byte words that contain no quote, backslash, control character or non-ASCII byte.
    @inline(__always)
    func skipPlainWords(from start: Int) -> Int {
        var index = start
        let raw = UnsafeRawPointer(base)
        while index &+ 8 <= end {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if Self.needsAttention(word) { break }
            index &+= 8
        }
        return index
    }

    /// Whether any byte of `word` is `"`, `\`, below 0x20 or at least 0x80.
    @inline(__always)
    static func needsAttention(_ word: UInt64) -> Bool {
        WordBytes.hasJSONSpecial(word) || word & WordBytes.highBits != 0
    }
}
