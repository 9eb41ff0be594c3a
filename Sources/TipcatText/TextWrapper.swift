@_spi(Tipcat) import TipcatCore

/// Wraps, pads and truncates text by terminal display width.
public enum TextWrapper {
    /// Greedy word wrap of `text` into lines at most `width` columns wide (a `width` below 1 counts as 1).
    ///
    /// - Lines break at spaces (U+0020; the spaces at a break are dropped) and, in text without spaces, between
    ///   two clusters when either is two columns wide (CJK, emoji), keeping closing punctuation such as 、。」）off
    ///   the start of a line and opening brackets off its end (`LineBreaking`).
    /// - A word wider than the line is broken between grapheme clusters.
    /// - Grapheme clusters (ZWJ emoji, flags, combining sequences) and escape sequences are never split; an escape
    ///   sequence at a break moves to the next line with the text that follows it, or stays at the end of the line
    ///   when only spaces follow it.
    /// - Existing newlines (`\n`, `\r\n`) are kept as line boundaries: `"a\n\nb"` → `["a", "", "b"]`, `""` → `[""]`.
    /// - No line ends with a space; a paragraph's leading spaces are kept on its first line only, and only when they
    ///   leave room for its first cluster.
    /// - Right-to-left text stays in logical order.
    ///
    /// The only line that can be wider than `width` holds a single cluster wider than `width` (a two-column
    /// character when `width` is 1). Other controls (tab included) count as zero columns: sanitize first.
    public static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        if fitsUnchanged(text, width: width) { return [text] }
        if let lines = linesThatFitUnchanged(text, width: width) { return lines }
        if let plain = plainLines(text, width: width) { return plain.lines }
        return wrapWithoutFastPaths(text, width: width)
    }

    /// `wrap`, with each line's display width (`DisplayWidth.of(line)`), as the wrapper counted it while filling
    /// the line — for callers that pad lines to a width, without measuring each line again.
    public static func wrapMeasured(_ text: String, width: Int) -> (lines: [String], widths: [Int]) {
        let width = max(1, width)
        if fitsUnchanged(text, width: width) { return ([text], [DisplayWidth.of(text)]) }
        if let lines = linesThatFitUnchanged(text, width: width) { return (lines, lines.map { DisplayWidth.of($0) }) }
        if let plain = plainLines(text, width: width) { return plain }
        let wrapper = wrapper(text, width: width)
        return (wrapper.lines, wrapper.widths)
    }

    /// The full wrapper, segment by segment (what the fast paths must agree with).
    static func wrapWithoutFastPaths(_ text: String, width: Int) -> [String] {
        wrapper(text, width: width).lines
    }

    private static func wrapper(_ text: String, width: Int) -> Wrapper {
        let width = max(1, width)
        var contiguous = text
        // At most one segment a byte, written in place (no per-append capacity or uniqueness checks).
        let segments = contiguous.withUTF8 { bytes in
            [TextSegment](unsafeUninitializedCapacity: bytes.count) { buffer, count in
                var cursor = TextScanner.Cursor(bytes: bytes, text: text[...])
                var previousCluster: TextSegment?
                while var segment = cursor.next(), count < buffer.count {
                    switch segment.kind {
                    case .cluster:
                        if let previous = previousCluster,
                           LineBreaking.allowsBreak(afterBase: previous.base, columns: previous.width, beforeBase: segment.base, columns: segment.width) {
                            segment.breakBefore = true
                        }
                        previousCluster = segment
                    case .space, .newline:
                        previousCluster = nil
                    case .escape:
                        break
                    }
                    buffer.initializeElement(at: count, to: segment)
                    count += 1
                }
            }
        }
        var wrapper = Wrapper(text: text, segments: segments, width: width)
        var paragraphStart = 0
        for index in 0...segments.count where index == segments.count || segments[index].kind == .newline {
            wrapper.wrapParagraph(paragraphStart..<index)
            paragraphStart = index + 1
        }
        return wrapper
    }

    /// Fast path for several lines: when every line of `text` (split at `\n`) is empty or fits unchanged, those
    /// lines are the wrap (paragraphs wrap independently); `nil` when any line needs the full wrapper.
    static func linesThatFitUnchanged(_ text: String, width: Int) -> [String]? {
        // The lines' lengths are checked first, newlines found eight bytes at a time: long translations, which
        // do not fit, are the common case here, and are refused before any line is made into a string.
        var contiguous = text
        return contiguous.withUTF8 { bytes -> [String]? in
            var ranges: [Range<Int>] = []
            var start = 0
            while true {
                let end = WordBytes.firstIndex(of: UInt8(ascii: "\n"), in: bytes, from: start)
                guard end - start <= width else { return nil }
                ranges.append(start..<end)
                guard end < bytes.count else { break }
                start = end + 1
            }
            var lines: [String] = []
            lines.reserveCapacity(ranges.count)
            for range in ranges {
                let line = ranges.count == 1 ? text : String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                guard line.isEmpty || fitsUnchanged(line, width: width) else { return nil }
                lines.append(line)
            }
            return lines
        }
    }

    /// Fast path: text no longer in UTF-8 bytes than `width` cannot be wider than `width` (every character takes
    /// at least as many bytes as columns), so a line without breaks, escapes, controls or edge spaces is
    /// already wrapped. It must end in a visible ASCII character: a line that ends in a zero-width cluster (a bidi
    /// mark, say) after spaces loses those spaces.
    ///
    /// `wrap` returns `[text]` for such text; callers that would then look for escape sequences or controls can
    /// skip that too: text that fits unchanged has none.
    public static func fitsUnchanged(_ text: String, width: Int) -> Bool {
        let utf8 = text.utf8
        guard utf8.count <= width, let first = utf8.first, let last = utf8.last,
              first != UInt8(ascii: " "), last > 0x20, last < 0x7F
        else { return false }
        // 0xC2 leads C1 controls (U+0080–U+009F).
        func isControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F || byte == 0xC2 }
        func hasControl(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let start = PrintableASCII.prefixLength(bytes)
            return start < bytes.count && UnsafeBufferPointer(rebasing: bytes[start...]).contains(where: isControl)
        }
        return !(utf8.withContiguousStorageIfAvailable(hasControl) ?? utf8.contains(where: isControl))
    }
}

