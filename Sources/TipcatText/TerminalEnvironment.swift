/// What the output decisions depend on: environment variables, TTY-ness and the window size, passed in.
///
/// Nothing in TipcatText reads the process environment except `TerminalEnvironment.current(fd:)`, which the CLI
/// calls once; tests build values directly.
public struct TerminalEnvironment: Sendable, Hashable {
    /// Environment variables (only `TerminalEnvironment.consultedVariables` are consulted).
    public var variables: [String: String]
    /// Whether the output is a terminal (`isatty`).
    public var isTTY: Bool
    /// The terminal's columns from `TIOCGWINSZ`, when known.
    public var windowColumns: Int?

    /// An environment as given; the defaults describe a pipe with no variables set.
    public init(variables: [String: String] = [:], isTTY: Bool = false, windowColumns: Int? = nil) {
        self.variables = variables
        self.isTTY = isTTY
        self.windowColumns = windowColumns
    }

    /// The variable's value, or nil when it is unset or empty.
    func nonEmpty(_ name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }
}

/// The `--color` option.
public enum ColorChoice: String, Sendable, Hashable, CaseIterable {
    /// Decide from the environment and the TTY (the default).
    case auto
    /// Color even when piped or when `NO_COLOR` is set.
    case always
    /// Never emit escape sequences.
    case never
}

/// How many colors the output may use; ordered from none to 24-bit.
public enum ColorDepth: Int, Sendable, Hashable, CaseIterable, Comparable {
    /// No escape sequences at all.
    case none
    /// The 16 named colors (SGR 30–37, 90–97).
    case ansi16
    /// The xterm 256-color palette (SGR 38;5;n).
    case ansi256
    /// 24-bit color (SGR 38;2;r;g;b).
    case trueColor

    public static func < (lhs: ColorDepth, rhs: ColorDepth) -> Bool { lhs.rawValue < rhs.rawValue }
}
