// tipcat-gen-widths DIR
//
// Reads three Unicode Character Database files from DIR and prints a Swift source file with the range tables
// TipcatText's `DisplayWidth` searches at runtime:
//
//   EastAsianWidth.txt          East_Asian_Width (W and F → two columns)
//   emoji-data.txt              Emoji and Emoji_Presentation (default emoji presentation → two columns;
//                               Emoji + U+FE0F → two columns)
//   DerivedGeneralCategory.txt  General_Category Mn, Me, Cf (→ zero columns)
//
// Every table is a flat, sorted [UInt32] of inclusive (first, last) pairs with adjacent ranges merged.
// The output depends only on the file contents, so regenerating from the same files is byte-identical.

import Foundation

struct GeneratorError: Error, CustomStringConvertible {
    var description: String
}

/// One parsed data line: a code point range and its first property field.
struct Entry {
    var range: ClosedRange<UInt32>
    var value: String
}

/// `XXXX` or `XXXX..YYYY` (hexadecimal) → a range.
func parseRange(_ field: Substring, file: String, line: Int) throws -> ClosedRange<UInt32> {
    let bounds = field.split(separator: ".", omittingEmptySubsequences: true)
    guard (1...2).contains(bounds.count),
          let low = UInt32(bounds[0], radix: 16),
          let high = UInt32(bounds[bounds.count - 1], radix: 16),
          low <= high, high <= 0x10FFFF
    else { throw GeneratorError(description: "\(file):\(line): bad code point range '\(field)'") }
    return low...high
}

/// Parses `range ; value # comment` lines; `# @missing: range; value` lines are returned separately.
func parse(_ text: String, file: String) throws -> (entries: [Entry], missing: [Entry]) {
    var entries: [Entry] = []
    var missing: [Entry] = []
    for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        var line = rawLine[...]
        var isMissing = false
        if line.hasPrefix("# @missing:") {
            line = line.dropFirst("# @missing:".count)
            isMissing = true
        } else if let hash = line.firstIndex(of: "#") {
            line = line[..<hash]
        }
        let fields = line.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count >= 2, !fields[0].isEmpty else { continue }
        let entry = Entry(range: try parseRange(fields[0][...], file: file, line: offset + 1), value: fields[1])
        if isMissing { missing.append(entry) } else { entries.append(entry) }
    }
    return (entries, missing)
}

func read(_ directory: String, _ name: String) throws -> String {
    let path = (directory as NSString).appendingPathComponent(name)
    guard let data = FileManager.default.contents(atPath: path) else {
        throw GeneratorError(description: "cannot read \(path)")
    }
    return String(decoding: data, as: UTF8.self)
}

/// The file's own name and version from its first line (`# EastAsianWidth-15.0.0.txt`).
func firstLine(_ text: String) -> String {
    String(text.prefix { $0 != "\n" }.drop { $0 == "#" || $0 == " " })
}

/// Sorted, merged ranges of the code points where `member` is true.
func ranges(_ member: [Bool]) -> [ClosedRange<UInt32>] {
    var result: [ClosedRange<UInt32>] = []
    var start: Int?
    for codePoint in 0...member.count {
        let inside = codePoint < member.count && member[codePoint]
        if inside, start == nil { start = codePoint }
        if !inside, let first = start {
            result.append(UInt32(first)...UInt32(codePoint - 1))
            start = nil
        }
    }
    return result
}

func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

func table(_ name: String, _ doc: String, _ ranges: [ClosedRange<UInt32>]) -> String {
    var out = "    /// \(doc)\n"
    out += "    /// \(ranges.count) range\(ranges.count == 1 ? "" : "s") as inclusive (first, last) pairs, sorted.\n"
    out += "    static let \(name): [UInt32] = [\n"
    let perLine = 6
    var index = 0
    while index < ranges.count {
        let chunk = ranges[index..<min(index + perLine, ranges.count)]
        out += "        " + chunk.map { "\(hex($0.lowerBound)), \(hex($0.upperBound))," }.joined(separator: " ") + "\n"
        index += perLine
    }
    out += "    ]\n"
    return out
}