/// The greedy line filler over pre-scanned segments.
private struct Wrapper {
    let text: String
    let segments: [TextSegment]
    let width: Int
    var lines: [String] = []
    /// Each line's display width.
    var widths: [Int] = []

    init(text: String, segments: [TextSegment], width: Int) {
        self.text = text
        self.segments = segments
        self.width = width
        lines.reserveCapacity(8)
        widths.reserveCapacity(8)
    }

    mutating func wrapParagraph(_ paragraph: Range<Int>) {
        var lineStart = paragraph.lowerBound
        var isFirstLine = true
        while true {
            var used = 0
            var keepsIndentation = isFirstLine
            var hasVisible = false
            var breakAt = -1
            var overflow = -1
            var index = lineStart
            scanning: while index < paragraph.upperBound {
                let segment = segments[index]
                switch segment.kind {
                case .space:
                    if hasVisible {
                        if segments[index - 1].kind != .space { breakAt = index }
                        used += 1
                    } else if keepsIndentation {
                        used += 1 // indentation; on later lines leading spaces are dropped
                    }
                case .cluster:
                    let columns = segment.width
                    if columns > 0 {
                        if !hasVisible, keepsIndentation, used + columns > width {
                            keepsIndentation = false // the indentation alone leaves no room: drop it
                            used = 0
                        }
                        if hasVisible {
                            if segment.breakBefore { breakAt = escapesStart(before: index) }
                            if used + columns > width {
                                overflow = index
                                break scanning
                            }
                        }
                        hasVisible = true
                    }
                    used += columns
                case .escape, .newline:
                    break
                }
                index += 1
            }
            guard overflow >= 0 else {
                emit(lineStart..<paragraph.upperBound, keepLeadingSpaces: keepsIndentation)
                return
            }
            let end = breakAt >= 0 ? breakAt : escapesStart(before: overflow)
            emit(lineStart..<end, keepLeadingSpaces: keepsIndentation)
            lineStart = end
            isFirstLine = false
        }
    }

    /// The index of the first of the escape segments directly before `index` (or `index` itself).
    private func escapesStart(before index: Int) -> Int {
        var start = index
        while start > 0, segments[start - 1].kind == .escape { start -= 1 }
        return start
    }

    /// Appends the line made of `range`: spaces at its ends dropped; escape sequences and zero-width clusters among
    /// those spaces kept, in order.
    private mutating func emit(_ range: Range<Int>, keepLeadingSpaces: Bool) {
        var head = range.lowerBound
        if !keepLeadingSpaces {
            while head < range.upperBound, !isVisible(segments[head]) { head += 1 }
        }
        var tail = range.upperBound
        while tail > head, !isVisible(segments[tail - 1]) { tail -= 1 }
        let body = head < tail ? slice(segments[head].start, segments[tail - 1].end) : ""
        var columns = 0
        for index in head..<max(head, tail) {
            switch segments[index].kind {
            case .cluster: columns += segments[index].width
            case .space: columns += 1
            case .escape, .newline: break
            }
        }
        widths.append(columns)
        // What the dropped spaces held besides spaces (escapes, zero-width clusters) stays, before and after the body.
        let leading = range.lowerBound..<head
        let trailing = max(head, tail)..<range.upperBound
        let segments = segments
        let keeps = { (index: Int) in segments[index].kind != .space }
        guard leading.contains(where: keeps) || trailing.contains(where: keeps) else {
            lines.append(String(body))
            return
        }
        var line = ""
        for index in leading where keeps(index) { line += slice(segments[index].start, segments[index].end) }
        line += body
        for index in trailing where keeps(index) { line += slice(segments[index].start, segments[index].end) }
        lines.append(line)
    }

    private func isVisible(_ segment: TextSegment) -> Bool {
        segment.kind == .cluster && segment.width > 0
    }

    private func slice(_ start: Int, _ end: Int) -> Substring {
        let utf8 = text.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: start)
        let to = utf8.index(from, offsetBy: end - start)
        return text[from..<to]
    }
}
