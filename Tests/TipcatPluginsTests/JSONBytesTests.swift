import Foundation
import Testing
import TipcatCore
import TipcatTestSupport
@testable import TipcatPlugins

/// Strings are escaped for JSON eight bytes at a time where no byte needs it; the result is byte for byte that
/// of a byte-by-byte escaper, and JSONSerialization reads every string back unchanged.
@Suite struct JSONBytesTests {
    /// The plain escaper: `"`, `\`, \n, \r, \t as two-character escapes, other control bytes as \u00XX.
    static func reference(_ text: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case ..<0x20: out += Array(String(format: "\\u%04x", byte).utf8)
            default: out.append(byte)
            }
        }
        return out + [UInt8(ascii: "\"")]
    }

    @Test func escapingMatchesTheByteByByteEscaper() throws {
        var random = SeededGenerator(seed: 0x15C)
        let pieces = ["a", "Zz9", "\"", "\\", "\n", "\r", "\t", "\u{1}", "\u{1F}", " ", "~", "\u{7F}", "é", "日本", "🙂", "\u{2028}", "!#$%"]
        var texts = ["", "plain ascii text without any escapes", String(repeating: "x", count: 64) + "\"", "\"" + String(repeating: "y", count: 15)]
        for _ in 0..<3_000 {
            let count = Int.random(in: 0...40, using: &random)
            texts.append((0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined())
        }
        for text in texts {
            var writer = JSONBytes()
            writer.string(text)
            #expect(writer.bytes == Self.reference(text), "\(text.debugDescription)")
            let decoded = try JSONSerialization.jsonObject(with: Data(writer.bytes), options: .fragmentsAllowed) as? String
            #expect(decoded == text, "\(text.debugDescription)")
        }
    }

    /// Commas are tracked per open container, in bits up to depth 64 and beyond them in a list: values nested
    /// 150 deep (objects and arrays alternating, members before and after each nested one) come out as written.
    @Test func nestingBeyondSixtyFourLevelsKeepsItsCommas() throws {
        func write(_ level: Int, into writer: inout JSONBytes) {
            if level % 2 == 0 {
                writer.arrayValue { array in
                    array.int(level)
                    if level < 150 { write(level + 1, into: &array) }
                    array.string("a\(level)")
                }
            } else {
                writer.objectValue { object in
                    object.key("n")
                    object.int(level)
                    if level < 150 {
                        object.key("next")
                        write(level + 1, into: &object)
                    }
                    object.key("s")
                    object.bool(true)
                }
            }
        }
        func expected(_ level: Int) -> String {
            let inner = level < 150 ? expected(level + 1) : nil
            return level % 2 == 0
                ? "[\(level)," + (inner.map { $0 + "," } ?? "") + "\"a\(level)\"]"
                : "{\"n\":\(level)," + (inner.map { "\"next\":" + $0 + "," } ?? "") + "\"s\":true}"
        }
        var writer = JSONBytes()
        writer.arrayValue { top in
            write(0, into: &top)
            top.null()
        }
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[" + expected(0) + ",null]")
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(writer.bytes)) }
    }

    /// The writer's own buffer grows from its smallest size through many doublings without losing a byte, and its
    /// pieces (before and after an offset, the last byte dropped) are the bytes written.
    @Test func bufferGrowsAndCutsExactly() throws {
        var writer = JSONBytes(capacity: 0)
        var expected = "["
        var middle = 0
        writer.arrayValue { array in
            for index in 0..<5_000 {
                if index == 2_500 { middle = array.count }
                let text = String(repeating: "é\"", count: index % 7) + "\(index)"
                array.string(text)
                array.int(index)
                array.raw(Array("{}".utf8))
                let escaped = String(decoding: Self.reference(text), as: UTF8.self)
                expected += (index == 0 ? "" : ",") + escaped + ",\(index),{}"
            }
        }
        expected += "]"
        let bytes = writer.bytes
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(writer.bytes(upTo: middle) + writer.bytes(from: middle) == bytes)
        writer.removeLastByte()
        #expect(writer.bytes == Array(bytes.dropLast()))
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(bytes)) }
    }
}