func generate(directory: String) throws -> String {
    let codeSpace = 0x110000
    let eawText = try read(directory, "EastAsianWidth.txt")
    let emojiText = try read(directory, "emoji-data.txt")
    let categoryText = try read(directory, "DerivedGeneralCategory.txt")

    // East_Asian_Width: N everywhere, then the defaults, then the explicit values.
    // EastAsianWidth.txt's header (UAX #11) gives W as the default for unassigned code points in these ranges;
    // files that state them as `@missing` lines are read the same way.
    let eaw = try parse(eawText, file: "EastAsianWidth.txt")
    var eastAsian = [String](repeating: "N", count: codeSpace)
    let documentedWideDefaults: [ClosedRange<UInt32>] = [
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
    for range in documentedWideDefaults {
        for codePoint in range { eastAsian[Int(codePoint)] = "W" }
    }
    for entry in eaw.missing + eaw.entries {
        for codePoint in entry.range { eastAsian[Int(codePoint)] = entry.value }
    }
    let wide = eastAsian.map { $0 == "W" || $0 == "F" }

    let emoji = try parse(emojiText, file: "emoji-data.txt").entries
    var isEmoji = [Bool](repeating: false, count: codeSpace)
    var emojiPresentation = [Bool](repeating: false, count: codeSpace)
    for entry in emoji {
        for codePoint in entry.range {
            switch entry.value {
            case "Emoji": isEmoji[Int(codePoint)] = true
            case "Emoji_Presentation": emojiPresentation[Int(codePoint)] = true
            default: break
            }
        }
    }
    // Emoji_Presentation code points not already wide by East_Asian_Width (regional indicators, a few more).
    var narrowEmojiPresentation = emojiPresentation
    for codePoint in 0..<codeSpace where wide[codePoint] { narrowEmojiPresentation[codePoint] = false }

    let categories = try parse(categoryText, file: "DerivedGeneralCategory.txt").entries
    var zeroWidth = [Bool](repeating: false, count: codeSpace)
    for entry in categories where entry.value == "Mn" || entry.value == "Me" || entry.value == "Cf" {
        for codePoint in entry.range { zeroWidth[Int(codePoint)] = true }
    }

    var out = """
    // generated by tipcat-gen-widths from Unicode Character Database files — do not edit.
    // Regenerate: swift run tipcat-gen-widths Tests/Fixtures/unicode > Sources/TipcatText/DisplayWidth+Tables.swift
    // Sources (Tests/Fixtures/unicode, see its README): \(firstLine(eawText)), \(firstLine(categoryText)),
    //   emoji-data.txt (\(emojiVersion(emojiText))).
    // Unicode data: Copyright © Unicode, Inc.; Unicode License v3 (Unicode-3.0), https://www.unicode.org/license.txt

    extension DisplayWidth {

    """
    out += table(
        "eastAsianWideRanges",
        "East_Asian_Width W or F (unassigned CJK ranges default to W): two columns.",
        ranges(wide)
    )
    out += "\n"
    out += table(
        "narrowEmojiPresentationRanges",
        "Emoji_Presentation code points that East_Asian_Width does not already make wide: two columns.",
        ranges(narrowEmojiPresentation)
    )
    out += "\n"
    out += table(
        "emojiRanges",
        "Emoji=Yes: a base that U+FE0F (VS16) turns into a two-column emoji.",
        ranges(isEmoji)
    )
    out += "\n"
    out += table(
        "zeroWidthRanges",
        "General_Category Mn, Me or Cf (combining marks, format characters, variation selectors): zero columns.",
        ranges(zeroWidth)
    )
    out += "}\n"
    return out
}

/// `Emoji 15.0` from emoji-data.txt's "Used with Emoji Version 15.0" line.
func emojiVersion(_ text: String) -> String {
    for line in text.split(separator: "\n").prefix(20) {
        if let range = line.range(of: "Emoji Version ") {
            return "Emoji " + line[range.upperBound...].prefix { $0 == "." || $0.isNumber }
        }
    }
    return "Emoji version unknown"
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: tipcat-gen-widths DIR  (DIR holds EastAsianWidth.txt, emoji-data.txt, DerivedGeneralCategory.txt)\n".utf8))
    exit(64)
}
do {
    FileHandle.standardOutput.write(Data(try generate(directory: arguments[1]).utf8))
} catch {
    FileHandle.standardError.write(Data("tipcat-gen-widths: \(error)\n".utf8))
    exit(1)
}
