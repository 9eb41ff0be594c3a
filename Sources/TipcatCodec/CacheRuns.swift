import TipcatCore

/// The runs both cache files keep their items in (`StringsCacheFile`'s entries, `TipsCacheFile`'s tip files): after a
/// prefix, the items in runs of a fixed count, each run's byte length and `FastChecksum` before its bytes, so that a
/// file is written a few runs at a time and its runs are checked and decoded on every core. The header's checksum
/// covers the prefix and every run's length and checksum, not the runs' bytes.
enum CacheRuns {
    /// Gives `write` the prefix, then `count` items in runs of `runLength`, each run made by `encode` (its range of
    /// items) on every core, two runs a core at a time, each written before the next are made: a file never all
    /// waits in memory. The payload's length and the checksum covering it; nil when `write` fails.
    static func write(
        prefix: [UInt8], count: Int, runLength: Int, encode: @Sendable (Range<Int>) -> [UInt8], write: (ArraySlice<UInt8>) -> Bool
    ) -> (length: Int, checksum: UInt64)? {
        guard write(prefix[...]) else { return nil }
        var covered = prefix
        var length = prefix.count
        let batch = runLength * 2 * onlineCores
        var start = 0
        while start < count {
            let (first, end) = (start, min(count, start + batch))
            let runs = concurrentChunks(count: end - first, chunkSize: runLength) { range in
                let run = encode((first + range.lowerBound)..<(first + range.upperBound))
                var head = BinaryWriter()
                head.count(run.count)
                LittleEndian.append(FastChecksum.of(run[...]), bytes: 8, to: &head.bytes)
                return (head.bytes, run)
            }
            for (head, run) in runs {
                covered += head
                guard write(head[...]), write(run[...]) else { return nil }
                length += head.count + run.count
            }
            start = end
        }
        return (length, FastChecksum.of(covered[...]))
    }

    /// The runs of `count` items after a prefix that starts at `prefixStart` and ends at `reader`'s position: each
    /// run's bytes and checksum, when the file ends with the last run and the prefix and runs' lengths and checksums
    /// have the checksum `checksum`; nil otherwise. The runs' own checksums are for their readers to check
    /// (`checkedRun`).
    static func read(
        _ reader: inout BinaryReader, prefixStart: Int, count: Int, runLength: Int, checksum: UInt64
    ) throws(BinaryDecodingError) -> [(range: Range<Int>, checksum: UInt64)]? {
        let bytes = reader.bytes
        guard prefixStart <= reader.position else { return nil }
        var covered = Array(bytes[prefixStart..<reader.position])
        var runs: [(range: Range<Int>, checksum: UInt64)] = []
        var remaining = count
        while remaining > 0 {
            let start = reader.position
            let length = try reader.count()
            guard reader.position + 8 <= bytes.count else { return nil }
            let runChecksum = LittleEndian.word(bytes, at: reader.position, bytes: 8)
            reader.position += 8
            covered += bytes[start..<reader.position]
            guard length <= bytes.count - reader.position else { return nil }
            runs.append((reader.position..<(reader.position + length), runChecksum))
            reader.position += length
            remaining -= min(runLength, remaining)
        }
        guard reader.isAtEnd, FastChecksum.of(covered[...]) == checksum else { return nil }
        return runs
    }

    /// A reader at the start of `run` in `source`, when the run's bytes have its checksum; nil otherwise.
    static func checkedRun(_ run: (range: Range<Int>, checksum: UInt64), in source: FileBytes) -> BinaryReader? {
        guard FastChecksum.of(UnsafeRawBufferPointer(rebasing: source.buffer[run.range])) == run.checksum else { return nil }
        var reader = BinaryReader(source)
        reader.position = run.range.lowerBound
        return reader
    }
}
