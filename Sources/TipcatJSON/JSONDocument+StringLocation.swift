public import TipcatCore

extension JSONDocument {
    /// For a string node: the source location of the character at `utf8Offset` inside the DECODED string.
    ///
    /// Escapes are accounted for (`\n` is 2 bytes in the file but 1 in the string, `\u00e9` is 6 and 2, a
    /// surrogate pair 12 and 4), so an error column reported by a parser of the string's contents lands on
    /// the right character in the file. An offset inside a decoded character (or escape) maps to that
    /// character's first byte; offsets past the end map to the closing quote; negative offsets to the first
    /// character. For a node that is not a string from this file, returns `location(of:)`.
    ///
    /// Each call scans the string; to locate many offsets in one string, make one ``JSONStringLocator``.
    public func location(inString node: JSONNode, atUTF8Offset utf8Offset: Int) -> SourceLocation {
        JSONStringLocator(node, in: self).location(atUTF8Offset: utf8Offset)
    }

    /// (bytes in the file, bytes once decoded) of the escape whose backslash is at `index`.
    static func escapeLengths(_ bytes: SourceBytes, at index: Int) -> (Int, Int) {
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

    private static func hex4(_ bytes: SourceBytes, at index: Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}

/// Locates offsets of a string node's DECODED text in its file, as `JSONDocument.location(inString:atUTF8Offset:)`
/// does, after one scan of the string: each lookup is a binary search over the string's escapes, so locating
/// every placeholder of a long string stays linear in its length.
public struct JSONStringLocator: Sendable {
    /// One escape: where it starts in the decoded text and in the file, and its two lengths.
    struct Escape: Sendable {
        let decoded: Int
        let source: Int
        let sourceLength: Int
        let decodedLength: Int
    }

    private let document: JSONDocument
    private let node: JSONNode
    /// False for a node that is not a string of this file: every lookup is then `location(of: node)`.
    private let isString: Bool
    private let escapes: [Escape]
    /// The byte after the opening quote; the closing quote's offset (or the file's end); the decoded length.
    private let start: Int
    private let end: Int
    private let decodedCount: Int

    /// Scans the string `node` of `document` once.
    public init(_ node: JSONNode, in document: JSONDocument) {
        self.document = document
        self.node = node
        let bytes = document.source.bytes
        guard case .string = node.value, node.offset >= 0, node.offset < bytes.count, bytes[node.offset] == UInt8(ascii: "\"") else {
            (isString, escapes, start, end, decodedCount) = (false, [], 0, 0, 0)
            return
        }
        var escapes: [Escape] = []
        var index = node.offset + 1
        var decoded = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                let (sourceLength, decodedLength) = JSONDocument.escapeLengths(bytes, at: index)
                escapes.append(Escape(decoded: decoded, source: index, sourceLength: sourceLength, decodedLength: decodedLength))
                decoded += decodedLength
                index += sourceLength
            } else {
                decoded += 1
                index += 1
            }
        }
        (isString, self.escapes, start, end, decodedCount) = (true, escapes, node.offset + 1, Swift.min(index, bytes.count), decoded)
    }

    /// The location of the character at `utf8Offset` of the decoded string (inside a character or escape: its
    /// first byte; past the end: the closing quote; negative: the first character).
    public func location(atUTF8Offset utf8Offset: Int) -> SourceLocation {
        guard isString else { return document.location(of: node) }
        let target = Swift.max(0, utf8Offset)
        guard target < decodedCount else { return document.source.location(ofByte: end) }
        // The last escape starting at or before `target`.
        var low = 0
        var high = escapes.count
        while low < high {
            let mid = (low + high) / 2
            if escapes[mid].decoded <= target { low = mid + 1 } else { high = mid }
        }
        var sourceBase = start
        var decodedBase = 0
        if low > 0 {
            let escape = escapes[low - 1]
            if target < escape.decoded + escape.decodedLength { return document.source.location(ofByte: escape.source) }
            sourceBase = escape.source + escape.sourceLength
            decodedBase = escape.decoded + escape.decodedLength
        }
        // Between escapes the file holds the decoded bytes as they are; step back to a character's first byte.
        let bytes = document.source.bytes
        var index = sourceBase + (target - decodedBase)
        while index > sourceBase, index < bytes.count, bytes[index] & 0xC0 == 0x80 { index -= 1 }
        return document.source.location(ofByte: index)
    }
}
