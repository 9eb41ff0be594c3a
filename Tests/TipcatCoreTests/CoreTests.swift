import Foundation
import Testing
@_spi(Tipcat) @testable import TipcatCore

@Suite struct SourceFileTests {
    @Test func locationsCountLinesAndScalars() {
        let file = SourceFile(path: "a.json", text: "ab\né日x\n")
        #expect(file.location(ofByte: 0) == SourceLocation(file: "a.json", line: 1, column: 1))
        #expect(file.location(ofByte: 3) == SourceLocation(file: "a.json", line: 2, column: 1))
        // "é" is 2 bytes, "日" 3 bytes: x is the third character of line 2.
        #expect(file.location(ofByte: 3 + 2 + 3) == SourceLocation(file: "a.json", line: 2, column: 3))
        #expect(file.lineText(2) == "é日x")
        #expect(file.lineText(9) == nil)
    }

    /// A large file (lines found eight bytes at a time, located through blocks of lines): every line start, and
    /// every offset, agrees with a plain count — short and long lines, newlines at every position in a word,
    /// blocks with no line start, a file not a multiple of eight bytes and ending without a newline.
    @Test func largeFilesAgreeWithAPlainCount() {
        var text = ""
        var state: UInt64 = 7
        while text.utf8.count < 200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 33) % 97 == 0 ? 9000 : Int(state >> 40) % 23
            text += String(repeating: (state >> 20) % 3 == 0 ? "é" : "a", count: length) + "\n"
        }
        text += "tail"
        let bytes = Array(text.utf8)
        let file = SourceFile(path: "big", bytes: bytes)
        var expected = [0]
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { expected.append(index + 1) }
        #expect((0..<file.lineCount).map(file.lineStart) == expected)
        var line = 1, column = 1
        for offset in 0...bytes.count {
            let location = file.location(ofByte: offset)
            if location.line != line || location.column != column {
                Issue.record("offset \(offset): \(location.line):\(location.column), expected \(line):\(column)")
                break
            }
            guard offset < bytes.count else { break }
            if bytes[offset] == UInt8(ascii: "\n") { line += 1; column = 1 } else if bytes[offset] & 0xC0 != 0x80 { column += 1 }
        }
    }
}

/// Columns on a very long line: every offset agrees with a plain count of scalars from the line start, and
/// 10,000 lookups on one 1 MB line take well under the bound (a scan from the line start per lookup would take
/// about 10 GB of byte reads).
@Suite struct LongLineLocationTests {
    static func naiveColumn(_ bytes: [UInt8], _ offset: Int) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for byte in bytes[..<offset] {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }

    @Test func columnsMatchAPlainCount() {
        let text = "ab\n" + String(repeating: "é日x🙂 ", count: 300) + "\nz" + String(repeating: "q", count: 700)
        let file = SourceFile(path: "f", text: text)
        let bytes = Array(text.utf8)
        for offset in Swift.stride(from: 0, through: bytes.count, by: 7) where offset == bytes.count || bytes[offset] & 0xC0 != 0x80 {
            let expected = Self.naiveColumn(bytes, offset)
            #expect(file.location(ofByte: offset) == SourceLocation(file: "f", line: expected.line, column: expected.column), "offset \(offset)")
        }
    }

    @Test func tenThousandLookupsOnOneLongLineAreFast() {
        let file = SourceFile(path: "f", text: String(repeating: "日x", count: 250_000))
        let clock = ContinuousClock()
        let start = clock.now
        var last = SourceLocation(file: "f", line: 0, column: 0)
        for index in 0..<10_000 { last = file.location(ofByte: file.bytes.count - 4 * index) }
        #expect(clock.now - start < .seconds(2))
        #expect(last == SourceLocation(file: "f", line: 1, column: 500_000 - 2 * 9_999 + 1))
    }
}

@Suite struct SuggestionTests {
    @Test func findsCloseNames() {
        #expect(Suggestions.closest(to: "isLogedIn", in: ["isLoggedIn", "launchCount"]) == "isLoggedIn")
        #expect(Suggestions.closest(to: "--catalgo", in: ["--catalog", "--format"]) == "--catalog")
        #expect(Suggestions.closest(to: "zzz", in: ["catalog"]) == nil)
        #expect(Suggestions.editDistance(Array("ab".unicodeScalars), Array("ba".unicodeScalars)) == 1)
    }
}

@Suite struct ValueTypeTests {
    @Test func parsesTypeText() {
        #expect(ValueType.parse("list<string>") == .list(.string))
        #expect(ValueType.parse(" set<date> ") == .set(.date))
        #expect(ValueType.parse("list<nope>") == nil)
        #expect(ValueType.parse("integer") == nil)
    }

    @Test func conformance() {
        #expect(Value.int(3).conforms(to: .double))
        #expect(!Value.double(3).conforms(to: .int))
        let trail = ValueType.record([.init("id", .string), .init("region", .string)])
        #expect(Value.record(["id": .string("a"), "region": .string("b")]).conforms(to: trail))
        #expect(!Value.record(["id": .string("a")]).conforms(to: trail))
    }
}

