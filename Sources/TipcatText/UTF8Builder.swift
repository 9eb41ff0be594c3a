/// Writes UTF-8 bytes straight into a new String's storage (no intermediate array).
struct UTF8Builder {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    private init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    /// A String of at most `capacity` bytes, written by `body`. Writing beyond `capacity` is a logic error the
    /// callers rule out by computing an upper bound; it is checked and truncated, never out of bounds.
    static func build(capacity: Int, _ body: (inout UTF8Builder) -> Void) -> String {
        String(unsafeUninitializedCapacity: max(capacity, 1)) { storage in
            var builder = UTF8Builder(storage)
            body(&builder)
            return builder.count
        }
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        guard count < buffer.count else { return }
        buffer[count] = byte
        count += 1
    }

    /// Copies `bytes` at once (as many as fit).
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let length = min(bytes.count, buffer.count - count)
        guard length > 0, let target = buffer.baseAddress, let source = bytes.baseAddress else { return }
        (target + count).update(from: source, count: length)
        count += length
    }

    @inline(__always)
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// `&#N;` with N in decimal.
    mutating func appendCharacterReference(_ value: UInt32) {
        append(0x26)
        append(0x23)
        var digits: [UInt8] = []
        var rest = value
        repeat {
            digits.append(0x30 + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        for digit in digits.reversed() { append(digit) }
        append(0x3B)
    }
}
