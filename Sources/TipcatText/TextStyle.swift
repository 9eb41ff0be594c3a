/// How a span of terminal text looks: colors and attributes.
public struct TextStyle: Sendable, Hashable {
    /// Text color; nil keeps the terminal's.
    public var foreground: Color?
    /// Background color; nil keeps the terminal's.
    public var background: Color?
    /// SGR 1.
    public var bold: Bool
    /// SGR 2 (faint).
    public var dim: Bool
    /// SGR 3.
    public var italic: Bool
    /// SGR 4.
    public var underline: Bool

    /// A style; every part is optional.
    public init(
        foreground: Color? = nil,
        background: Color? = nil,
        bold: Bool = false,
        dim: Bool = false,
        italic: Bool = false,
        underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.italic = italic
        self.underline = underline
    }

    /// No colors, no attributes.
    public static let plain = TextStyle()

    /// The SGR parameters (`1;38;5;208`) that select this style at `depth`; empty when there is nothing to emit.
    public func parameters(depth: ColorDepth) -> String {
        guard depth != .none else { return "" }
        var parameters = ""
        func add(_ code: String) {
            if !parameters.isEmpty { parameters += ";" }
            parameters += code
        }
        if bold { add("1") }
        if dim { add("2") }
        if italic { add("3") }
        if underline { add("4") }
        if let color = foreground?.downsampled(to: depth) { add(Self.code(color, background: false)) }
        if let color = background?.downsampled(to: depth) { add(Self.code(color, background: true)) }
        return parameters
    }

    private static func code(_ color: Color, background: Bool) -> String {
        switch color {
        case .named(let named):
            let value = Int(named.rawValue)
            let base = value < 8 ? (background ? 40 : 30) : (background ? 100 : 90)
            return String(base + value % 8)
        case .indexed(let index):
            return (background ? "48;5;" : "38;5;") + String(index)
        case .rgb(let red, let green, let blue):
            return (background ? "48;2;" : "38;2;") + "\(red);\(green);\(blue)"
        }
    }
}
