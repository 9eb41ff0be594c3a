import TipcatTemplates
public import TipcatText

/// How a style shows a text's inline Markdown (`InlineMarkup`), chosen from its escaper and output.
///
/// Every piece of text passes through the style's escaper: markup is produced here, never taken from values.
public enum InlineRendering: Sendable, Hashable {
    /// The text a reader sees, markup dropped (a link shows its label).
    case plain
    /// Bold, italic, underline and (where the terminal supports them) OSC 8 hyperlinks; at colour depth none
    /// this is `plain`.
    case ansi(ColorDepth, hyperlinks: Bool)
    /// Markdown that renders as the same markup: text escaped, markup re-written, only safe links kept.
    case markdown
    /// HTML: `<strong>`, `<em>`, `<code>`, and `<a href>` for `http`, `https` and `mailto` links only.
    case html

    /// `markup` rendered.
    public func render(_ markup: InlineMarkup) -> String {
        var output = ""
        switch self {
        case .plain:
            output = Sanitizer.terminalSafe(markup.visibleText)
        case .ansi(let depth, let hyperlinks):
            guard depth != .none else { return Sanitizer.terminalSafe(markup.visibleText) }
            var writer = ANSIWriter(hyperlinks: hyperlinks)
            writer.write(markup.nodes, attributes: [])
            writer.finish()
            output = writer.output
        case .markdown:
            Self.markdown(markup.nodes, isStart: true, isEnd: true, into: &output)
            // Delimiters written next to each other can merge into runs that read differently (`*a*` then
            // `**b**`); the result is parsed back, and if it does not read as the markup it came from, the
            // text is written without markup (escaped as it is everywhere).
            if !InlineMarkup.isPlain(output), InlineMarkup.parse(output).nodes != Self.kept(markup.nodes) {
                output = Sanitizer.markdownLiteral(markup.visibleText)
            }
        case .html:
            Self.html(markup.nodes, into: &output)
        }
        return output
    }

    // MARK: Markdown

    /// Writes `nodes` as Markdown. `enclosing` is the delimiter character of the emphasis around them (nil at
    /// the top): an emphasis right next to another one uses the other character (`*` or `_`), so that two
    /// delimiters never merge into one run (`*a*` then `**b**` would otherwise read `*a***b**`).
    private static func markdown(
        _ nodes: [InlineMarkup.Node], isStart: Bool, isEnd: Bool, enclosing: Character? = nil, into output: inout String
    ) {
        var previousDelimiter: Character?
        for (index, node) in nodes.enumerated() {
            let first = isStart && index == 0
            let last = isEnd && index == nodes.count - 1
            var delimiter: Character?
            switch node {
            case .text(let text):
                output += Sanitizer.markdownEscaped(text, isStart: first, isEnd: last)
            case .code(let code):
                output += codeSpan(Sanitizer.terminalSafe(code))
            case .emphasis(let children), .strong(let children):
                let neighbours = [previousDelimiter, index == 0 || index == nodes.count - 1 ? enclosing : nil]
                let character: Character = neighbours.contains("*") && !neighbours.contains("_") ? "_" : "*"
                let run = String(repeating: character, count: node.isStrong ? 2 : 1)
                output += run
                markdown(children, isStart: false, isEnd: false, enclosing: character, into: &output)
                output += run
                delimiter = character
            case .link(let destination, let children):
                guard let safe = safeDestination(destination) else {
                    markdown(children, isStart: first, isEnd: last, enclosing: enclosing, into: &output)
                    continue
                }
                output += "["
                markdown(children, isStart: false, isEnd: false, into: &output)
                output += "](<"
                for character in safe.unicodeScalars {
                    if character == "<" || character == ">" || character == "\\" { output += "\\" }
                    output.unicodeScalars.append(character)
                }
                output += ">)"
            case .image(_, let children):
                markdown(children, isStart: first, isEnd: last, enclosing: enclosing, into: &output)
            }
            previousDelimiter = delimiter
        }
    }

    /// The nodes as the Markdown and HTML outputs keep them: links other than `http`, `https` and `mailto`,
    /// and images, become their label; code spans are one line; adjacent text merged.
    static func kept(_ nodes: [InlineMarkup.Node]) -> [InlineMarkup.Node] {
        var result: [InlineMarkup.Node] = []
        func add(_ node: InlineMarkup.Node) {
            if case .text(let text) = node, case .text(let previous)? = result.last {
                result[result.count - 1] = .text(previous + text)
            } else {
                result.append(node)
            }
        }
        for node in nodes {
            switch node {
            case .text(let text): add(.text(Sanitizer.terminalSafe(text)))
            case .code(let code):
                let flat = Sanitizer.terminalSafe(code).replacingNewlines()
                if !flat.isEmpty { add(.code(flat)) }
            case .emphasis(let children): add(.emphasis(kept(children)))
            case .strong(let children): add(.strong(kept(children)))
            case .link(let destination, let children) where safeDestination(destination) != nil:
                add(.link(destination: destination, kept(children)))
            case .link(_, let children), .image(_, let children):
                for child in kept(children) { add(child) }
            }
        }
        return result
    }

