/// A compact, self-describing binary form of `Value`, for the state database's blob columns (and the publish
/// cache's tip examples).
///
/// Each value is a tag byte then its payload: `s` length-prefixed UTF-8, `i` 8-byte little-endian integer,
/// `d`/`t` an 8-byte `Double` bit pattern (number / date), `b` one byte, `l`/`S` a count then the elements,
/// `r` a count then (key, value) pairs with keys as `s` payloads. Decoding never traps: malformed bytes throw.
package enum StoredValueCodec {
    package struct Malformed: Error {}

    package static func encode(_ value: Value) -> [UInt8] {
        var bytes: [UInt8] = []
        append(value, to: &bytes)
        return bytes
    }

    package static func encode(record fields: [String: Value]) -> [UInt8] { encode(.record(fields)) }

    package static func decode(_ bytes: [UInt8]) throws(Malformed) -> Value {
        try bytes.withUnsafeBytes { buffer in Result { () throws(Malformed) in try decode(buffer) } }.get()
    }

    /// Decodes bytes in place (a column SQLite hands out), without copying them first.
    package static func decode(_ bytes: UnsafeRawBufferPointer) throws(Malformed) -> Value {
        var reader = Reader(bytes: bytes)
        let value = try reader.value(depth: 0)
        guard reader.offset == bytes.count else { throw Malformed() }
        return value
    }

    package static func decodeRecord(_ bytes: [UInt8]) throws(Malformed) -> [String: Value] {
        try bytes.withUnsafeBytes { buffer in Result { () throws(Malformed) in try decodeRecord(buffer) } }.get()
    }

    package static func decodeRecord(_ bytes: UnsafeRawBufferPointer) throws(Malformed) -> [String: Value] {
        guard case .record(let fields) = try decode(bytes) else { throw Malformed() }
        return fields
    }

    private static func append(_ value: Value, to bytes: inout [UInt8]) {
        switch value {
        case .string(let text): bytes.append(UInt8(ascii: "s")); appendString(text, to: &bytes)
        case .int(let number): bytes.append(UInt8(ascii: "i")); appendWord(UInt64(bitPattern: Int64(number)), to: &bytes)
        case .double(let number): bytes.append(UInt8(ascii: "d")); appendWord(number.bitPattern, to: &bytes)
        case .bool(let flag): bytes.append(UInt8(ascii: "b")); bytes.append(flag ? 1 : 0)
        case .date(let time): bytes.append(UInt8(ascii: "t")); appendWord(time.secondsSince1970.bitPattern, to: &bytes)
        case .list(let values):
            bytes.append(UInt8(ascii: "l")); appendWord(UInt64(values.count), to: &bytes)
            for element in values { append(element, to: &bytes) }
        case .set(let values):
            bytes.append(UInt8(ascii: "S")); appendWord(UInt64(values.count), to: &bytes)
            for element in values { append(element, to: &bytes) }
        case .record(let fields):
            bytes.append(UInt8(ascii: "r")); appendWord(UInt64(fields.count), to: &bytes)
            for key in fields.keys.sorted() {
                appendString(key, to: &bytes)
                if let field = fields[key] { append(field, to: &bytes) }
            }
        }
    }

    private static func appendString(_ text: String, to bytes: inout [UInt8]) {
        let utf8 = Array(text.utf8)
        appendWord(UInt64(utf8.count), to: &bytes)
        bytes.append(contentsOf: utf8)
    }

    private static func appendWord(_ word: UInt64, to bytes: inout [UInt8]) {
        LittleEndian.append(word, bytes: 8, to: &bytes)
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        mutating func byte() throws(Malformed) -> UInt8 {
            guard offset < bytes.count else { throw Malformed() }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func word() throws(Malformed) -> UInt64 {
            guard bytes.count - offset >= 8 else { throw Malformed() }
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
            return word
        }

        mutating func count() throws(Malformed) -> Int {
            let value = try word()
            guard value <= UInt64(bytes.count - offset) else { throw Malformed() }
            return Int(value)
        }

        mutating func string() throws(Malformed) -> String {
            let length = try count()
            defer { offset += length }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
        }

        mutating func value(depth: Int) throws(Malformed) -> Value {
            guard depth < 64 else { throw Malformed() }
            switch try byte() {
            case UInt8(ascii: "s"): return .string(try string())
            case UInt8(ascii: "i"): return .int(Int(truncatingIfNeeded: Int64(bitPattern: try word())))
            case UInt8(ascii: "d"): return .double(Double(bitPattern: try word()))
            case UInt8(ascii: "b"): return .bool(try byte() != 0)
            case UInt8(ascii: "t"): return .date(Timestamp(secondsSince1970: Double(bitPattern: try word())))
            case UInt8(ascii: "l"), UInt8(ascii: "S"):
                let isSet = bytes[offset - 1] == UInt8(ascii: "S")
                let n = try count()
                var values: [Value] = []
                values.reserveCapacity(n)
                for _ in 0..<n { values.append(try value(depth: depth + 1)) }
                return isSet ? .set(values) : .list(values)
            case UInt8(ascii: "r"):
                let n = try count()
                var fields = [String: Value](minimumCapacity: n)
                for _ in 0..<n {
                    let key = try string()
                    fields[key] = try value(depth: depth + 1)
                }
                return .record(fields)
            default: throw Malformed()
            }
        }
    }
}
