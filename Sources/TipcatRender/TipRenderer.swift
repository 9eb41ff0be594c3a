public import TipcatCatalog
@_spi(Tipcat) import TipcatCore
public import TipcatTemplates
public import TipcatText

/// How to render: the width to fit and the colours the terminal supports.
public struct RenderSettings: Sendable, Hashable {
    /// Display columns available (at least 1).
    public var width: Int
    /// `.none` for no escape sequences at all (pipes, NO_COLOR, --color never).
    public var colorDepth: ColorDepth
    /// Whether links in texts may be OSC 8 hyperlinks (`Terminal.hyperlinks`); only with colour.
    public var hyperlinks: Bool

    public init(width: Int = 80, colorDepth: ColorDepth = .none, hyperlinks: Bool = false) {
        self.width = max(1, width)
        self.colorDepth = colorDepth
        self.hyperlinks = hyperlinks && colorDepth != .none
    }
}

/// Renders resolved tips with one style.
///
/// Every value (catalog text, translations, parameters) passes through the style's escaper while the render
/// context is built, so nothing a content writer or a caller supplies reaches the output unescaped — not even
/// through `{{{triple}}}` tags. Layout comes from native lambdas (`wrap`, `card`, `role.*`), never from values.
public struct TipRenderer: Sendable {
    public let style: Style
    public let settings: RenderSettings
    /// The parts of the context that do not depend on the tip (layout lambdas, width, colour), built once.
    private let shared: SharedContext
    private let escape: @Sendable (String) -> String
    /// How the tip's texts (title, message, action titles), which are inline Markdown, are shown.
    public let inline: InlineRendering

    public init(style: Style, settings: RenderSettings) {
        self.style = style
        self.settings = settings
        self.escape = Self.escaper(for: style.manifest.escaper)
        self.inline = Self.inlineRendering(style.manifest, settings)
        self.shared = SharedContext(
            width: .int(settings.width),
            color: .bool(settings.colorDepth != .none),
            style: .string(style.name),
            wrap: Self.wrapLambda(settings),
            card: Self.cardLambda(settings),
            role: .object(Role.allCases.reduce(into: [:]) { $0[$1.rawValue] = Self.roleLambda($1, settings) })
        )
    }

    public func render(_ tip: ResolvedTip) throws(TemplateError) -> String {
        try style.template.render(context(for: tip), partials: style.partials, options: .strict(escaper: NoEscaper()))
    }

    /// The render context: every variable a template sees (documented in the README).
    ///
    /// An object that computes (and escapes) each field when a template reads it, so a render pays only for the
    /// fields its template uses.
    public func context(for tip: ResolvedTip) -> TemplateValue {
        .computed(TipContext(tip: tip, shared: shared, escape: escape, inline: inline))
    }

    /// Markdown styles keep the markup, HTML styles turn it into tags, ANSI output into attributes; other
    /// terminal output shows the visible text.
    static func inlineRendering(_ manifest: StyleManifest, _ settings: RenderSettings) -> InlineRendering {
        switch manifest.escaper {
        case .markdown: .markdown
        case .html: .html
        case .terminal: manifest.output == .ansi ? .ansi(settings.colorDepth, hyperlinks: settings.hyperlinks) : .plain
        }
    }

    // MARK: Escaping

    private static func escaper(for name: StyleManifest.EscaperName) -> @Sendable (String) -> String {
        switch name {
        case .terminal: { Sanitizer.terminalSafe($0) }
        case .markdown: { Sanitizer.markdownLiteral($0) }
        case .html: { HTMLEscaper().escape(Sanitizer.terminalSafe($0)) }
        }
    }

    static func templateValue(_ value: Value, escape: @Sendable (String) -> String) -> TemplateValue {
        switch value {
        case .record(let fields): .object(fields.mapValues { templateValue($0, escape: escape) })
        case .list(let items), .set(let items): .array(items.map { templateValue($0, escape: escape) })
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        default: .string(escape(value.displayText))
        }
    }

    // MARK: Lambdas

