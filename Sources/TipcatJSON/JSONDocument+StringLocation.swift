public import TipcatCore

extension JSONDocument {
    /// For a string node: the source location of the character at `utf8Offset` inside the DECODED string.
    ///
    /// Escapes are accounted for (`\n` is 2 bytes in the file but 1 in the string, `\u00e9` is 6 and 2, a
    /// surrogate pair 12 and 4), so an error column reported by a parser of the string's contents lands on
    /// the right character in the file. An offset inside a decoded character (or escape) maps to that
    /// character's first byte; offsets past the end map to the closing quote; negative offsets to the first
    /// character. For a node that is not a string from this file, returns `location(of:)`.
    public func location(inString node: JSONNode, atUTF8Offset utf8Offset: Int) -> SourceLocation {
        let bytes = source.bytes
        guard case .string = node.value, node.offset >= 0, node.offset < bytes.count,
              bytes[node.offset] == UInt8(ascii: "\"")
        else { return location(of: node) }
        let target = Swift.max(0, utf8Offset)
        var index = node.offset + 1
        var decoded = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            var sourceLength = 1
            var decodedLength = 1
            if byte == UInt8(ascii: "\\") {
                (sourceLength, decodedLength) = Self.escapeLengths(bytes, at: index)
            } else if byte >= 0xF0 {
                (sourceLength, decodedLength) = (4, 4)
            } else if byte >= 0xE0 {
                (sourceLength, decodedLength) = (3, 3)
            } else if byte >= 0xC0 {
                (sourceLength, decodedLength) = (2, 2)
            }
            if target < decoded + decodedLength { break }
            decoded += decodedLength
            index += sourceLength
        }
        return source.location(ofByte: index)
    }

    /// (bytes in the file, bytes once decoded) of the escape whose backslash is at `index`.
    private static func escapeLengths(_ bytes: [UInt8], at index: Int) -> (Int, Int) {
        guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u"),
              let unit = hex4(bytes, at: index + 2)
        else { return (2, 1) }
        if (0xD800...0xDBFF).contains(unit), index + 11 < bytes.count,
           bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
           let low = hex4(bytes, at: index + 8), (0xDC00...0xDFFF).contains(low) {
            return (12, 4)
        }
        switch unit {
        case 0..<0x80: return (6, 1)
        case 0x80..<0x800: return (6, 2)
        default: return (6, 3)
        }
    }

    private static func hex4(_ bytes: [UInt8], at index: Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
