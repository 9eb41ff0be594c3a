/// Strict UTF-8 validation (RFC 3629): no overlongs, no encoded surrogates, nothing above U+10FFFF,
/// no truncated sequences. Errors point at the first byte of the bad sequence.
extension JSONParser {
    /// Validates the multi-byte sequence whose lead byte is at `index`; returns the index after it.
    func validateUTF8(at index: Int) throws(JSONSyntaxError) -> Int {
        let lead = base[index]
        let length: Int
        var lowest: UInt8 = 0x80
        var highest: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF:
            length = 2
        case 0xE0:
            length = 3
            lowest = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF:
            length = 3
        case 0xED:
            length = 3
            highest = 0x9F
        case 0xF0:
            length = 4
            lowest = 0x90
        case 0xF1...0xF3:
            length = 4
        case 0xF4:
            length = 4
            highest = 0x8F
        case 0x80...0xBF:
            throw utf8Error(lead, "unexpected continuation byte", at: index)
        case 0xC0, 0xC1:
            throw utf8Error(lead, "overlong encoding", at: index)
        case 0xF5...0xFF:
            throw JSONSyntaxError("invalid UTF-8 byte \(Self.hexByte(lead))", at: index)
        default:
            return index + 1  // ASCII
        }
        for offset in 1..<length {
            guard index + offset < end, base[index + offset] & 0xC0 == 0x80 else {
                throw utf8Error(lead, "truncated sequence", at: index)
            }
        }
        let second = base[index + 1]
        if second < lowest { throw utf8Error(lead, "overlong encoding", at: index) }
        if second > highest {
            throw utf8Error(lead, lead == 0xED ? "encoded UTF-16 surrogate" : "code point above U+10FFFF", at: index)
        }
        return index + length
    }

    private func utf8Error(_ byte: UInt8, _ detail: String, at index: Int) -> JSONSyntaxError {
        JSONSyntaxError("invalid UTF-8 byte \(Self.hexByte(byte)) (\(detail))", at: index)
    }
}
