/// Bytes as a dictionary key — a digest or a fingerprint — hashed in one call: an array of bytes hashes byte by
/// byte, a call each, which showed in every lookup of a catalog's tens of thousands of digests.
public struct ByteKey: Hashable, Sendable {
    public let bytes: [UInt8]

    @inlinable public init(_ bytes: [UInt8]) { self.bytes = bytes }

    @inlinable public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    @inlinable public static func == (lhs: ByteKey, rhs: ByteKey) -> Bool { lhs.bytes == rhs.bytes }
}
