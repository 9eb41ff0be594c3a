@_spi(Tipcat) import TipcatCore
import TipcatJSON

/// Writes canonical JSON bytes directly, for the hot path of encoding a large catalog.
///
/// The output is byte-for-byte what `JSONValue.serialized(sortedKeys: true)` writes for the same value:
/// compact, keys in UTF-8 byte order (callers write fixed keys in that order and sort dynamic ones), and the
/// same string escapes. Tests hold the two encoders to that.
struct CanonicalWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    @inline(__always)
    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func int(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    /// A value encoded by the general encoder (rare, small parts: example values, types, durations).
    mutating func value(_ value: JSONValue) { bytes.append(contentsOf: value.serialized(sortedKeys: true).utf8) }

    private static let hex = Array("0123456789abcdef".utf8)

    /// A JSON string with the writer's escapes: `"` `\` `\b \f \n \r \t`, other controls as `\u00XX`,
    /// U+2028 and U+2029 as `\u2028` / `\u2029`; everything else as UTF-8.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var copy = text
        copy.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            let count = utf8.count
            while index < count {
                // Eight bytes at a time up to the first word that may hold a byte to escape.
                index = WordBytes.plainPrefix(utf8, from: index) { WordBytes.hasJSONSpecial($0) || WordBytes.equal($0, 0xE2) != 0 }
                guard index < count else { break }
                let b = utf8[index]
                if b >= 0x20 && b != 0x22 && b != 0x5C && b != 0xE2 {
                    index &+= 1
                    continue
                }
                var escape: (UInt8, UInt8)? = nil
                var skip = 1
                switch b {
                case 0x22: escape = (UInt8(ascii: "\""), 0)
                case 0x5C: escape = (UInt8(ascii: "\\"), 0)
                case 0x08: escape = (UInt8(ascii: "b"), 0)
                case 0x0C: escape = (UInt8(ascii: "f"), 0)
                case 0x0A: escape = (UInt8(ascii: "n"), 0)
                case 0x0D: escape = (UInt8(ascii: "r"), 0)
                case 0x09: escape = (UInt8(ascii: "t"), 0)
                case 0x00..<0x20: escape = (0, b)
                case 0xE2 where index + 2 < count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    escape = (UInt8(ascii: "u"), utf8[index + 2])
                    skip = 3
                default: break
                }
                guard let (letter, extra) = escape else {
                    index &+= 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                bytes.append(UInt8(ascii: "\\"))
                switch letter {
                case 0:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, CanonicalWriter.hex[Int(extra >> 4)], CanonicalWriter.hex[Int(extra & 0xF)]])
                case UInt8(ascii: "u"):
                    bytes.append(contentsOf: [UInt8(ascii: "u"), 0x32, 0x30, 0x32, extra == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9")])
                default:
                    bytes.append(letter)
                }
                index &+= skip
                runStart = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `"<64 lowercase hex digits>"`, written without making the text.
    mutating func hexString(_ digest: SHA256Digest) {
        bytes.append(UInt8(ascii: "\""))
        digest.appendHex(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// The members of one object as they are written: every key after the first follows a comma.
    struct Members {
        private var first = true

        mutating func key(_ name: StaticString, in writer: inout CanonicalWriter) {
            writer.key(name, first: first)
            first = false
        }
    }

    /// `"key":` — the key must already be in canonical order.
    @inline(__always)
    mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    /// `"key":` for a dynamic key.
    mutating func key(_ name: String, first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }
}

extension String {
    /// Whether `self` sorts before `other` by UTF-8 bytes (code point order), as canonical JSON keys do.
    func precedesCanonically(_ other: String) -> Bool { utf8.lexicographicallyPrecedes(other.utf8) }
}
