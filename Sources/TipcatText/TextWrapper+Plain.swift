@_spi(Tipcat) import TipcatCore

/// The wrapper for plain text, in one pass over its clusters: text of spaces, `\n` and clusters at least one column
/// wide — no escape sequence, no other control, no zero-width cluster — which is nearly every tip text in every
/// language. Such text needs no segments kept: the full wrapper's rules (`TextWrapper.wrap`) come down to a greedy
/// fill that remembers where the line may break last, and give the same lines.
extension TextWrapper {
    /// One line of plain text: its bytes without edge spaces, and its display width.
    struct PlainLine {
        var range: Range<Int>
        var columns: Int
    }

    /// The lines `wrap(text, width:)` gives for `bytes` (the UTF-8 of `text`); nil when the text is not plain (the
    /// full wrapper then decides).
    static func plainLines(_ bytes: UnsafeBufferPointer<UInt8>, of text: String, width: Int) -> [PlainLine]? {
        let width = max(1, width)
        var lines: [PlainLine] = []
        lines.reserveCapacity(4)
        var cursor = TextScanner.Cursor(bytes: bytes, text: text[...])
        var paragraphStart = 0
        while true {
            let paragraphEnd = WordBytes.firstIndex(of: UInt8(ascii: "\n"), in: bytes, from: paragraphStart)
            guard fillPlainParagraph(&cursor, paragraphStart..<paragraphEnd, width: width, into: &lines) else { return nil }
            guard paragraphEnd < bytes.count else { return lines }
            paragraphStart = paragraphEnd + 1
        }
    }

    /// `wrap(text, width:)` joined by newlines: plain text (see `plainLines`) is written into one string as it
    /// is wrapped.
    public static func wrapJoined(_ text: String, width: Int) -> String {
        plainWrapJoined(text, width: width) ?? wrap(text, width: width).joined(separator: "\n")
    }

    /// `wrapJoined` for plain text; nil for other text.
    public static func plainWrapJoined(_ text: String, width: Int) -> String? {
        let width = max(1, width)
        if fitsUnchanged(text, width: width) { return text }
        var contiguous = text
        return contiguous.withUTF8 { bytes -> String? in
            guard let lines = plainLines(bytes, of: text, width: width) else { return nil }
            if lines.count == 1, lines[0].range == 0..<bytes.count { return text }
            // The lines are slices of valid text cut between clusters: appended, not validated again.
            var joined = ""
            joined.reserveCapacity(lines.reduce(lines.count - 1) { $0 + $1.range.count })
            let utf8 = text.utf8
            for (index, line) in lines.enumerated() {
                if index > 0 { joined += "\n" }
                let start = utf8.index(utf8.startIndex, offsetBy: line.range.lowerBound)
                joined += Substring(utf8[start..<utf8.index(start, offsetBy: line.range.count)])
            }
            return joined
        }
    }