@Suite struct TimeTests {
    @Test func isoRoundTrip() throws {
        let stamp = try #require(Timestamp(iso8601: "2026-01-01T09:00"))
        #expect(stamp.iso8601 == "2026-01-01T09:00:00Z")
        #expect(Timestamp(iso8601: "2026-01-01T10:00:00+01:00") == stamp)
        #expect(Timestamp(iso8601: "1969-12-31T23:59:59Z")?.secondsSince1970 == -1)
        #expect(Timestamp(iso8601: "2026-02-30") == nil)
        #expect(Timestamp(iso8601: "2026-01-01T25:00") == nil)
    }

    /// Extreme values print without trapping (a conversion to Int would crash past 9.2e18).
    @Test func extremeValuesDoNotCrash() {
        #expect(Timestamp(secondsSince1970: 1e19).iso8601 == "@1e+19s")
        #expect(Timestamp(secondsSince1970: -.infinity).iso8601 == "@invalid")
        #expect(Timestamp(secondsSince1970: 253_402_300_799).iso8601 == "9999-12-31T23:59:59Z")
        #expect(TimeSpan(seconds: 1e30).description == "1e+30s")
        #expect(TimeSpan("99999999999999999999999w")?.description.hasSuffix("s") == true)
        #expect(TimeSpan(String(repeating: "9", count: 400)) == nil)  // overflows to infinity: not a duration
    }

    @Test func spans() {
        #expect(TimeSpan("5d")?.seconds == 432_000)
        #expect(TimeSpan("90")?.seconds == 90)
        #expect(TimeSpan("1.5h")?.seconds == 5400)
        #expect(TimeSpan("5x") == nil)
        #expect(TimeSpan("-1m") == nil)
        #expect(TimeSpan(seconds: 432_000).description == "5d")
        #expect(TimeSpan(seconds: 5400).description == "90m")
    }
}

/// The eight-bytes-at-once tests say exactly whether a word holds such a byte, whatever its position.
@Suite struct WordBytesTests {
    @Test func everyByteValueIsFoundInEveryPositionOfAWord() {
        for byte in UInt8(0)...UInt8(255) {
            let special = byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            for position in 0..<8 {
                var word = UInt64(0x6161_6161_6161_6161)  // "aaaaaaaa"
                word &= ~(UInt64(0xFF) << (8 * UInt64(position)))
                word |= UInt64(byte) << (8 * UInt64(position))
                #expect(WordBytes.hasJSONSpecial(word) == special, "byte \(byte) at \(position)")
                #expect((WordBytes.equal(word, 0xE2) != 0) == (byte == 0xE2), "byte \(byte) at \(position)")
                #expect((WordBytes.below(word, 0x20) != 0) == (byte < 0x20), "byte \(byte) at \(position)")
            }
            #expect(WordBytes.hasJSONSpecial(UInt64(byte) &* WordBytes.ones) == special, "byte \(byte) everywhere")
        }
    }

    /// `firstIndex(of:in:from:)` finds a byte at every offset of buffers of every length up to 40, from every start.
    @Test func firstIndexAgreesWithAByteByByteSearch() {
        for length in 0...40 {
            for target in [nil] + Array(0..<length) {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                if let target { bytes[target] = UInt8(ascii: "%") }
                bytes.withUnsafeBufferPointer { buffer in
                    for start in 0...length {
                        let expected = bytes[start...].firstIndex(of: UInt8(ascii: "%")) ?? length
                        #expect(WordBytes.firstIndex(of: UInt8(ascii: "%"), in: buffer, from: start) == expected,
                                "length \(length), target \(String(describing: target)), start \(start)")
                    }
                }
            }
        }
    }
}

@Suite struct TextHelperTests {
    /// Path components split in place agree with `split(omittingEmptySubsequences: false)`, and stop when asked.
    @Test(arguments: ["", "a", "trail.region", "a..b", "a.", ".a", "..", "é.日本.x", "one.two.three.four"])
    func pathComponentsAgreeWithSplit(_ path: String) {
        var names: [String] = []
        path.forEachPathComponent { names.append(String($0)); return true }
        #expect(names == path.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
        var first: [String] = []
        path.forEachPathComponent { first.append(String($0)); return false }
        #expect(first == Array(names.prefix(1)))
    }

    /// The fast path (neither end is whitespace) and the slow one agree with trimming by characters.
    @Test(arguments: ["", " ", "a", " a", "a ", "\ta b\n", "\r\n", "x\r\n", " \u{301}a", "日本 "])
    func trimmingWhitespaceTrimsSpacesTabsAndNewlines(_ text: String) {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let expected = String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        #expect(text.trimmingWhitespace() == expected)
    }
}

@Suite struct WriteBackTests {
    /// A file just written (its pages dirty in the page cache) has its writing started, its bytes unchanged; a
    /// path that is not there is refused, not an error.
    @Test func startsWritingBackAWrittenFileAndRefusesAMissingOne() throws {
        let path = FileManager.default.temporaryDirectory.path + "/tipcat-writeback-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(WriteBack.startNow(path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
        #expect(!WriteBack.startNow(path + "-missing"))
    }
}
