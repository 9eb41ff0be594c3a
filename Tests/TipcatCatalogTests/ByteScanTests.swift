import CByteScan
import Testing
import TipcatCore
import TipcatJSON
@testable import TipcatCatalog

/// Scans that skip eight bytes at a time agree with a byte-by-byte reading wherever the byte they look for falls in
/// a word, and near the end of the file.
@Suite struct ByteScanTests {
    /// `isVerbatimString`: true exactly when no backslash comes before the closing quote.
    @Test func verbatimStringsAgreeWithAByteByByteScan() throws {
        for length in 0..<40 {
            for escapeAt in [nil] + Array(0..<length).map(Optional.some) {
                var text = String(repeating: "a", count: length)
                if let escapeAt {
                    let index = text.index(text.startIndex, offsetBy: escapeAt)
                    text.replaceSubrange(index...index, with: "\\n")
                }
                // The string is the last thing in the file, so some scans end within eight bytes of its end.
                let json = "{\"k\":\"" + text + "\"}"
                let document = try JSONDocument.parse(SourceFile(path: "f.json", text: json))
                guard case .object(let object) = document.root.value, let node = object["k"] else {
                    Issue.record("no member in \(json)")
                    continue
                }
                #expect(document.isVerbatimString(node) == (escapeAt == nil), "\(json)")
            }
        }
    }

    /// A printf specifier is found wherever its `%` falls in a word.
    /// Line starts are found sixteen bytes at a time, after the newlines are counted in byte lanes of at most
    /// 255 blocks: random files of every length up to 100 bytes, and files of nothing but newlines, of
    /// lengths around a block and past the 255-block count.
    @Test func lineStartsAgreeWithAPlainCount() {
        var random = SeededGenerator(seed: 13)
        var files: [[UInt8]] = (0..<100).map { length in
            (0..<length).map { _ in Int.random(in: 0..<4, using: &random) == 0 ? UInt8(ascii: "\n") : UInt8(ascii: "x") }
        }
        files += [0, 1, 15, 16, 17, 4079, 4080, 4081, 100_000].map { [UInt8](repeating: UInt8(ascii: "\n"), count: $0) }
        for bytes in files {
            let expected = [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
            let file = SourceFile(path: "f", bytes: bytes)
            let starts = (0..<file.lineCount).map(file.lineStart)
            #expect(starts == expected, "\(bytes.count) bytes: \(starts.count) line starts, expected \(expected.count)")
            // Both widths of the scanner (SourceFile uses the 32-bit one below 4 GiB), with the longest line.
            let longestExpected = zip([0] + expected.dropFirst().map { $0 }, expected.dropFirst().map { $0 - 1 } + [bytes.count])
                .map { $1 - $0 }.max() ?? 0
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                var wide = [Int](repeating: -1, count: expected.count - 1)
                var narrow = [UInt32](repeating: 0, count: expected.count - 1)
                var (longestWide, longestNarrow) = (0, 0)
                let wroteWide = wide.withUnsafeMutableBufferPointer { tipcat_line_starts(base, buffer.count, $0.baseAddress, $0.count, &longestWide) }
                let wroteNarrow = narrow.withUnsafeMutableBufferPointer { tipcat_line_starts32(base, buffer.count, $0.baseAddress, $0.count, &longestNarrow) }
                #expect(wroteWide == expected.count - 1 && wroteNarrow == wroteWide)
                #expect(wide == Array(expected.dropFirst()) && narrow.map(Int.init) == wide)
                #expect(longestWide == longestExpected && longestNarrow == longestExpected, "\(bytes.count) bytes")
            }
        }
    }

    @Test func percentIsFoundAtEveryPosition() {
        for prefix in 0..<24 {
            let text = String(repeating: "é", count: prefix % 3) + String(repeating: "x", count: prefix) + "%@"
            #expect(PrintfFormat.parse(text)?.specifiers.count == 1, "\(text)")
            #expect(PrintfFormat.parse(String(repeating: "y", count: prefix)) == nil)
        }
    }
}
