/// A fast 64-bit checksum for the project's own binary files (engine snapshots, the String Catalog cache).
package enum FastChecksum {
    /// A fast 64-bit checksum (not cryptographic): detects truncation, bit flips and stray writes. Four
    /// independent lanes of 8-byte words, so a multi-megabyte section is summed at memory speed.
    package static func of(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { of($0) }
    }

    /// `of(_:)` over bytes in place (a mapped file's).
    package static func of(_ buffer: UnsafeRawBufferPointer) -> UInt64 {
        let seed: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(buffer.count)
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (seed, seed ^ 0x9E37_79B9, seed ^ 0x85EB_CA6B, seed ^ 0xC2B2_AE35)
        func mix(_ lane: inout UInt64, _ word: UInt64) {
            lane = (lane ^ word) &* 0x9E37_79B9_7F4A_7C15
            lane ^= lane >> 29
        }
        var tail = seed
        var index = 0
        while index + 32 <= buffer.count {
            mix(&lanes.0, buffer.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            mix(&lanes.1, buffer.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
            mix(&lanes.2, buffer.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self))
            mix(&lanes.3, buffer.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self))
            index += 32
        }
        while index + 8 <= buffer.count {
            mix(&lanes.0, buffer.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
        }
        while index < buffer.count {
            tail = (tail ^ UInt64(buffer[index])) &* 0x0000_0100_0000_01B3
            index += 1
        }
        var hash = lanes.0
        for lane in [lanes.1, lanes.2, lanes.3, tail] {
            hash = (hash ^ lane) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
        }
        return hash ^ (hash >> 32)
    }
}
