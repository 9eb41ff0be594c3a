import CByteScan

/// A position in a source file, as people and editors count it.
///
/// `line` and `column` are 1-based. Columns count Unicode scalars from the start of the line, so a
/// character such as `é` or `日` advances the column by one, as in most editors.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The path as given by the user (relative paths stay relative, so output is stable).
    public var file: String
    /// 1-based line.
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = SourceLocation.stored(newValue) }
    }
    /// 1-based column, in Unicode scalars.
    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = SourceLocation.stored(newValue) }
    }
    // Four bytes each (every decoded translation keeps a location; a catalog has hundreds of thousands). Files
    // are read whole and are far smaller than 2 GiB; a larger number is kept as the largest there is.
    private var storedLine: UInt32
    private var storedColumn: UInt32

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.storedLine = SourceLocation.stored(line)
        self.storedColumn = SourceLocation.stored(column)
    }

    private static func stored(_ value: Int) -> UInt32 {
        UInt32(clamping: value)
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
    public let bytes: SourceBytes
    /// Byte offset at which each line starts; the first is 0.
    private let lineTable: LineTable
    /// For files with a line longer than `SourceFile.longLine` bytes (minified JSON, say): `scalarCounts[k]` is the
    /// number of Unicode scalars (bytes that are not UTF-8 continuation bytes) in `bytes[0 ..< k * stride]`, so a
    /// column is found with at most `stride` bytes scanned however long its line is (many locations on one long
    /// line stay linear). Empty for files whose lines are all shorter, where a column scans at most `longLine`
    /// bytes anyway — a pretty-printed String Catalog of tens of megabytes is not counted through for a few
    /// lines of a few hundred bytes.
    let scalarCounts: [Int]
    static let stride = 256
    static let longLine = 4096
    /// For large files: `lineBlocks[k]` is the index of the line holding byte `k << blockShift`, so finding a
    /// line searches the few lines of one block instead of the whole table. Empty for small files.
    let lineBlocks: [Int]
    static let blockShift = 12
    /// Where `bytes[0]` is in the file `bytes` come from: line 1, column 1, unless they are a piece cut from a
    /// larger file (so a piece parsed alone gives the whole file's locations).
    public let firstLine: Int
    public let firstColumn: Int

    /// Where each line starts, in 4 bytes a line (a String Catalog of tens of megabytes has over a million lines)
    /// unless the file is too large for that.
    private enum LineTable: Sendable {
        case compact([UInt32])
        case wide([Int])

        var count: Int {
            switch self {
            case .compact(let starts): starts.count
            case .wide(let starts): starts.count
            }
        }

        subscript(line: Int) -> Int {
            switch self {
            case .compact(let starts): Int(starts[line])
            case .wide(let starts): starts[line]
            }
        }
    }

    /// A whole file.
    public init(path: String, bytes: [UInt8]) {
        self.init(path: path, bytes: SourceBytes(bytes), firstLine: 1, firstColumn: 1)
    }

    /// A whole file, read in place from its mapping.
    package init(path: String, mapped: FileBytes) {
        self.init(path: path, bytes: SourceBytes(mapped: mapped), firstLine: 1, firstColumn: 1)
    }

    /// `bytes` cut from the file at `path` where its line `firstLine` and column `firstColumn` are (1-based):
    /// locations are the file's.
    public init(path: String, bytes: [UInt8], firstLine: Int, firstColumn: Int) {
        self.init(path: path, bytes: SourceBytes(bytes), firstLine: firstLine, firstColumn: firstColumn)
    }

    private init(path: String, bytes: SourceBytes, firstLine: Int, firstColumn: Int) {
        self.path = path
        self.bytes = bytes
        self.firstLine = max(1, firstLine)
        self.firstColumn = max(1, firstColumn)
        var table = LineTable.compact([0])
        var counts: [Int] = []
        bytes.withUnsafeBufferPointer { buffer in
            // Sixteen bytes at a time (`CByteScan`): counted first, so the table is made at its exact size.
            var longestLine = buffer.count
            if let base = buffer.baseAddress {
                let newlines = tipcat_count_newlines(base, buffer.count)
                var longest = 0
                if buffer.count < Int(UInt32.max) {
                    table = .compact(Array(unsafeUninitializedCapacity: newlines + 1) { starts, initialized in
                        guard let first = starts.baseAddress else { return }
                        first.initialize(to: 0)
                        initialized = 1 + tipcat_line_starts32(base, buffer.count, first + 1, newlines, &longest)
                    })
                } else {
                    table = .wide(Array(unsafeUninitializedCapacity: newlines + 1) { starts, initialized in
                        guard let first = starts.baseAddress else { return }
                        first.initialize(to: 0)
                        initialized = 1 + tipcat_line_starts(base, buffer.count, first + 1, newlines, &longest)
                    })
                }
                longestLine = longest
            }
            guard longestLine > SourceFile.longLine else { return }
            counts.reserveCapacity(buffer.count / SourceFile.stride + 1)
            var scalars = 0
            var index = 0
            while index < buffer.count {
                counts.append(scalars)
                let blockEnd = min(buffer.count, index + SourceFile.stride)
                scalars += SourceFile.scalarCount(buffer, from: index, to: blockEnd)
                index = blockEnd
            }
            counts.append(scalars)  // so an offset equal to the file's length has an entry
        }
        self.lineTable = table
        self.scalarCounts = counts
        var blocks: [Int] = []
        if bytes.count >= 16 << SourceFile.blockShift {
            blocks.reserveCapacity(bytes.count >> SourceFile.blockShift + 1)
            var line = 0
            for block in 0...(bytes.count >> SourceFile.blockShift) {
                let offset = block << SourceFile.blockShift
                while line + 1 < table.count, table[line + 1] <= offset { line += 1 }
                blocks.append(line)
            }
        }
        self.lineBlocks = blocks
    }

    /// How many lines the file has (one more than its line breaks).
    public var lineCount: Int { lineTable.count }

    /// The byte offset at which the 0-based `line` starts.
    public func lineStart(_ line: Int) -> Int { lineTable[line] }

    /// The number of Unicode scalars in `bytes[0 ..< offset]`, from the nearest checkpoint.
    private func scalars(before offset: Int) -> Int {
        let checkpoint = offset / SourceFile.stride
        return scalarCounts[checkpoint]
            + bytes.withUnsafeBufferPointer { SourceFile.scalarCount($0, from: checkpoint * SourceFile.stride, to: offset) }
    }

    /// The number of Unicode scalars (bytes that are not UTF-8 continuation bytes) in `bytes[start ..< end]`,
    /// eight bytes at a time.
    static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        guard let base = bytes.baseAddress, start < end, end <= bytes.count else { return 0 }
        let raw = UnsafeRawPointer(base)
        var count = 0
        var index = start
        while index + 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            // A byte is a continuation byte when its top bits are 10.
            count += 8 - (word & ~(word << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
            index += 8
        }
        while index < end {
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
        // Binary search for the last line start <= offset (within its block's lines, for large files).
        var low = 0
        var high = lineTable.count - 1
        if !lineBlocks.isEmpty {
            let block = offset >> SourceFile.blockShift
            low = lineBlocks[block]
            if block + 1 < lineBlocks.count { high = lineBlocks[block + 1] }
        }
        while low < high {
            let mid = (low + high + 1) / 2
            if lineTable[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        let lineStart = lineTable[low]
        // A piece of a larger file starts inside its first line.
        let firstColumn = low == 0 ? self.firstColumn : 1
        if offset - lineStart > SourceFile.stride, !scalarCounts.isEmpty {
            return SourceLocation(
                file: path, line: low + firstLine, column: firstColumn + scalars(before: offset) - scalars(before: lineStart))
        }
        let column = firstColumn + bytes.withUnsafeBufferPointer { SourceFile.scalarCount($0, from: lineStart, to: offset) }
        return SourceLocation(file: path, line: low + firstLine, column: column)
    }

    /// The text of the 1-based `line` without its line terminator, for excerpts under a diagnostic.
    /// Nil for a line this piece of a file does not hold whole (see `firstLine`).
    public func lineText(_ line: Int) -> String? {
        let line = line - firstLine + 1
        guard line >= 1, line <= lineTable.count, line > 1 || firstColumn == 1 else { return nil }
        let start = lineTable[line - 1]
        var end = line < lineTable.count ? lineTable[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return bytes.withUnsafeBufferPointer { String(decoding: $0[start..<max(start, end)], as: UTF8.self) }
    }
}
