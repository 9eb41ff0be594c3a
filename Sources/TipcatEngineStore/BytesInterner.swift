#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes each distinct byte string once: the value decoded from equal bytes is shared (copy-on-write), so a
/// column that repeats a few values row after row costs one decode and no allocation per row.
///
/// An open-addressing table of FNV-1a hashes (cheaper than a `Dictionary` for a lookup per row).
struct BytesInterner<Value> {
    private var entries: [(bytes: [UInt8], value: Value)] = []
    /// `slots[i]`: 1 + the index of an entry whose hash is `hashes[i]`, or 0 for an empty slot.
    private var slots = [Int32](repeating: 0, count: 64)
    private var hashes = [UInt64](repeating: 0, count: 64)
    /// The most distinct byte strings kept; beyond that, new ones are decoded every time.
    let limit: Int

    init(limit: Int = 1 << 20) {
        self.limit = limit
    }

    /// The value for `bytes`: the one decoded earlier from equal bytes, else `decode(bytes)` (remembered).
    mutating func value<E: Error>(for bytes: UnsafeRawBufferPointer, decode: (UnsafeRawBufferPointer) throws(E) -> Value) throws(E) -> Value {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            if hashes[slot] == hash {
                let entry = Int(slots[slot]) - 1
                if Self.equal(entries[entry].bytes, bytes) { return entries[entry].value }
            }
            slot = (slot + 1) & mask
        }
        let value = try decode(bytes)
        if entries.count < limit {
            entries.append((Array(bytes), value))
            slots[slot] = Int32(truncatingIfNeeded: entries.count)
            hashes[slot] = hash
            if entries.count * 2 > slots.count { grow() }
        }
        return value
    }

    /// Doubles the table and reinserts every entry.
    private mutating func grow() {
        let oldSlots = slots
        let oldHashes = hashes
        slots = [Int32](repeating: 0, count: oldSlots.count * 2)
        hashes = [UInt64](repeating: 0, count: oldSlots.count * 2)
        let mask = slots.count - 1
        for (index, entry) in oldSlots.enumerated() where entry != 0 {
            var slot = Int(truncatingIfNeeded: oldHashes[index]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
            hashes[slot] = oldHashes[index]
        }
    }

    private static func equal(_ stored: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard stored.count == bytes.count else { return false }
        guard let base = bytes.baseAddress else { return true }
        return stored.withUnsafeBytes { stored in stored.baseAddress.map { memcmp($0, base, bytes.count) == 0 } ?? false }
    }
}
