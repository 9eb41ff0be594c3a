import CSHA256

/// SHA-256 (FIPS 180-4), written for this project: no Foundation, no system crypto library.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(bytes)
/// let digest = hasher.finalize()
/// // or: SHA256.hash(bytes)
/// ```
public struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// Bytes waiting for a full 64-byte block.
    private var pending: [UInt8] = []
    /// Message length so far, in bytes.
    private var length: UInt64 = 0
    /// Compress in Swift even where the processor has SHA instructions (tests compare the two).
    var inSoftware = false

    /// A hasher with nothing hashed yet.
    public init() {
        pending.reserveCapacity(64)
    }

    /// The digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> SHA256Digest {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of the UTF-8 bytes of `text`.
    public static func hash(_ text: String) -> SHA256Digest {
        var copy = text
        return copy.withUTF8 { buffer in
            var hasher = SHA256()
            hasher.update(UnsafeRawBufferPointer(buffer))
            return hasher.finalize()
        }
    }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Adds the bytes in `buffer` to the message.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        length &+= UInt64(buffer.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, buffer.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            offset = take
            guard pending.count == 64 else { return }
            let block = pending
            block.withUnsafeBytes { raw in
                if let base = raw.baseAddress { compress(blocks: base, count: 1) }
            }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = (buffer.count - offset) / 64
        if whole > 0 {
            compress(blocks: base + offset, count: whole)
            offset += whole * 64
        }
        if offset < buffer.count {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base + offset, count: buffer.count - offset))
        }
    }

    /// Pads the message and returns its digest. The hasher should not be used afterwards.
    public mutating func finalize() -> SHA256Digest {
        let bitLength = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        tail.withUnsafeBytes { raw in
            if let base = raw.baseAddress { compress(blocks: base, count: raw.count / 64) }
        }
        pending.removeAll()
        let s = state
        return SHA256Digest(
            UInt64(s.0) << 32 | UInt64(s.1), UInt64(s.2) << 32 | UInt64(s.3),
            UInt64(s.4) << 32 | UInt64(s.5), UInt64(s.6) << 32 | UInt64(s.7))
    }

    @inline(__always)
    private static func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 &- n)) }

    /// Whether blocks are compressed with the processor's SHA instructions (checked once).
    static let usesHardware = tipcat_sha256_hardware_available() == 1

    private mutating func compress(blocks: UnsafeRawPointer, count: Int) {
        if SHA256.usesHardware && !inSoftware {
            withUnsafeMutableBytes(of: &state) { words in
                if let base = words.baseAddress?.assumingMemoryBound(to: UInt32.self) {
                    tipcat_sha256_hardware_compress(base, blocks.assumingMemoryBound(to: UInt8.self), count)
                }
            }
            return
        }
        SHA256.compressInSoftware(&state, blocks: blocks, count: count)
    }

    /// The compression function in Swift, for processors without SHA instructions (and to test them against).
    static func compressInSoftware(
        _ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32), blocks: UnsafeRawPointer, count: Int
    ) {
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            do {
                let k = SHA256.roundConstants
                for block in 0..<count {
                    let base = blocks + block * 64
                    for t in 0..<16 {
                        w[t] = UInt32(bigEndian: base.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
                    }
                    for t in 16..<64 {
                        let a = w[t &- 15]
                        let b = w[t &- 2]
                        let s0 = SHA256.rotate(a, 7) ^ SHA256.rotate(a, 18) ^ (a >> 3)
                        let s1 = SHA256.rotate(b, 17) ^ SHA256.rotate(b, 19) ^ (b >> 10)
                        w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
                    }
                    var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                    for t in 0..<64 {
                        let s1 = SHA256.rotate(e, 6) ^ SHA256.rotate(e, 11) ^ SHA256.rotate(e, 25)
                        let choice = (e & f) ^ (~e & g)
                        let t1 = h &+ s1 &+ choice &+ k[t] &+ w[t]
                        let s0 = SHA256.rotate(a, 2) ^ SHA256.rotate(a, 13) ^ SHA256.rotate(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = s0 &+ majority
                        h = g
                        g = f
                        f = e
                        e = d &+ t1
                        d = c
                        c = b
                        b = a
                        a = t1 &+ t2
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d
                    h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                }
            }
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
    }

    /// The round constants, shared with the hardware compression (CSHA256).
    nonisolated(unsafe) private static let roundConstants = UnsafeBufferPointer(start: tipcat_sha256_round_constants(), count: 64)
}

/// A SHA-256 digest: 32 bytes, compared and hashed as four words, written as 64 lowercase hex digits.
public struct SHA256Digest: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The digest's bytes as four big-endian words, most significant first.
    public let words: (UInt64, UInt64, UInt64, UInt64)

    init(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) {
        words = (a, b, c, d)
    }

    /// The digest whose 32 bytes are `bytes`; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        func word(_ start: Int) -> UInt64 {
            bytes[start..<start + 8].reduce(0) { $0 << 8 | UInt64($1) }
        }
        self.init(word(0), word(8), word(16), word(24))
    }

    /// Parses 64 hex digits (either case); nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var words: [UInt64] = [0, 0, 0, 0]
        for (index, digit) in digits.enumerated() {
            let value: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = digit - UInt8(ascii: "A") + 10
            default: return nil
            }
            words[index / 16] = words[index / 16] << 4 | UInt64(value)
        }
        self.init(words[0], words[1], words[2], words[3])
    }

    /// The 32 bytes.
    public var bytes: [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(32)
        for word in [words.0, words.1, words.2, words.3] {
            for shift in stride(from: 56, through: 0, by: -8) { result.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return result
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The lowercase hex digit of `value` (0–15).
    static func hexDigit(_ value: Int) -> UInt8 { hexDigits[value & 0xF] }

    /// 64 lowercase hex digits.
    public var hex: String {
        var text: [UInt8] = []
        text.reserveCapacity(64)
        appendHex(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the 64 lowercase hex digits to `text`.
    func appendHex(to text: inout [UInt8]) {
        for word in [words.0, words.1, words.2, words.3] {
            for shift in stride(from: 60, through: 0, by: -4) { text.append(Self.hexDigit(Int(truncatingIfNeeded: word >> UInt64(shift)))) }
        }
    }

    /// The first `count` hex digits, for tables (`3f2a1b9c0d11`).
    public func shortHex(_ count: Int = 12) -> String { String(hex.prefix(count)) }

    /// The hex digit (0–15) at position `index` (0–63), used to fan out trees.
    public func nibble(_ index: Int) -> Int {
        let word: UInt64
        switch index / 16 {
        case 0: word = words.0
        case 1: word = words.1
        case 2: word = words.2
        default: word = words.3
        }
        return Int((word >> UInt64(60 - (index % 16) * 4)) & 0xF)
    }

    public var description: String { hex }

    public static func == (lhs: SHA256Digest, rhs: SHA256Digest) -> Bool {
        lhs.words == rhs.words
    }

    public static func < (lhs: SHA256Digest, rhs: SHA256Digest) -> Bool {
        (lhs.words.0, lhs.words.1, lhs.words.2, lhs.words.3) < (rhs.words.0, rhs.words.1, rhs.words.2, rhs.words.3)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
