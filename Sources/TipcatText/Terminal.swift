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

    /// Whether links may be written as OSC 8 hyperlinks, once coloring is decided (`depth`).
    ///
    /// Never without color (so never through `NO_COLOR`, `--color never`, `TERM=dumb` or a pipe unless color is
    /// forced). `FORCE_HYPERLINK` set and non-empty decides first (`0`: no, anything else: yes); otherwise only
    /// terminals known to support them: `TERM_PROGRAM` iTerm.app, WezTerm, vscode, Hyper, ghostty or Tabby;
    /// `VTE_VERSION` 5000 or later (GNOME Terminal and other VTE terminals); `WT_SESSION` (Windows Terminal);
    /// `KITTY_WINDOW_ID`; `TERM` xterm-kitty, xterm-ghostty, foot, alacritty or wezterm.
    public static func hyperlinks(colorDepth depth: ColorDepth, environment: TerminalEnvironment) -> Bool {
        guard depth != .none else { return false }
        if let forced = environment.nonEmpty("FORCE_HYPERLINK") { return forced != "0" }
        if let program = environment.nonEmpty("TERM_PROGRAM"),
           ["iTerm.app", "WezTerm", "vscode", "Hyper", "ghostty", "Tabby"].contains(program) {
            return true
        }
        if let vte = environment.nonEmpty("VTE_VERSION").flatMap({ Int($0) }), vte >= 5000 { return true }
        if environment.nonEmpty("WT_SESSION") != nil || environment.nonEmpty("KITTY_WINDOW_ID") != nil { return true }
        if let term = environment.nonEmpty("TERM") {
            return ["xterm-kitty", "xterm-ghostty", "alacritty", "wezterm"].contains(term) || term.hasPrefix("foot")
        }
        return false
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
