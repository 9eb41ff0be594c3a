@_spi(Tipcat) import TipcatCore

extension JSONValue {
    /// The order in which a canonical object (`serialized(sortedKeys: true)`) writes `count` members whose keys
    /// `key` gives by index: by the keys' UTF-8 bytes (code point order), equal keys in their order. For writers
    /// of canonical JSON that make no `JSONValue`.
    package static func canonicalOrder(count: Int, key: (Int) -> String) -> [Int] {
        (0..<count).sorted { lhs, rhs in
            let (left, right) = (key(lhs), key(rhs))
            if left.utf8.elementsEqual(right.utf8) { return lhs < rhs }
            return left.utf8.lexicographicallyPrecedes(right.utf8)
        }
    }

    /// The value as JSON text, deterministically.
    ///
    /// Compact form has no whitespace at all. Pretty form indents by 2 spaces, writes `"key": value`, one
    /// element or member per line, and `[]` / `{}` for empty containers; neither form ends with a newline.
    /// Strings escape only `"`, `\`, control characters below U+0020 (`\b \f \n \r \t`, else `\u00XX`)
    /// and U+2028 / U+2029 (as `\u2028` / `\u2029`); everything else is written as UTF-8. Numbers are
    /// written as their `text`. With `sortedKeys`, members are ordered by the UTF-8 bytes of their keys
    /// (code point order; members with equal keys keep their relative order), which makes the output a
    /// canonical form suitable for content hashing. Nesting is handled without recursion.
    public func serialized(pretty: Bool = false, sortedKeys: Bool = false) -> String {
        var writer = JSONWriter(pretty: pretty, sortedKeys: sortedKeys)
        writer.write(self)
        return String(decoding: writer.output, as: UTF8.self)
    }
}

/// Writes JSON text into a byte buffer with an explicit stack of open containers.
struct JSONWriter {
    let pretty: Bool
    let sortedKeys: Bool
    var output: [UInt8] = []

    private enum Frame {
        case array([JSONNode], next: Int)
        case object([JSONMember], next: Int)
    }

    init(pretty: Bool, sortedKeys: Bool) {
        self.pretty = pretty
        self.sortedKeys = sortedKeys
        output.reserveCapacity(256)
    }

    mutating func write(_ root: JSONValue) {
        var stack: [Frame] = []
        var pending: JSONValue? = root
        while true {
            if let value = pending {
                pending = nil
                switch value {
                case .null: append("null")
                case .bool(let flag): append(flag ? "true" : "false")
                case .number(let number): output.append(contentsOf: number.text.utf8)
                case .string(let text): writeString(text)
                case .array(let elements):
                    if elements.isEmpty {
                        append("[]")
                    } else {
                        output.append(UInt8(ascii: "["))
                        stack.append(.array(elements, next: 0))
                    }
                case .object(let object):
                    if object.members.isEmpty {
                        append("{}")
                    } else {
                        output.append(UInt8(ascii: "{"))
                        stack.append(.object(sortedKeys ? Self.sorted(object.members) : object.members, next: 0))
                    }
                }
            }
            guard let top = stack.popLast() else { return }
            switch top {
            case .array(let elements, let next):
                if next < elements.count {
                    if next > 0 { output.append(UInt8(ascii: ",")) }
                    newline(depth: stack.count + 1)
                    stack.append(.array(elements, next: next + 1))
                    pending = elements[next].value
                } else {
                    newline(depth: stack.count)
                    output.append(UInt8(ascii: "]"))
                }
            case .object(let members, let next):
                if next < members.count {
                    if next > 0 { output.append(UInt8(ascii: ",")) }
                    newline(depth: stack.count + 1)
                    writeString(members[next].key)
                    output.append(UInt8(ascii: ":"))
                    if pretty { output.append(UInt8(ascii: " ")) }
                    stack.append(.object(members, next: next + 1))
                    pending = members[next].value.value
                } else {
                    newline(depth: stack.count)
                    output.append(UInt8(ascii: "}"))
                }
            }
        }
    }

    /// Members ordered by key bytes (code point order), stable for equal keys.
    static func sorted(_ members: [JSONMember]) -> [JSONMember] {
        guard members.count > 1 else { return members }
        return JSONValue.canonicalOrder(count: members.count) { members[$0].key }.map { members[$0] }
    }

    private mutating func newline(depth: Int) {
        guard pretty else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
    }

    private mutating func append(_ text: StaticString) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Whether any byte of `word` is `"`, `\`, below 0x20 or 0xE2 (the lead byte of U+2028/2029).
    /// False positives only cost time.
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        WordBytes.hasJSONSpecial(word) || WordBytes.equal(word, 0xE2) != 0
    }

    private mutating func writeString(_ text: String) {
        output.append(UInt8(ascii: "\""))
        var copy = text
        copy.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            let raw = UnsafeRawBufferPointer(bytes)
            while index < bytes.count {
                while index &+ 8 <= bytes.count,
                      !Self.mayNeedEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                    index &+= 8
                }
                guard index < bytes.count else { break }
                let byte = bytes[index]
                var escape: (UInt8, UInt8)?  // for \X, or (0, low byte) for \u00XX
                var skip = 1
                switch byte {
                case UInt8(ascii: "\""): escape = (UInt8(ascii: "\""), 0)
                case UInt8(ascii: "\\"): escape = (UInt8(ascii: "\\"), 0)
                case 0x08: escape = (UInt8(ascii: "b"), 0)
                case 0x0C: escape = (UInt8(ascii: "f"), 0)
                case 0x0A: escape = (UInt8(ascii: "n"), 0)
                case 0x0D: escape = (UInt8(ascii: "r"), 0)
                case 0x09: escape = (UInt8(ascii: "t"), 0)
                case 0x00..<0x20: escape = (0, byte)
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80
                    && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    escape = (UInt8(ascii: "u"), bytes[index + 2])
                    skip = 3
                default: break
                }
                guard let (letter, extra) = escape else {
                    index += 1
                    continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                output.append(UInt8(ascii: "\\"))
                switch letter {
                case 0:
                    output.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30])
                    output.append(Self.hexDigits[Int(extra >> 4)])
                    output.append(Self.hexDigits[Int(extra & 0xF)])
                case UInt8(ascii: "u"):
                    output.append(contentsOf: Array("u202".utf8))
                    output.append(extra == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9"))
                default:
                    output.append(letter)
                }
                index += skip
                runStart = index
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        output.append(UInt8(ascii: "\""))
    }
}
