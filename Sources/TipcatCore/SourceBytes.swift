/// The bytes of a source file: an array of its own, or a file mapped read-only (`FileBytes`), as a large String
/// Catalog is read — its pages then need not all stay in memory at once (`releasePages(in:)`).
public struct SourceBytes: RandomAccessCollection, Sendable, Hashable {
    private enum Storage: Sendable {
        case array([UInt8])
        case mapped(FileBytes)
    }

    private let storage: Storage

    public init(_ bytes: [UInt8]) {
        storage = .array(bytes)
    }

    /// `bytes` read in place, for as long as these bytes live.
    package init(mapped bytes: FileBytes) {
        storage = .mapped(bytes)
    }

    public var startIndex: Int { 0 }

    public var endIndex: Int {
        switch storage {
        case .array(let bytes): bytes.count
        case .mapped(let bytes): bytes.count
        }
    }

    public subscript(position: Int) -> UInt8 {
        switch storage {
        case .array(let bytes): bytes[position]
        case .mapped(let bytes): bytes.buffer[position]
        }
    }

    public subscript(bounds: Range<Int>) -> Slice<SourceBytes> { Slice(base: self, bounds: bounds) }

    /// Calls `body` with the bytes in place (valid only during the call).
    public func withUnsafeBufferPointer<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        switch storage {
        case .array(let bytes):
            return try bytes.withUnsafeBufferPointer(body)
        case .mapped(let bytes):
            let buffer = UnsafeBufferPointer(start: bytes.buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            defer { withExtendedLifetime(bytes) {} }
            return try body(buffer)
        }
    }

    /// The bytes as an array (a copy of a mapping's).
    public var array: [UInt8] {
        switch storage {
        case .array(let bytes): bytes
        case .mapped(let bytes): Array(bytes.buffer)
        }
    }

    /// Gives back the memory of the whole pages of a mapping inside `range` (they are read again from the file if
    /// asked for later; a hint, no bytes change). Nothing for an array.
    package func releasePages(in range: Range<Int>) {
        if case .mapped(let bytes) = storage { bytes.releasePages(in: range) }
    }

    public static func == (lhs: SourceBytes, rhs: SourceBytes) -> Bool {
        lhs.count == rhs.count && lhs.withUnsafeBufferPointer { left in rhs.withUnsafeBufferPointer { right in left.elementsEqual(right) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBufferPointer { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
