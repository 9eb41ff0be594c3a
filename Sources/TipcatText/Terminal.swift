/// Output decisions for a terminal: whether and how deeply to color, and how wide to wrap.
public enum Terminal {
    /// Widths larger than this are capped (a huge `--width` or `COLUMNS` would only waste memory on padding).
    public static let maximumWidth = 10_000

    /// The width used when nothing else says: 80 columns.
    public static let defaultWidth = 80

    /// The color depth for `choice` in `environment`.
    ///
    /// Whether to color, first rule that applies: `--color always` / `never`; `NO_COLOR` set and non-empty → no;
    /// `FORCE_COLOR` or `CLICOLOR_FORCE` set, non-empty and not `0` → yes; `TERM=dumb` → no; otherwise only on a
    /// TTY. How deep: `COLORTERM=truecolor` or `24bit` → 24-bit; `TERM` ending in `-256color` → 256 colors; else 16.
    /// `FORCE_COLOR=2` and `FORCE_COLOR=3` raise the depth to at least 256 colors and 24-bit (the supports-color
    /// convention).
    public static func colorDepth(choice: ColorChoice, environment: TerminalEnvironment) -> ColorDepth {
        switch choice {
        case .never:
            return .none
        case .always:
            return depth(environment)
        case .auto:
            if environment.nonEmpty("NO_COLOR") != nil { return .none }
            let forced = [environment.nonEmpty("FORCE_COLOR"), environment.nonEmpty("CLICOLOR_FORCE")]
                .contains { $0 != nil && $0 != "0" }
            if forced { return depth(environment) }
            if environment.variables["TERM"] == "dumb" { return .none }
            return environment.isTTY ? depth(environment) : .none
        }
    }

    /// How many colors the terminal supports, once coloring is decided.
    private static func depth(_ environment: TerminalEnvironment) -> ColorDepth {
        var depth = ColorDepth.ansi16
        if let colorTerm = environment.nonEmpty("COLORTERM")?.lowercased(), colorTerm == "truecolor" || colorTerm == "24bit" {
            depth = .trueColor
        } else if let term = environment.nonEmpty("TERM"), term.hasSuffix("-256color") {
            depth = .ansi256
        }
        switch environment.nonEmpty("FORCE_COLOR") {
        case "2": depth = max(depth, .ansi256)
        case "3": depth = .trueColor
        default: break
        }
        return depth
    }

    /// The line width: `--width` (`option`, when positive) > `COLUMNS` (a positive integer) > the window's columns
    /// (`TIOCGWINSZ`, when positive) > 80, capped at `maximumWidth`.
    public static func width(option: Int?, environment: TerminalEnvironment) -> Int {
        let columnsVariable = environment.nonEmpty("COLUMNS").flatMap { Int($0) }
        let candidates = [option, columnsVariable, environment.windowColumns]
        let chosen = candidates.lazy.compactMap { $0 }.first { $0 > 0 } ?? defaultWidth
        return min(chosen, maximumWidth)
    }
}