    /// Colour roles a style can use: `{{#role.title}}…{{/role.title}}`.
    public enum Role: String, CaseIterable, Sendable {
        case title, message, icon, button, border, dim

        var textStyle: TextStyle {
            switch self {
            case .title: TextStyle(bold: true)
            case .message: TextStyle()
            case .icon: TextStyle(foreground: .named(.cyan), bold: true)
            case .button: TextStyle(foreground: .named(.brightWhite), background: .named(.blue), bold: true)
            case .border: TextStyle(foreground: .named(.brightBlack))
            case .dim: TextStyle(dim: true)
            }
        }
    }

    private static func roleLambda(_ role: Role, _ settings: RenderSettings) -> TemplateValue {
        let depth = settings.colorDepth
        return .sectionFilter { section in ANSI.apply(role.textStyle, to: section, depth: depth) }
    }

    /// `{{#wrap}}…{{/wrap}}`: the section, wrapped to the width.
    private static func wrapLambda(_ settings: RenderSettings) -> TemplateValue {
        let width = settings.width
        return .sectionFilter { section in
            TextWrapper.fitsUnchanged(section, width: width) ? section : Card.wrapJoined(section, width: width)
        }
    }

    /// `{{#card}}…{{/card}}`: the section in a rounded box that fits the width (at most 72 columns).
    private static func cardLambda(_ settings: RenderSettings) -> TemplateValue {
        let width = min(settings.width, Card.maximumWidth)
        let border = Role.border.textStyle
        let depth = settings.colorDepth
        let frame = Card.Frame(width: width) { ANSI.apply(border, to: $0, depth: depth) }
        return .sectionFilter { section in Card.draw(section, width: width, frame: frame) }
    }
}

/// Wrapping and boxing that keep ANSI styles intact across line breaks.
enum Card {
    static let maximumWidth = 72
    /// Below this width a card is drawn without its border.
    static let minimumBoxedWidth = 10

    /// Every line of `text` wrapped to `width`, styles closed and reopened at line ends; the lines joined by newlines.
    static func wrapJoined(_ text: String, width: Int) -> String {
        if let plain = TextWrapper.plainWrapJoined(text, width: width) { return plain }
        let lines = TextWrapper.wrap(text, width: width)
        return (ANSI.containsEscape(text) ? reflowStyles(lines) : lines).joined(separator: "\n")
    }

    /// `wrapJoined`'s lines, not joined, with each line's display width (styles are zero columns).
    static func wrapMeasured(_ text: String, width: Int) -> (lines: [String], widths: [Int]) {
        let (lines, widths) = TextWrapper.wrapMeasured(text, width: width)
        return (ANSI.containsEscape(text) ? reflowStyles(lines) : lines, widths)
    }

    /// A card's fixed parts for one width and border style, built once per renderer.
    struct Frame: Sendable {
        /// Columns inside the border and its padding; 0 for a card drawn without a border.
        let inner: Int
        let top: String
        let bottom: String
        let left: String
        let right: String
        /// `inner` spaces, sliced for padding.
        let spaces: String

        init(width: Int, border: (String) -> String) {
            guard width >= Card.minimumBoxedWidth else {
                (inner, top, bottom, left, right, spaces) = (0, "", "", "", "", "")
                return
            }
            inner = width - 4
            let rule = String(repeating: "─", count: width - 2)
            top = border("╭" + rule + "╮") + "\n"
            bottom = border("╰" + rule + "╯") + "\n"
            left = border("│") + " "
            right = " " + border("│") + "\n"
            spaces = String(repeating: " ", count: inner)
        }

        var isBoxed: Bool { inner > 0 }
    }

