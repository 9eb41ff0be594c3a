/// Where `TextWrapper.pad` puts a line inside the wider field.
public enum TextAlignment: String, Sendable, Hashable, CaseIterable {
    /// Text first, spaces after.
    case leading
    /// Spaces on both sides; the odd one on the right.
    case center
    /// Spaces first, text after.
    case trailing
}

extension TextWrapper {
    /// `line` padded with spaces to `width` display columns; unchanged when it is already that wide or wider.
    ///
    /// `.center` puts the odd column, if any, on the right.
    public static func pad(_ line: String, to width: Int, alignment: TextAlignment = .leading) -> String {
        let missing = width - DisplayWidth.of(line)
        guard missing > 0 else { return line }
        switch alignment {
        case .leading:
            return line + String(repeating: " ", count: missing)
        case .trailing:
            return String(repeating: " ", count: missing) + line
        case .center:
            let left = missing / 2
            return String(repeating: " ", count: left) + line + String(repeating: " ", count: missing - left)
        }
    }

    /// `line` cut to at most `width` display columns, ending in `ellipsis` when something was cut.
    ///
    /// Cuts only between grapheme clusters; spaces before the ellipsis are dropped. The ellipsis is left out when it
    /// alone is wider than `width`. Every escape sequence of the removed part is kept (after the ellipsis), so a
    /// closing reset is never lost. A negative `width` counts as 0.
    public static func truncate(_ line: String, to width: Int, ellipsis: String = "…") -> String {
        let width = max(0, width)
        guard DisplayWidth.of(line) > width else { return line }
        let ellipsisWidth = DisplayWidth.of(ellipsis)
        let showsEllipsis = ellipsisWidth <= width
        let budget = showsEllipsis ? width - ellipsisWidth : width
        var contentEnd = 0 // UTF-8 offset just past the last kept cluster other than a space
        var used = 0
        var cut = false
        var escapes: [Range<Int>] = [] // escape sequences after contentEnd, kept or removed
        TextScanner.forEachSegment(in: line[...]) { segment in
            switch segment.kind {
            case .escape:
                escapes.append(segment.start..<segment.end)
            case .space, .newline:
                if !cut, used + segment.width <= budget { used += segment.width } else { cut = true }
            case .cluster:
                if !cut, used + segment.width <= budget {
                    used += segment.width
                    contentEnd = segment.end
                    escapes.removeAll(keepingCapacity: true)
                } else {
                    cut = true
                }
            }
        }
        let utf8 = line.utf8
        func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        var result = String(line[..<index(contentEnd)])
        if showsEllipsis { result += ellipsis }
        for range in escapes { result += line[index(range.lowerBound)..<index(range.upperBound)] }
        return result
    }
}
