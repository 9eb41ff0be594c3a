#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A position in a source file, as people and editors count it.
///
/// `line` and `column` are 1-based. Columns count Unicode scalars from the start of the line, so a
/// character such as `é` or `日` advances the column by one, as in most editors.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The path as given by the user (relative paths stay relative, so output is stable).
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `path:line:col`, the form compilers and editors understand.
    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

/// The text of one file plus the table needed to turn byte offsets into lines and columns.
///
/// Parsers keep only byte offsets in their trees (cheap); a location is computed when a diagnostic needs one.
public struct SourceFile: Sendable {
    public let path: String
    public let bytes: [UInt8]
    /// Byte offset at which each line starts; `lineStarts[0] == 0`.
    public let lineStarts: [Int]
    /// For files with a line longer than `SourceFile.stride` bytes: `scalarCounts[k]` is the number of Unicode
    /// scalars (bytes that are not UTF-8 continuation bytes) in `bytes[0 ..< k * stride]`, so a column is found
    /// with at most `stride` bytes scanned however long its line is (many locations on one long line stay
    /// linear). Empty for files whose lines are all short, where a column scans at most `stride` bytes anyway.
    let scalarCounts: [Int]
    static let stride = 256

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        var starts = [0]
        starts.reserveCapacity(bytes.count / 32 + 1)
        var counts: [Int] = []
        bytes.withUnsafeBufferPointer { buffer in
            var longestLine = 0
            var lineStart = 0
            // memchr finds each newline with vector instructions: files of tens of megabytes are indexed in
            // a few milliseconds.
            if let base = buffer.baseAddress {
                while lineStart < buffer.count,
                      let found = memchr(base + lineStart, Int32(UInt8(ascii: "\n")), buffer.count - lineStart) {
                    let index = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                    longestLine = max(longestLine, index - lineStart)
                    lineStart = index + 1
                    starts.append(lineStart)
                }
            }
            longestLine = max(longestLine, buffer.count - lineStart)
            guard longestLine > SourceFile.stride else { return }
            counts.reserveCapacity(buffer.count / SourceFile.stride + 1)
            var scalars = 0
            for index in buffer.indices {
                if index % SourceFile.stride == 0 { counts.append(scalars) }
                if buffer[index] & 0xC0 != 0x80 { scalars += 1 }
            }
            counts.append(scalars)  // so an offset equal to the file's length has an entry
        }
        self.lineStarts = starts
        self.scalarCounts = counts
    }

    /// The number of Unicode scalars in `bytes[0 ..< offset]`, from the nearest checkpoint.
    private func scalars(before offset: Int) -> Int {
        let checkpoint = offset / SourceFile.stride
        var count = scalarCounts[checkpoint]
        var index = checkpoint * SourceFile.stride
        while index < offset {
            if bytes[index] & 0xC0 != 0x80 { count += 1 }
            index += 1
        }
        return count
    }

    public init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }

    /// The location of the byte at `offset` (clamped to the file). Columns count scalars, not bytes:
    /// UTF-8 continuation bytes do not advance the column.
    public func location(ofByte offset: Int) -> SourceLocation {
        let offset = max(0, min(offset, bytes.count))
        // Binary search for the last line start <= offset.
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        let lineStart = lineStarts[low]
        if offset - lineStart > SourceFile.stride, !scalarCounts.isEmpty {
            return SourceLocation(file: path, line: low + 1, column: 1 + scalars(before: offset) - scalars(before: lineStart))
        }
        var column = 1
        var index = lineStart
        while index < offset {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourceLocation(file: path, line: low + 1, column: column)
    }

    /// The text of the 1-based `line` without its line terminator, for excerpts under a diagnostic.
    public func lineText(_ line: Int) -> String? {
        guard line >= 1, line <= lineStarts.count else { return nil }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }
}
