/// Error construction: every message names what was expected and what was found, at the offending byte.
extension JSONParser {
    /// `"<expectation>, found <thing>"` at `offset`, unless the byte there is a NUL or invalid UTF-8,
    /// which get their own, more precise message.
    func found(_ expectation: String, at offset: Int) -> JSONSyntaxError {
        badByte(at: offset) ?? JSONSyntaxError("\(expectation), found \(describe(at: offset))", at: offset)
    }

    /// The error for a byte that can never appear at a structural position: NUL or invalid UTF-8.
    func badByte(at offset: Int) -> JSONSyntaxError? {
        guard offset < end else { return nil }
        let byte = base[offset]
        if byte == 0 { return JSONSyntaxError("NUL byte in file", at: offset) }
        guard byte >= 0x80 else { return nil }
        do {
            _ = try validateUTF8(at: offset)
            return nil
        } catch {
            return error
        }
    }

    /// A short human description of the byte (or character) at `offset`: `']'`, `end of file`,
    /// `control character U+0009`, `'é' (U+00E9)`.
    func describe(at offset: Int) -> String {
        guard offset < end else { return "end of file" }
        let byte = base[offset]
        switch byte {
        case 0x20: return "' '"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        case 0x00..<0x20, 0x7F: return "control character \(Self.codePoint(UInt32(byte)))"
        default:
            guard let next = try? validateUTF8(at: offset) else { return "invalid UTF-8 byte \(Self.hexByte(byte))" }
            let text = String(decoding: UnsafeBufferPointer(start: base + offset, count: next - offset), as: UTF8.self)
            let scalar = text.unicodeScalars.first.map { Self.codePoint($0.value) } ?? ""
            return "'\(text)' (\(scalar))"
        }
    }

    /// The error for a byte that cannot start a value, with hints for common non-JSON habits.
    func unexpectedValue(at offset: Int) -> JSONSyntaxError {
        if let error = badByte(at: offset) { return error }
        let byte = base[offset]
        switch byte {
        case UInt8(ascii: "]") where context == .afterComma:
            return JSONSyntaxError("trailing comma is not allowed before ']'", at: lastComma)
        case UInt8(ascii: "'"):
            return JSONSyntaxError("strings must use double quotes, not single quotes", at: offset)
        case UInt8(ascii: "/"):
            return JSONSyntaxError("comments are not allowed in JSON", at: offset)
        case UInt8(ascii: "+"):
            return JSONSyntaxError("numbers must not start with '+'", at: offset)
        case UInt8(ascii: "."):
            return JSONSyntaxError("numbers must start with a digit (write 0.5, not .5)", at: offset)
        default:
            if Self.isWordByte(byte) { return invalidWord(at: offset) }
            return found(context.expectation, at: offset)
        }
    }

    /// The error for a bare word in value position (`True`, `NaN`, `nul`, `undefined`).
    func invalidWord(at offset: Int) -> JSONSyntaxError {
        let text = word(at: offset)
        switch text {
        case "NaN", "Infinity", "inf", "nan":
            return JSONSyntaxError("'\(text)' is not valid JSON: NaN and Infinity are not allowed", at: offset)
        default:
            break
        }
        switch text.lowercased() {
        case "true", "false", "null":
            return JSONSyntaxError("invalid literal '\(text)': JSON literals are lowercase (true, false, null)", at: offset)
        default:
            break
        }
        if let first = text.utf8.first, first == UInt8(ascii: "t") || first == UInt8(ascii: "f") || first == UInt8(ascii: "n") {
            return JSONSyntaxError("invalid literal '\(text)'", at: offset)
        }
        return JSONSyntaxError("\(context.expectation), found '\(text)'", at: offset)
    }

    /// The run of ASCII letters, digits and `_` (plus `extra`) at `offset`, shortened for messages.
    func word(at offset: Int, extra: UInt8 = 0) -> String {
        var index = offset
        while index < end, Self.isWordByte(base[index]) || (extra != 0 && base[index] == extra) { index += 1 }
        let length = index - offset
        let text = String(decoding: UnsafeBufferPointer(start: base + offset, count: Swift.min(length, 32)), as: UTF8.self)
        return length > 32 ? text + "…" : text
    }

    /// `0xFF`.
    static func hexByte(_ byte: UInt8) -> String {
        "0x" + hexDigits(UInt32(byte), width: 2)
    }

    /// `U+00E9`.
    static func codePoint(_ value: UInt32) -> String {
        "U+" + hexDigits(value, width: 4)
    }

    static func hexDigits(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
    }
}
