import TipcatCore

/// A minimal, fast JSON writer into a byte buffer, for requests of tens of megabytes (5,000 tips × 12 locales):
/// no intermediate tree, strings escaped as RFC 8259 asks (`"`, `\`, and controls below 0x20).
struct JSONBytes {
    var bytes: [UInt8] = []
    private var needsComma: [Bool] = [false]

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    /// Writes `"key":`; the value that follows does not add a comma.
    mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
        pendingValueAfterKey = true
    }

    private var pendingValueAfterKey = false

    mutating func string(_ value: String) {
        valueSeparator()
        appendString(value)
    }

    mutating func int(_ value: Int) {
        valueSeparator()
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func double(_ value: Double) {
        valueSeparator()
        if value.isFinite {
            if value == value.rounded(), abs(value) < 1e15 {
                bytes.append(contentsOf: String(Int(value)).utf8)
            } else {
                bytes.append(contentsOf: String(value).utf8)
            }
        } else {
            bytes.append(contentsOf: "null".utf8)
        }
    }

    mutating func bool(_ value: Bool) {
        valueSeparator()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func null() {
        valueSeparator()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Bytes that are already one complete JSON value.
    mutating func raw(_ json: [UInt8]) {
        valueSeparator()
        bytes.append(contentsOf: json)
    }

    /// A value written by `build` straight into the buffer (it must append exactly one JSON value).
    mutating func rawValue(_ build: (inout JSONBytes) -> Void) {
        valueSeparator()
        build(&self)
    }

    /// Appends bytes as they are (inside a `rawValue`).
    mutating func appendRaw(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }

    /// Appends `text` escaped for the inside of a JSON string, without quotes (inside a `rawValue`).
    mutating func appendEscaped(_ text: String) { appendStringContents(text) }

    private mutating func valueSeparator() {
        if pendingValueAfterKey {
            pendingValueAfterKey = false
            needsComma[needsComma.count - 1] = true
        } else {
            separate()
        }
    }

    /// An object whose members `body` writes.
    mutating func objectValue(_ body: (inout JSONBytes) -> Void) {
        container(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), body)
    }

    /// An array whose elements `body` writes.
    mutating func arrayValue(_ body: (inout JSONBytes) -> Void) {
        container(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), body)
    }

    private mutating func container(open: UInt8, close: UInt8, _ body: (inout JSONBytes) -> Void) {
        valueSeparator()
        bytes.append(open)
        needsComma.append(false)
        body(&self)
        needsComma.removeLast()
        bytes.append(close)
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        appendStringContents(value)
        bytes.append(UInt8(ascii: "\""))
    }


    private mutating func appendStringContents(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            while index < utf8.count {
                // Eight bytes at a time while none needs escaping (most text needs none).
                if index + 8 <= utf8.count, let base = utf8.baseAddress {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    if !WordBytes.hasJSONSpecial(word) {
                        index += 8
                        continue
                    }
                }
                let byte = utf8[index]
                index += 1
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                let start = index - 1
                if runStart < start { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<start])) }
                runStart = index
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              JSONBytes.hex[Int(byte >> 4)], JSONBytes.hex[Int(byte & 0xF)]])
                }
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count])) }
        }
    }
}
