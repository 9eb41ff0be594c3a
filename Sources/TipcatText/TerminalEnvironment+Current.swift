#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension TerminalEnvironment {
    /// The variables `Terminal`'s decisions read.
    public static let consultedVariables = [
        "NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "TERM", "COLORTERM", "COLUMNS",
        "FORCE_HYPERLINK", "TERM_PROGRAM", "VTE_VERSION", "WT_SESSION", "KITTY_WINDOW_ID",
    ]

    /// The real environment of file descriptor `fd` (1 for standard output): `isatty`, `TIOCGWINSZ` and the
    /// consulted environment variables. The only impure function of TipcatText; call it once, at the edge.
    public static func current(fd: Int32) -> TerminalEnvironment {
        var variables: [String: String] = [:]
        for name in consultedVariables {
            if let value = getenv(name) { variables[name] = String(cString: value) }
        }
        let isTTY = isatty(fd) == 1
        var columns: Int?
        if isTTY {
            var size = winsize()
            if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { columns = Int(size.ws_col) }
        }
        return TerminalEnvironment(variables: variables, isTTY: isTTY, windowColumns: columns)
    }
}
