#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes each distinct byte string once: the value decoded from equal bytes is shared (copy-on-write), so a
/// column that repeats a few values row after row costs one decode and no allocation per row.
struct BytesInterner<Value> {
    private var entries: [(bytes: [UInt8], value: Value)] = []
    private var entryByHash: [UInt64: Int] = [:]
    /// The most distinct byte strings kept; beyond that, new ones are decoded every time.
    let limit: Int

    init(limit: Int = .max) {
        self.limit = limit
    }

    /// The value for `bytes`: the one decoded earlier from equal bytes, else `decode(bytes)` (remembered).
    mutating func value<E: Error>(for bytes: UnsafeRawBufferPointer, decode: (UnsafeRawBufferPointer) throws(E) -> Value) throws(E) -> Value {
        // FNV-1a: cheap and good enough to spread short keys. Two byte strings with one hash: the second is
        // decoded every time (correct, just not shared).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        if let index = entryByHash[hash] {
            if Self.equal(entries[index].bytes, bytes) { return entries[index].value }
            return try decode(bytes)
        }
        let value = try decode(bytes)
        if entries.count < limit {
            entryByHash[hash] = entries.count
            entries.append((Array(bytes), value))
        }
        return value
    }

    private static func equal(_ stored: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard stored.count == bytes.count else { return false }
        guard let base = bytes.baseAddress else { return true }
        return stored.withUnsafeBytes { stored in stored.baseAddress.map { memcmp($0, base, bytes.count) == 0 } ?? false }
    }
}