    /// `content` in `frame`; `width` is the frame's width (used only when the card is too narrow for a border).
    static func draw(_ content: String, width: Int, frame: Frame) -> String {
        // A section lambda receives the newline after a standalone `{{#card}}` tag: blank edges are not content.
        let utf8 = content.utf8
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start != end, utf8[start] == UInt8(ascii: "\n") { start = utf8.index(after: start) }
        while end != start, utf8[utf8.index(before: end)] == UInt8(ascii: "\n") { end = utf8.index(before: end) }
        let text = String(Substring(utf8[start..<end]))
        guard frame.isBoxed else { return wrapJoined(text, width: width) + "\n" }
        let (lines, widths) = wrapMeasured(text, width: frame.inner)
        var out = frame.top
        out.reserveCapacity(frame.top.utf8.count * (lines.count + 2) + text.utf8.count)
        for (line, width) in zip(lines, widths) {
            out += frame.left
            out += line
            let missing = frame.inner - width
            if missing > 0 { out += Substring(frame.spaces.utf8.prefix(missing)) }
            out += frame.right
        }
        out += frame.bottom
        return out
    }

    /// After wrapping, a style opened on one line is closed at its end and reopened on the next, so a border or
    /// a following line never inherits it; an OSC 8 hyperlink open at a line's end is closed there and reopened
    /// on the next line the same way.
    static func reflowStyles(_ lines: [String]) -> [String] {
        var active: [String] = []
        var link: String?
        return lines.map { line in
            var line = line
            let firstEscape = line.withUTF8 { bytes in WordBytes.firstIndex(of: 0x1B, in: bytes) }
            let escapes = firstEscape < line.utf8.count
            // Most lines of styled text carry no style of their own, and none is open: unchanged.
            if active.isEmpty, link == nil, !escapes { return line }
            let prefix = (link ?? "") + active.joined()
            if escapes { line.withUTF8 { follow($0, from: firstEscape, active: &active, link: &link) } }
            if prefix.isEmpty, active.isEmpty, link == nil { return line }
            var result = prefix
            result.reserveCapacity(prefix.utf8.count + line.utf8.count + ANSI.reset.utf8.count + ANSI.closeHyperlink.utf8.count)
            result += line
            if !active.isEmpty { result += ANSI.reset }
            if link != nil { result += ANSI.closeHyperlink }
            return result
        }
    }

    /// Updates the styles and the hyperlink open after `bytes` (one line), from its SGR and OSC 8 sequences;
    /// `start` is its first escape byte.
    private static func follow(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, active: inout [String], link: inout String?) {
        var index = start
        while index + 1 < bytes.count {
            guard bytes[index] == 0x1B, bytes[index + 1] == UInt8(ascii: "[") || bytes[index + 1] == UInt8(ascii: "]") else {
                index = WordBytes.firstIndex(of: 0x1B, in: bytes, from: index + 1)
                continue
            }
            if bytes[index + 1] == UInt8(ascii: "]") {
                // OSC … ST (ESC \) or BEL; `ESC ] 8 ; params ; URI` opens a link, an empty URI closes it.
                var end = index + 2
                while end < bytes.count, bytes[end] != 0x07, !(bytes[end] == 0x1B && end + 1 < bytes.count && bytes[end + 1] == UInt8(ascii: "\\")) {
                    end += 1
                }
                guard end < bytes.count else { return }
                let terminatorLength = bytes[end] == 0x07 ? 1 : 2
                let body = bytes[(index + 2)..<end]
                if body.starts(with: "8;".utf8) {
                    let uri = body.dropFirst(2).drop { $0 != UInt8(ascii: ";") }.dropFirst()
                    link = uri.isEmpty ? nil : String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<(end + terminatorLength)]), as: UTF8.self)
                }
                index = WordBytes.firstIndex(of: 0x1B, in: bytes, from: end + terminatorLength)
                continue
            }
            var end = index + 2
            while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
            guard end < bytes.count else { return }
            if bytes[end] == UInt8(ascii: "m") {
                let parameters = bytes[(index + 2)..<end]
                if parameters.isEmpty || parameters.elementsEqual("0".utf8) {
                    active.removeAll()
                } else {
                    active.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[index...end]), as: UTF8.self))
                }
            }
            index = WordBytes.firstIndex(of: 0x1B, in: bytes, from: end + 1)
        }
    }
}
