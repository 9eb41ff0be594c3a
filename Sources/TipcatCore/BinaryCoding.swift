/// Why bytes written by `BinaryWriter` (or by a format built on it) were refused.
public struct BinaryDecodingError: Error, Sendable, CustomStringConvertible {
    public let description: String
    package init(_ description: String) { self.description = description }
}

/// Appends values for the project's own binary files (prepared engine snapshots, compiled rules): counts and
/// indices as LEB128, integers zigzag-encoded, doubles as their 8 bytes, strings and blobs after their length.
package struct BinaryWriter {
    package var bytes: [UInt8] = []

    package init() {}

    package mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    package mutating func count(_ value: Int) { varint(UInt64(max(0, value))) }
    package mutating func int(_ value: Int) { varint(UInt64(bitPattern: Int64((value << 1) ^ (value >> 63)))) }
    package mutating func double(_ value: Double) {
        for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value.bitPattern >> (8 * UInt64(index)))) }
    }
    package mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    package mutating func blob(_ value: [UInt8]) {
        count(value.count)
        bytes += value
    }
    package mutating func string(_ value: String) {
        count(value.utf8.count)
        bytes += value.utf8
    }
    package mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }
    package mutating func optionalInt(_ value: Int?) {
        bool(value != nil)
        if let value { int(value) }
    }
    package mutating func optionalDouble(_ value: Double?) {
        bool(value != nil)
        if let value { double(value) }
    }
}

/// Reads what `BinaryWriter` wrote; any inconsistency (cut short, a count beyond the end, an unknown byte)
/// throws `BinaryDecodingError`, never traps.
package struct BinaryReader {
    package typealias Failure = BinaryDecodingError
    /// What `bytes` point into, kept alive by the reader.
    package let source: FileBytes
    package let bytes: UnsafeRawBufferPointer
    package var position = 0

    /// Reads a copy of `bytes`.
    package init(bytes: [UInt8]) { self.init(FileBytes(copying: bytes)) }

    /// Reads `source` in place (a mapped file is not copied).
    package init(_ source: FileBytes) {
        self.source = source
        bytes = source.buffer
    }

    package var isAtEnd: Bool { position == bytes.count }

    package mutating func byte() throws(Failure) -> UInt8 {
        guard position < bytes.count else { throw Failure("cut short") }
        defer { position += 1 }
        return bytes[position]
    }

    package mutating func varint() throws(Failure) -> UInt64 {
        // One byte (most counts and slots) without the loop.
        if position < bytes.count, bytes[position] < 0x80 {
            defer { position += 1 }
            return UInt64(bytes[position])
        }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            guard shift < 64 else { throw Failure("a number too long") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// A count of elements that follow (each takes at least one byte).
    package mutating func count() throws(Failure) -> Int {
        let value = try varint()
        guard value <= UInt64(bytes.count - position) else { throw Failure("a count beyond the end") }
        return Int(value)
    }

    /// An index or slot: never negative, far below overflow.
    package mutating func index() throws(Failure) -> Int {
        let value = try varint()
        guard value <= UInt64(Int32.max) else { throw Failure("an index out of range") }
        return Int(value)
    }

    /// An offset or length elsewhere in a file.
    package mutating func size() throws(Failure) -> Int {
        let value = try varint()
        guard value < 1 << 48 else { throw Failure("a size out of range") }
        return Int(value)
    }

    package mutating func int() throws(Failure) -> Int {
        let raw = try varint()
        return Int(Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
    }

    package mutating func double() throws(Failure) -> Double {
        guard bytes.count - position >= 8 else { throw Failure("cut short") }
        var bits: UInt64 = 0
        for index in 0..<8 { bits |= UInt64(bytes[position + index]) << (8 * UInt64(index)) }
        position += 8
        return Double(bitPattern: bits)
    }

    package mutating func bool() throws(Failure) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw Failure("not a bool")
        }
    }

    package mutating func blob() throws(Failure) -> [UInt8] {
        let length = try count()
        defer { position += length }
        return Array(bytes[position..<(position + length)])
    }

    package mutating func string() throws(Failure) -> String {
        let length = try count()
        defer { position += length }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + length)]), as: UTF8.self)
    }

    package mutating func optionalString() throws(Failure) -> String? { try bool() ? try string() : nil }
    package mutating func optionalInt() throws(Failure) -> Int? { try bool() ? try int() : nil }
    package mutating func optionalDouble() throws(Failure) -> Double? { try bool() ? try double() : nil }
}

/// Fixed-width little-endian words, for the headers of the project's own binary files.
package enum LittleEndian {
    /// Appends the low `count` bytes of `value`, least significant first.
    package static func append(_ value: UInt64, bytes count: Int, to bytes: inout [UInt8]) {
        for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    /// The `count`-byte word at `offset` (the caller has checked that `bytes` hold it).
    package static func word(_ bytes: [UInt8], at offset: Int, bytes count: Int) -> UInt64 {
        bytes.withUnsafeBytes { word($0, at: offset, bytes: count) }
    }

    /// The `count`-byte word at `offset` (the caller has checked that `bytes` hold it).
    package static func word(_ bytes: UnsafeRawBufferPointer, at offset: Int, bytes count: Int) -> UInt64 {
        precondition(offset >= 0 && count <= 8 && offset + count <= bytes.count, "a word beyond the bytes checked")
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        return value
    }
}

/// Value types, as the engine snapshot and the publish cache write them: a tag byte (0 string, 1 int, 2 double,
/// 3 bool, 4 date, 5 list, 6 set, 7 record, 8 optional), then the element, the fields (a count, then each name
/// and type) or the wrapped type.
extension BinaryWriter {
    package mutating func recordField(_ field: ValueType.RecordField) {
        string(field.name)
        valueType(field.type)
    }

    package mutating func valueType(_ type: ValueType) {
        switch type {
        case .string: bytes.append(0)
        case .int: bytes.append(1)
        case .double: bytes.append(2)
        case .bool: bytes.append(3)
        case .date: bytes.append(4)
        case .list(let element):
            bytes.append(5)
            valueType(element)
        case .set(let element):
            bytes.append(6)
            valueType(element)
        case .record(let fields):
            bytes.append(7)
            count(fields.count)
            for field in fields { recordField(field) }
        case .optional(let wrapped):
            bytes.append(8)
            valueType(wrapped)
        }
    }
}

extension BinaryReader {
    package mutating func recordField(depth: Int = 0) throws(Failure) -> ValueType.RecordField {
        ValueType.RecordField(try string(), try valueType(depth: depth))
    }

    /// A type nested at most 64 deep (a damaged file must not recurse without end).
    package mutating func valueType(depth: Int = 0) throws(Failure) -> ValueType {
        guard depth < 64 else { throw Failure("a type nested too deep") }
        switch try byte() {
        case 0: return .string
        case 1: return .int
        case 2: return .double
        case 3: return .bool
        case 4: return .date
        case 5: return .list(try valueType(depth: depth + 1))
        case 6: return .set(try valueType(depth: depth + 1))
        case 7:
            var fields: [ValueType.RecordField] = []
            for _ in 0..<(try count()) { fields.append(try recordField(depth: depth + 1)) }
            return .record(fields)
        case 8: return .optional(try valueType(depth: depth + 1))
        default: throw Failure("an unknown type")
        }
    }
}
