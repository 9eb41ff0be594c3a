import TipcatCore

/// A minimal, fast JSON writer into a byte buffer, for requests of tens of megabytes (5,000 tips × 12 locales):
/// no intermediate tree, strings escaped as RFC 8259 asks (`"`, `\`, and controls below 0x20).
struct JSONBytes {
    var bytes: [UInt8] = []
    /// Per open container, whether its next member needs a comma first: bit `d` for the container at depth `d`
    /// (the top level is depth 0), in `deeper` beyond the 64 bits (no array touched per value).
    private var commaBits: UInt64 = 0
    private var depth = 0
    private var deeper: [Bool] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    private var needsComma: Bool {
        get { depth < 64 ? (commaBits >> UInt64(depth)) & 1 == 1 : deeper[depth - 64] }
        set {
            if depth < 64 {
                let bit: UInt64 = 1 << UInt64(depth)
                commaBits = newValue ? commaBits | bit : commaBits & ~bit
            } else {
                deeper[depth - 64] = newValue
            }
        }
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// Writes `"key":`; the value that follows does not add a comma.
    mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
        pendingValueAfterKey = true
    }

    /// Writes `"name":` for a key known when tipcat is built (written as is: it needs no escape).
    mutating func key(literal name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        appendStatic(name)
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
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

    /// Appends text known when tipcat is built, as it is (inside a `rawValue`).
    mutating func appendStatic(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Starts a value written piece by piece with `append…` (it must append exactly one JSON value).
    mutating func beginRawValue() { valueSeparator() }

    /// Opens an object whose members follow; `endObject` closes it (for hot loops, without a closure).
    mutating func beginObject() {
        valueSeparator()
        bytes.append(UInt8(ascii: "{"))
        enterContainer()
    }

    mutating func endObject() {
        leaveContainer()
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func valueSeparator() {
        if pendingValueAfterKey {
            pendingValueAfterKey = false
            needsComma = true
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
        enterContainer()
        body(&self)
        leaveContainer()
        bytes.append(close)
    }

    private mutating func enterContainer() {
        depth += 1
        if depth >= 64 { deeper.append(false) }
        needsComma = false
    }

    private mutating func leaveContainer() {
        if depth >= 64 { deeper.removeLast() }
        depth -= 1
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
