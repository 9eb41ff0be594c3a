/// A parameter of a statement: sent as text, except bytes, which are sent binary (bytea, never escaped).
public enum PostgreSQLValue: Sendable, Hashable {
    case null
    case text(String)
    case int(Int)
    case bytes([UInt8])

    /// An integer, or NULL when nil.
    public static func optional(_ value: Int?) -> PostgreSQLValue { value.map { .int($0) } ?? .null }
}

/// One row of a result, copied out of libpq. Columns arrive in binary format: integers big-endian
/// (2, 4 or 8 bytes), text as UTF-8, bytea as its bytes.
public struct PostgreSQLRow: Sendable, Hashable {
    /// The raw bytes of each column; nil for NULL.
    public var columns: [[UInt8]?]

    /// Creates a row from its columns' bytes.
    public init(columns: [[UInt8]?]) { self.columns = columns }

    /// Whether the column is NULL (or missing).
    public func isNull(_ index: Int) -> Bool { index >= columns.count || columns[index] == nil }

    /// An integer column (smallint, integer, bigint); nil for NULL or any other width.
    public func int(_ index: Int) -> Int? {
        guard index < columns.count, let bytes = columns[index], [2, 4, 8].contains(bytes.count) else { return nil }
        var value: UInt64 = 0
        for byte in bytes { value = value << 8 | UInt64(byte) }
        switch bytes.count {
        case 2: return Int(Int16(truncatingIfNeeded: value))
        case 4: return Int(Int32(truncatingIfNeeded: value))
        default: return Int(Int64(bitPattern: value))
        }
    }

    /// A text column; nil for NULL.
    public func text(_ index: Int) -> String? {
        guard index < columns.count, let bytes = columns[index] else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A bytea column's bytes; nil for NULL.
    public func bytes(_ index: Int) -> [UInt8]? {
        index < columns.count ? columns[index] : nil
    }

    /// A boolean column; nil for NULL.
    public func bool(_ index: Int) -> Bool? {
        guard index < columns.count, let bytes = columns[index], bytes.count == 1 else { return nil }
        return bytes[0] != 0
    }
}
