/// The spec's whitespace rules.
///
/// A tag is *standalone* when only spaces and tabs stand between it and the start of its line and between
/// it and the end of its line (a `\n`, `\r\n` or the end of the template). A standalone tag takes its whole
/// line with it. Interpolations are never standalone. Sections, inverted sections, comments, delimiter
/// changes and partials follow that rule tag by tag; a standalone partial's leading whitespace becomes the
/// indentation of every line of the partial.
///
/// Parents and blocks (the inheritance spec) need more, because a parent's body is ignored except for its
/// blocks, so tags of one parent pair may share a line:
/// - A parent pair is standalone when its open tag clears to the left and either its open tag or its close
///   tag clears to the right (`  {{<p}}{{/p}}⏎`, or the tags on lines of their own). Its leading whitespace
///   is the parent's indentation; the close tag takes the end of its line.
/// - A block inside a parent body (an argument) that clears to the right starts its content on the next
///   line: that line's leading whitespace is the content's own indentation and is removed from each of its
///   lines. Its close tag takes the whitespace before it when that clears to the left.
/// - A block elsewhere (a parameter with default content) that is standalone expands with the indentation
///   of its content's first line, applied to every line. A block whose open tag only clears to the left
///   keeps the whitespace before it as text and indents the later lines of its content by that whitespace.
extension Parser {
    mutating func applyStandaloneRules() {
        for index in tokens.indices {
            switch tokens[index].kind {
            case .text, .variable, .unescaped:
                continue
            case .comment, .delimiters, .section, .inverted, .partial:
                applyStandardRule(index)
            case .block:
                applyBlockRule(index)
            case .parent:
                applyParentRule(index)
            case .close:
                let opener = tokens[tokens[index].match]
                switch opener.kind {
                case .parent:
                    if let after = lineEndIfClear(tokens[index].end),
                       opener.standalone || lineStartIfClear(tokens[index].start) != nil {
                        removeAfter(index, to: after)
                        tokens[index].standalone = true
                    }
                case .block where opener.inParentBody:
                    if let lineStart = lineStartIfClear(tokens[index].start) {
                        removeBefore(index, from: lineStart)
                        tokens[index].standalone = true
                    }
                default:
                    applyStandardRule(index)
                }
            }
        }
    }

    private mutating func applyStandardRule(_ index: Int) {
        let token = tokens[index]
        guard let lineStart = lineStartIfClear(token.start), let after = lineEndIfClear(token.end) else { return }
        removeBefore(index, from: lineStart)
        removeAfter(index, to: after)
        tokens[index].standalone = true
        if token.kind == .partial { tokens[index].indentation = string(lineStart, token.start) }
    }

    private mutating func applyParentRule(_ index: Int) {
        let token = tokens[index]
        guard let lineStart = lineStartIfClear(token.start),
              lineEndIfClear(token.end) != nil || lineEndIfClear(tokens[token.match].end) != nil
        else { return }
        removeBefore(index, from: lineStart)
        tokens[index].standalone = true
        tokens[index].indentation = string(lineStart, token.start)
    }

    private mutating func applyBlockRule(_ index: Int) {
        let token = tokens[index]
        if token.inParentBody {
            guard let after = lineEndIfClear(token.end) else { return }
            removeAfter(index, to: after)
            tokens[index].standalone = true
            tokens[index].dedent = leadingWhitespace(at: after)
            return
        }
        guard let lineStart = lineStartIfClear(token.start) else {
            tokens[index].indentation = ""
            return
        }
        if let after = lineEndIfClear(token.end) {
            removeBefore(index, from: lineStart)
            removeAfter(index, to: after)
            tokens[index].standalone = true
            let indentation = leadingWhitespace(at: after)
            tokens[index].indentation = indentation
            tokens[index].dedent = indentation
        } else {
            let indentation = string(lineStart, token.start)
            tokens[index].indentation = indentation
            tokens[index].dedent = indentation
        }
    }

    /// The start of the line holding `offset` if only spaces and tabs precede `offset` on it.
    func lineStartIfClear(_ offset: Int) -> Int? {
        var index = offset
        while index > 0 {
            switch bytes[index - 1] {
            case UInt8(ascii: "\n"): return index
            case UInt8(ascii: " "), UInt8(ascii: "\t"): index -= 1
            default: return nil
            }
        }
        return 0
    }

    /// The offset after the line break ending the line at `offset` (or the end of the template) if only
    /// spaces and tabs come before it.
    func lineEndIfClear(_ offset: Int) -> Int? {
        var index = offset
        let count = bytes.count
        while index < count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                index += 1
            case UInt8(ascii: "\n"):
                return index + 1
            case UInt8(ascii: "\r") where index + 1 < count && bytes[index + 1] == UInt8(ascii: "\n"):
                return index + 2
            default:
                return nil
            }
        }
        return count
    }

    func leadingWhitespace(at offset: Int) -> String {
        var end = offset
        while end < bytes.count, bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t") { end += 1 }
        return string(offset, end)
    }

    func isLineStart(_ offset: Int) -> Bool {
        offset == 0 || (offset <= bytes.count && bytes[offset - 1] == UInt8(ascii: "\n"))
    }

    /// Removes the whitespace between `lineStart` and the tag from the text token before the tag.
    private mutating func removeBefore(_ index: Int, from lineStart: Int) {
        tokens[index].leftRemoved = true
        guard index > 0, tokens[index - 1].kind == .text else { return }
        tokens[index - 1].end = max(tokens[index - 1].start, min(tokens[index - 1].end, lineStart))
    }

    /// Removes the rest of the line (through its line break) from the text token after the tag.
    private mutating func removeAfter(_ index: Int, to after: Int) {
        guard index + 1 < tokens.count, tokens[index + 1].kind == .text else { return }
        tokens[index + 1].start = min(tokens[index + 1].end, max(tokens[index + 1].start, after))
    }
}
