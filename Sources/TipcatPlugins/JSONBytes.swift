@_spi(Tipcat) import TipcatCore

/// A minimal, fast JSON writer into a byte buffer, for requests of tens of megabytes (5,000 tips × 12 locales):
/// no intermediate tree, strings escaped as RFC 8259 asks (`"`, `\`, and controls below 0x20).
///
/// The buffer is its own (not an array): a request is millions of small appends, and an array's append checks
/// uniqueness and capacity through generic code each time. A writer cannot be copied, so the buffer has one owner.
struct JSONBytes: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are written.
    private(set) var count = 0
    /// Per open container, whether its next member needs a comma first: bit `d` for the container at depth `d`
    /// (the top level is depth 0), in `deeper` beyond the 64 bits (no array touched per value).
    private var commaBits: UInt64 = 0
    private var depth = 0
    private var deeper: [Bool] = []

    init(capacity: Int = 0) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written so far.
    var bytes: [UInt8] { [UInt8](UnsafeBufferPointer(start: base, count: count)) }

    /// The bytes from `offset` on (`offset` from `count` earlier; clamped to what is written).
    func bytes(from offset: Int) -> [UInt8] {
        let offset = min(max(0, offset), count)
        return [UInt8](UnsafeBufferPointer(start: base + offset, count: count - offset))
    }

    /// The bytes before `offset` (clamped to what is written).
    func bytes(upTo offset: Int) -> [UInt8] { [UInt8](UnsafeBufferPointer(start: base, count: min(max(0, offset), count))) }

    /// Drops the last byte written (an envelope's closing brace, written later).
    mutating func removeLastByte() {
        if count > 0 { count -= 1 }
    }

    /// Room for `extra` more bytes, growing the buffer (doubling) when needed.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if capacity - count < extra { grow(extra) }
    }

    @inline(never)
    private mutating func grow(_ extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    private mutating func appendByte(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    private mutating func appendBytes(_ a: UInt8, _ b: UInt8) {
        reserve(2)
        base[count] = a
        base[count + 1] = b
        count += 2
    }

    @inline(__always)
    private mutating func appendBuffer(_ source: UnsafeBufferPointer<UInt8>) {
        guard let start = source.baseAddress, !source.isEmpty else { return }
        reserve(source.count)
        (base + count).update(from: start, count: source.count)
        count += source.count
    }

    /// Appends `text`'s bytes as they are.
    private mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { appendBuffer($0) }
    }

    private var needsComma: Bool {
        @inline(__always) get { depth < 64 ? (commaBits >> UInt64(depth)) & 1 == 1 : deeper[depth - 64] }
        @inline(__always) set {
            if depth < 64 {
                let bit: UInt64 = 1 << UInt64(depth)
                commaBits = newValue ? commaBits | bit : commaBits & ~bit
            } else {
                setDeeper(newValue)
            }
        }
    }

    /// The rare case of `needsComma` beyond 64 levels, out of line.
    @inline(never)
    private mutating func setDeeper(_ value: Bool) { deeper[depth - 64] = value }

    private mutating func separate() {
        if needsComma { appendByte(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// Writes `"key":`; the value that follows does not add a comma.
    mutating func key(_ name: String) {
        separate()
        appendString(name)
        appendByte(UInt8(ascii: ":"))
        needsComma = false
        pendingValueAfterKey = true
    }

    /// Writes `"name":` for a key known when tipcat is built (written as is: it needs no escape).
    mutating func key(literal name: StaticString) {
        separate()
        appendByte(UInt8(ascii: "\""))
        appendStatic(name)
        appendBytes(UInt8(ascii: "\""), UInt8(ascii: ":"))
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
        appendText(String(value))
    }

    mutating func double(_ value: Double) {
        valueSeparator()
        if value.isFinite {
            if value == value.rounded(), abs(value) < 1e15 {
                appendText(String(Int(value)))
            } else {
                appendText(String(value))
            }
        } else {
            appendText("null")
        }
    }

    mutating func bool(_ value: Bool) {
        valueSeparator()
        appendText(value ? "true" : "false")
    }

    mutating func null() {
        valueSeparator()
        appendText("null")
    }

    /// Bytes that are already one complete JSON value.
    mutating func raw(_ json: [UInt8]) {
        valueSeparator()
        json.withUnsafeBufferPointer { appendBuffer($0) }
    }

    /// A value written by `build` straight into the buffer (it must append exactly one JSON value).
    mutating func rawValue(_ build: (inout JSONBytes) -> Void) {
        valueSeparator()
        build(&self)
    }

    /// Appends bytes as they are (inside a `rawValue`).
    mutating func appendRaw(_ raw: [UInt8]) { raw.withUnsafeBufferPointer { appendBuffer($0) } }

    /// Appends `text` escaped for the inside of a JSON string, without quotes (inside a `rawValue`).
    mutating func appendEscaped(_ text: String) { appendStringContents(text) }

    /// Appends text known when tipcat is built, as it is (inside a `rawValue`).
    mutating func appendStatic(_ text: StaticString) {
        text.withUTF8Buffer { appendBuffer($0) }
    }

    /// Starts a value written piece by piece with `append…` (it must append exactly one JSON value).
    mutating func beginRawValue() { valueSeparator() }

    /// Opens an object whose members follow; `endObject` closes it (for hot loops, without a closure).
    mutating func beginObject() {
        valueSeparator()
        appendByte(UInt8(ascii: "{"))
        enterContainer()
    }

    mutating func endObject() {
        leaveContainer()
        appendByte(UInt8(ascii: "}"))
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
        appendByte(open)
        enterContainer()
        body(&self)
        leaveContainer()
        appendByte(close)
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
        appendByte(UInt8(ascii: "\""))
        appendStringContents(value)
        appendByte(UInt8(ascii: "\""))
    }


    private mutating func appendStringContents(_ value: String) {
        // Native strings (all of a decoded catalog's) are read in place; others are made contiguous first.
        if value.utf8.withContiguousStorageIfAvailable({ appendEscapedUTF8($0) }) == nil {
            var copy = value
            copy.withUTF8 { appendEscapedUTF8($0) }
        }
    }

    private mutating func appendEscapedUTF8(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var index = 0
        while index < utf8.count {
            // Eight bytes at a time while none needs escaping (most text needs none).
            index = WordBytes.plainPrefix(utf8, from: index, mayMatch: WordBytes.hasJSONSpecial)
            guard index < utf8.count else { break }
            let byte = utf8[index]
            index += 1
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            let start = index - 1
            if runStart < start { appendBuffer(UnsafeBufferPointer(rebasing: utf8[runStart..<start])) }
            runStart = index
            switch byte {
            case UInt8(ascii: "\""): appendBytes(UInt8(ascii: "\\"), UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): appendBytes(UInt8(ascii: "\\"), UInt8(ascii: "\\"))
            case 0x0A: appendBytes(UInt8(ascii: "\\"), UInt8(ascii: "n"))
            case 0x0D: appendBytes(UInt8(ascii: "\\"), UInt8(ascii: "r"))
            case 0x09: appendBytes(UInt8(ascii: "\\"), UInt8(ascii: "t"))
            default:
                appendBytes(UInt8(ascii: "\\"), UInt8(ascii: "u"))
                appendBytes(UInt8(ascii: "0"), UInt8(ascii: "0"))
                appendBytes(JSONBytes.hex[Int(byte >> 4)], JSONBytes.hex[Int(byte & 0xF)])
            }
        }
        if runStart < utf8.count { appendBuffer(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count])) }
    }
}
