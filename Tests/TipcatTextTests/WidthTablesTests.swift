import Foundation
import Testing
@testable import TipcatText

/// The generated tables against the vendored Unicode data, read here independently of the generator.
@Suite("Width tables")
struct WidthTablesTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/unicode")
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Code points whose property (first field after the range) is one of `values`.
    static func codePoints(in file: String, values: Set<String>) throws -> Set<UInt32> {
        let text = try String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)
        var result = Set<UInt32>()
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let data = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let fields = data.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 2, values.contains(fields[1]) else { continue }
            let bounds = fields[0].components(separatedBy: "..").compactMap { UInt32($0, radix: 16) }
            guard let first = bounds.first, let last = bounds.last else { continue }
            for value in first...last { result.insert(value) }
        }
        return result
    }

    @Test("every Mn, Me and Cf code point is zero columns")
    func zeroWidth() throws {
        let marks = try Self.codePoints(in: "DerivedGeneralCategory.txt", values: ["Mn", "Me", "Cf"])
        #expect(marks.count > 2000)
        let wrong = marks.filter { value in Unicode.Scalar(value).map { DisplayWidth.columns($0) != 0 } ?? false }
        #expect(wrong.isEmpty, "\(wrong.sorted().prefix(5).map { String($0, radix: 16) })")
    }

    @Test("every explicitly W or F code point, and every Emoji_Presentation one, is two columns")
    func wide() throws {
        let wide = try Self.codePoints(in: "EastAsianWidth.txt", values: ["W", "F"])
            .union(Self.codePoints(in: "emoji-data.txt", values: ["Emoji_Presentation"]))
            .subtracting(Self.codePoints(in: "DerivedGeneralCategory.txt", values: ["Mn", "Me", "Cf"]))
        #expect(wide.count > 100_000)
        let wrong = wide.filter { value in Unicode.Scalar(value).map { DisplayWidth.columns($0) != 2 } ?? false }
        #expect(wrong.isEmpty, "\(wrong.sorted().prefix(5).map { String($0, radix: 16) })")
    }

    @Test("Na, H, A and N code points that are neither marks nor emoji are one column")
    func narrow() throws {
        let narrow = try Self.codePoints(in: "EastAsianWidth.txt", values: ["Na", "H", "A", "N"])
            .subtracting(Self.codePoints(in: "DerivedGeneralCategory.txt", values: ["Mn", "Me", "Cf", "Cc"]))
            .subtracting(Self.codePoints(in: "emoji-data.txt", values: ["Emoji_Presentation"]))
        let wrong = narrow.filter { value in Unicode.Scalar(value).map { DisplayWidth.columns($0) != 1 } ?? false }
        #expect(wrong.isEmpty, "\(wrong.sorted().prefix(5).map { String($0, radix: 16) })")
    }

    @Test("every Emoji code point turns two columns with VS16")
    func emojiWithVariationSelector() throws {
        let emoji = try Self.codePoints(in: "emoji-data.txt", values: ["Emoji"])
        for value in emoji.sorted() where value > 0x7F {
            guard let scalar = Unicode.Scalar(value) else { continue }
            var text = String(Character(scalar))
            text.unicodeScalars.append("\u{FE0F}")
            guard text.count == 1, let character = text.first else { continue }
            #expect(DisplayWidth.of(character) == 2, "U+\(String(value, radix: 16, uppercase: true))")
        }
    }

    @Test("the Basic Multilingual Plane's width table says what searching the range tables says, scalar by scalar")
    func basicPlaneTableMatchesTheRanges() {
        var mismatches: [String] = []
        for value in UInt32(0x300)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if DisplayWidth.columns(scalar) != DisplayWidth.tableColumns(value) {
                mismatches.append("U+\(String(value, radix: 16, uppercase: true))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
        // The tables' own edges: a wide, a zero-width and a one-column scalar, and the first scalar past the plane.
        #expect(DisplayWidth.columns("\u{3000}") == 2)
        #expect(DisplayWidth.columns("\u{0301}") == 0)
        #expect(DisplayWidth.columns("\u{0416}") == 1)
        #expect(DisplayWidth.columns("\u{1F600}") == 2)
    }

    @Test("tables are sorted, disjoint pairs")
    func tablesWellFormed() {
        for table in [DisplayWidth.eastAsianWideRanges, DisplayWidth.narrowEmojiPresentationRanges,
                      DisplayWidth.emojiRanges, DisplayWidth.zeroWidthRanges] {
            #expect(table.count % 2 == 0)
            var previous: UInt32?
            for pair in stride(from: 0, to: table.count, by: 2) {
                #expect(table[pair] <= table[pair + 1])
                if let previous { #expect(previous + 1 < table[pair], "ranges must be merged and sorted") }
                previous = table[pair + 1]
            }
        }
    }

    /// `make widths` must be byte-identical: runs the generator built next to this test bundle, when present.
    @Test("regenerating the tables reproduces the committed file byte for byte")
    func regenerationIsIdentical() throws {
        let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [buildDirectory, buildDirectory.deletingLastPathComponent()]
            .map { $0.appendingPathComponent("tipcat-gen-widths") }
        guard let generator = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            // `swift build` builds it; a test-only build may not have. The table checks above still ran.
            return
        }
        let process = Process()
        process.executableURL = generator
        process.arguments = [Self.fixtures.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let generated = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let committed = try Data(contentsOf: Self.packageRoot.appendingPathComponent("Sources/TipcatText/DisplayWidth+Tables.swift"))
        #expect(generated == committed)
    }
}