    /// `wrap` for plain text: its lines and their display widths; nil when the text is not plain.
    static func plainLines(_ text: String, width: Int) -> (lines: [String], widths: [Int])? {
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            guard let lines = plainLines(bytes, of: text, width: width) else { return nil }
            let widths = lines.map(\.columns)
            if lines.count == 1, lines[0].range == 0..<bytes.count { return ([text], widths) }
            return (lines.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0.range]), as: UTF8.self) }, widths)
        }
    }

    /// Fills the lines of one paragraph (no `\n` inside) as `Wrapper.wrapParagraph` does; false when it holds anything
    /// but spaces and visible clusters (some lines may then have been added: the caller drops them all).
    private static func fillPlainParagraph(
        _ cursor: inout TextScanner.Cursor, _ paragraph: Range<Int>, width: Int, into lines: inout [PlainLine]
    ) -> Bool {
        let bytes = cursor.bytes
        var lineStart = paragraph.lowerBound
        var isFirstLine = true
        while true {
            var line = LineFill(start: lineStart, keepsIndentation: isFirstLine, width: width)
            var index = lineStart
            // Where the last look ahead found a scalar that no grapheme rule joins to its neighbours.
            var simpleAt = -1
            scanning: while index < paragraph.upperBound {
                let byte = bytes[index]
                // An ASCII character that no mark follows is a cluster of its own (CR, the one ASCII byte that
                // joins the next, is a control): read here, not by the scanner.
                if byte < 0x80 {
                    if byte > 0x20, byte < 0x7F {
                        // A run of them without spaces (a word, but for a last character that a mark may join): the
                        // first added as any cluster is, the others at once (no line breaks between them).
                        var runEnd = index + 1
                        while runEnd < paragraph.upperBound, bytes[runEnd] > 0x20, bytes[runEnd] < 0x7F { runEnd += 1 }
                        if runEnd < paragraph.upperBound, bytes[runEnd] >= 0x80 { runEnd -= 1 }
                        if runEnd > index {
                            guard line.fits(start: index, end: index + 1, base: UInt32(byte), columns: 1),
                                  line.fitsNarrowRun(index + 1..<runEnd, lastBase: UInt32(bytes[runEnd - 1]))
                            else { break scanning }
                            index = runEnd
                            continue
                        }
                    } else if byte == UInt8(ascii: " ") {
                        if index + 1 == paragraph.upperBound || bytes[index + 1] < 0x80 {
                            line.space(at: index)
                            index += 1
                            continue
                        }
                    } else {
                        return false  // a control
                    }
                } else {
                    // So is a scalar that no grapheme rule joins to its neighbours (as the scanner decides).
                    let (scalar, length) = TextScanner.decode(bytes, at: index)
                    let next = index + length
                    if TextScanner.isLone(scalar, at: index, next: next, in: bytes, simpleAt: &simpleAt) {
                        let columns = DisplayWidth.columns(ofValue: scalar)
                        guard columns > 0 else { return false }  // a C1 control, the soft hyphen
                        guard line.fits(start: index, end: next, base: scalar, columns: columns) else { break scanning }
                        index = next
                        continue
                    }
                }
                // A simple scalar with combining marks or variation selectors (a decomposed accent, an emoji with
                // VS16), then ASCII, a simple scalar or the end, is one cluster too.
                if let (end, base, columns) = TextScanner.markedCluster(in: bytes, at: index, before: paragraph.upperBound) {
                    guard columns > 0 else { return false }
                    guard line.fits(start: index, end: end, base: base, columns: columns) else { break scanning }
                    index = end
                    continue
                }
                if cursor.index != index { cursor.seek(index) }
                guard let segment = cursor.next() else { break }
                switch segment.kind {
                case .space:
                    line.space(at: segment.start)
                case .cluster where segment.width > 0:
                    guard line.fits(start: segment.start, end: segment.end, base: segment.base, columns: segment.width) else { break scanning }
                case .cluster, .escape, .newline:
                    return false  // a zero-width cluster, a control, an escape sequence, CR LF
                }
                index = segment.end
            }
            let (end, body, columns) = line.finish(paragraphEnd: paragraph.upperBound)
            lines.append(PlainLine(range: body, columns: columns))
            guard line.overflow >= 0 else { return true }
            lineStart = end
            isFirstLine = false
        }
    }

    /// One line being filled greedily: what it holds so far, and where it may break last.
    private struct LineFill {
        let start: Int
        let width: Int
        /// Leading spaces are kept on a paragraph's first line only, and only when they leave room.
        var keepsIndentation: Bool
        var used = 0
        /// Spaces counted since the last visible cluster (a line's trailing spaces are not part of it).
        var trailing = 0
        var hasVisible = false
        /// Where the line's first visible cluster starts and its last one so far ends.
        var firstVisible: Int
        var lastVisibleEnd: Int
        var breakAt = -1
        var columnsAtBreak = 0
        /// Where the cluster that did not fit starts; -1 while everything fits.
        var overflow = -1
        /// The cluster just before (when no space is between): line breaking between two clusters looks at both.
        var previousBase: UInt32 = 0
        var previousColumns = 0

        init(start: Int, keepsIndentation: Bool, width: Int) {
            self.start = start
            self.keepsIndentation = keepsIndentation
            self.width = width
            firstVisible = start
            lastVisibleEnd = start
        }

        @inline(__always)
        mutating func space(at index: Int) {
            if hasVisible {
                if previousColumns > 0 {
                    breakAt = index
                    columnsAtBreak = used
                }
                used += 1
                trailing += 1
            } else if keepsIndentation {
                used += 1
                trailing += 1
            }
            previousColumns = 0
        }

        /// Adds a visible cluster; false (and `overflow` set) when it does not fit on the line.
        @inline(__always)
        mutating func fits(start: Int, end: Int, base: UInt32, columns: Int) -> Bool {
            if !hasVisible, keepsIndentation, used + columns > width {
                keepsIndentation = false
                used = 0
                trailing = 0
            }
            if hasVisible {
                // Only a cluster right after another (no space between) may break before it, and only when one of
                // them is wide (a zero-width space, the other case, is not visible): the one-column pairs of most
                // text are told here without the call.
                if previousColumns == 2 || previousColumns == 1 && columns == 2,
                   LineBreaking.allowsBreak(afterBase: previousBase, columns: previousColumns, beforeBase: base, columns: columns) {
                    breakAt = start
                    columnsAtBreak = used
                }
                if used + columns > width {
                    overflow = start
                    return false
                }
            } else {
                firstVisible = start
            }
            hasVisible = true
            lastVisibleEnd = end
            used += columns
            trailing = 0
            previousBase = base
            previousColumns = columns
            return true
        }

        /// Adds one-column clusters that follow a visible one without a space (ASCII letters, say): no line breaks
        /// between them; false (and `overflow` set at the first that does not fit) when they do not all fit.
        @inline(__always)
        mutating func fitsNarrowRun(_ run: Range<Int>, lastBase: UInt32) -> Bool {
            guard !run.isEmpty else { return true }
            let room = max(0, width - used)
            guard run.count <= room else {
                if room > 0 {
                    used += room
                    lastVisibleEnd = run.lowerBound + room
                    previousColumns = 1
                }
                overflow = run.lowerBound + room
                return false
            }
            used += run.count
            lastVisibleEnd = run.upperBound
            previousBase = lastBase
            previousColumns = 1
            return true
        }

        /// Where the line ends (where the next starts), its text without its edge spaces (leading ones kept with the
        /// indentation), and that text's width. The text ends with the last visible cluster: at the break itself,
        /// which follows one.
        func finish(paragraphEnd: Int) -> (end: Int, body: Range<Int>, columns: Int) {
            let head = keepsIndentation ? start : firstVisible
            if overflow < 0 {
                return hasVisible ? (paragraphEnd, head..<lastVisibleEnd, used - trailing) : (paragraphEnd, start..<start, 0)
            }
            if breakAt >= 0 { return (breakAt, head..<breakAt, columnsAtBreak) }
            return (overflow, head..<overflow, used)  // a word wider than the line, broken between clusters
        }
    }
}
