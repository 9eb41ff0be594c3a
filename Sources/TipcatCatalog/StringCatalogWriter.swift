public import TipcatJSON

/// Writes a String Catalog the way Xcode formats `Localizable.xcstrings`: 2-space indentation, one member per
/// line, `"key" : value`, an empty object as `{` blank line `}`, and a trailing newline.
///
/// Every string, number and literal read from `source` (a node or key with an offset) is copied from its original
/// bytes, so an untouched file is written back byte for byte and only values built in code (offset -1) are newly
/// escaped. Containers are always laid out afresh; object members are written in the order they have.
public struct StringCatalogWriter {
    private let source: [UInt8]
    private var output: [UInt8] = []

    /// - Parameter source: the bytes the tree was parsed from (empty for a tree built in code).
    public init(source: [UInt8]) {
        self.source = source
    }

    /// The file's bytes for `root`.
    public static func write(_ root: JSONNode, source: [UInt8]) -> [UInt8] {
        var writer = StringCatalogWriter(source: source)
        writer.output.reserveCapacity(source.count + 256)
        writer.value(root, depth: 0)
        writer.output.append(UInt8(ascii: "\n"))
        return writer.output
    }

    private mutating func value(_ node: JSONNode, depth: Int) {
        switch node.value {
        case .object(let object):
            guard !object.members.isEmpty else {
                output.append(contentsOf: Array("{\n\n".utf8))
                indent(depth)
                output.append(UInt8(ascii: "}"))
                return
            }
            output.append(contentsOf: Array("{\n".utf8))
            for (index, member) in object.members.enumerated() {
                if index > 0 { output.append(contentsOf: Array(",\n".utf8)) }
                indent(depth + 1)
                if let token = stringToken(at: member.keyOffset) {
                    output.append(contentsOf: source[token])
                } else {
                    string(member.key)
                }
                output.append(contentsOf: Array(" : ".utf8))
                value(member.value, depth: depth + 1)
            }
            output.append(UInt8(ascii: "\n"))
            indent(depth)
            output.append(UInt8(ascii: "}"))
        case .array(let elements):
            guard !elements.isEmpty else {
                output.append(contentsOf: Array("[\n\n".utf8))
                indent(depth)
                output.append(UInt8(ascii: "]"))
                return
            }
            output.append(contentsOf: Array("[\n".utf8))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(contentsOf: Array(",\n".utf8)) }
                indent(depth + 1)
                value(element, depth: depth + 1)
            }
            output.append(UInt8(ascii: "\n"))
            indent(depth)
            output.append(UInt8(ascii: "]"))
        case .string(let text):
            if let token = stringToken(at: node.offset) {
                output.append(contentsOf: source[token])
            } else {
                string(text)
            }
        case .number(let number):
            if let token = numberToken(at: node.offset) {
                output.append(contentsOf: source[token])
            } else {
                output.append(contentsOf: Array(number.text.utf8))
            }
        case .bool(let flag):
            output.append(contentsOf: Array((flag ? "true" : "false").utf8))
        case .null:
            output.append(contentsOf: Array("null".utf8))
        }
    }

    private mutating func indent(_ depth: Int) {
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
    }

    /// The bytes of the string token (quotes included) starting at `offset`, or nil when there is none.
    private func stringToken(at offset: Int) -> Range<Int>? {
        guard offset >= 0, offset < source.count, source[offset] == UInt8(ascii: "\"") else { return nil }
        var index = offset + 1
        while index < source.count {
            switch source[index] {
            case UInt8(ascii: "\""): return offset..<index + 1
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        return nil
    }

    /// The bytes of the number token starting at `offset`, or nil when there is none.
    private func numberToken(at offset: Int) -> Range<Int>? {
        guard offset >= 0, offset < source.count else { return nil }
        var index = offset
        while index < source.count, Self.isNumberByte(source[index]) { index += 1 }
        return index > offset ? offset..<index : nil
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
             UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default:
            false
        }
    }

    /// A new string as Xcode escapes it: `"` and `\` with a backslash, newline, carriage return and tab as `\n`,
    /// `\r`, `\t`, other control characters as `\u00XX`; everything else (non-ASCII included) as is.
    private mutating func string(_ text: String) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: Array(#"\""#.utf8))
            case UInt8(ascii: "\\"): output.append(contentsOf: Array(#"\\"#.utf8))
            case 0x0A: output.append(contentsOf: Array(#"\n"#.utf8))
            case 0x0D: output.append(contentsOf: Array(#"\r"#.utf8))
            case 0x09: output.append(contentsOf: Array(#"\t"#.utf8))
            case 0x00..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                output.append(contentsOf: Array(#"\u00"#.utf8))
                output.append(digits[Int(byte >> 4)])
                output.append(digits[Int(byte & 0xF)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