    /// A code span that shows `code` verbatim: a fence longer than any backtick run inside, padded with a space
    /// when the code starts or ends with a backtick or a space (CommonMark strips one from each side).
    static func codeSpan(_ code: String) -> String {
        let flat = code.replacingNewlines()
        guard !flat.isEmpty else { return "" }
        var longest = 0
        var run = 0
        for character in flat.utf8 {
            if character == UInt8(ascii: "`") {
                run += 1
                longest = max(longest, run)
            } else {
                run = 0
            }
        }
        let fence = String(repeating: "`", count: longest + 1)
        // CommonMark strips one space from each side, unless the content is only spaces.
        let allSpaces = flat.utf8.allSatisfy { $0 == UInt8(ascii: " ") }
        let needsPadding = !allSpaces && (flat.hasPrefix("`") || flat.hasSuffix("`") || flat.hasPrefix(" ") || flat.hasSuffix(" "))
        let padding = needsPadding ? " " : ""
        return fence + padding + flat + padding + fence
    }

    /// A destination that may be linked (`http`, `https`, `mailto`), without control characters; nil otherwise.
    static func safeDestination(_ destination: String) -> String? {
        guard InlineMarkup.isSafe(destination: destination),
              destination.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) })
        else { return nil }
        return destination
    }

    // MARK: HTML

    private static func html(_ nodes: [InlineMarkup.Node], into output: inout String) {
        let escaper = HTMLEscaper()
        for node in nodes {
            switch node {
            case .text(let text):
                escaper.escape(Sanitizer.terminalSafe(text), into: &output)
            case .code(let code):
                output += "<code>"
                escaper.escape(Sanitizer.terminalSafe(code), into: &output)
                output += "</code>"
            case .emphasis(let children):
                output += "<em>"
                html(children, into: &output)
                output += "</em>"
            case .strong(let children):
                output += "<strong>"
                html(children, into: &output)
                output += "</strong>"
            case .link(let destination, let children):
                guard let safe = safeDestination(destination) else {
                    html(children, into: &output)
                    continue
                }
                output += "<a href=\""
                escaper.escape(safe, into: &output)
                output += "\">"
                html(children, into: &output)
                output += "</a>"
            case .image(_, let children):
                html(children, into: &output)
            }
        }
    }
}

/// Writes markup as SGR attributes: each change of attributes is a full reset followed by the attributes in
/// force, so a surrounding role style (which `ANSI.apply` re-opens after every full reset) survives.
private struct ANSIWriter {
    struct Attributes: OptionSet {
        let rawValue: Int
        static let bold = Attributes(rawValue: 1)
        static let italic = Attributes(rawValue: 2)
        static let underline = Attributes(rawValue: 4)
        static let code = Attributes(rawValue: 8)
    }

    let hyperlinks: Bool
    var output = ""
    var current: Attributes = []

    init(hyperlinks: Bool) {
        self.hyperlinks = hyperlinks
    }

    mutating func write(_ nodes: [InlineMarkup.Node], attributes: Attributes) {
        for node in nodes {
            switch node {
            case .text(let text): emit(Sanitizer.terminalSafe(text), attributes)
            case .code(let code): emit(Sanitizer.terminalSafe(code), attributes.union(.code))
            case .emphasis(let children): write(children, attributes: attributes.union(.italic))
            case .strong(let children): write(children, attributes: attributes.union(.bold))
            case .image(_, let children): write(children, attributes: attributes)
            case .link(let destination, let children):
                guard let safe = InlineRendering.safeDestination(destination) else {
                    write(children, attributes: attributes)
                    continue
                }
                if hyperlinks {
                    output += ANSI.openHyperlink(safe)
                    write(children, attributes: attributes.union(.underline))
                    switchTo([])
                    output += ANSI.closeHyperlink
                } else {
                    write(children, attributes: attributes.union(.underline))
                    emit(" (" + safe + ")", attributes)
                }
            }
        }
    }

    mutating func emit(_ text: String, _ attributes: Attributes) {
        guard !text.isEmpty else { return }
        switchTo(attributes)
        output += text
    }

    mutating func switchTo(_ attributes: Attributes) {
        guard attributes != current else { return }
        if !current.isEmpty { output += ANSI.reset }
        var codes: [String] = []
        if attributes.contains(.bold) { codes.append("1") }
        if attributes.contains(.italic) { codes.append("3") }
        if attributes.contains(.underline) { codes.append("4") }
        if attributes.contains(.code) { codes.append("36") }
        if !codes.isEmpty { output += "\u{1B}[" + codes.joined(separator: ";") + "m" }
        current = attributes
    }

    mutating func finish() {
        switchTo([])
    }
}

extension InlineMarkup.Node {
    fileprivate var isStrong: Bool {
        if case .strong = self { true } else { false }
    }
}

extension String {
    /// Newlines (LF, CR) as spaces: a code span is one line.
    fileprivate func replacingNewlines() -> String {
        guard utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return self }
        return String(unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : Character($0) })
    }
}
