/// A command-line mistake, worded and laid out as swift-argument-parser reports it.
///
/// `description` is the full text to print to standard error:
/// ```
/// Error: Missing value for '--format <format>'
/// Help:  --format <format>  The output format.
/// Usage: tipcat validate [--catalog <dir>] [--format <format>] [--strict]
///   See 'tipcat validate --help' for more information.
/// ```
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problem, without the `Error: ` prefix.
    public var message: String
    /// The `Help:` line's text (`--format <format>  The output format.`), or empty.
    public var argumentHelp: String
    /// The usage synopsis of the command the error belongs to, without the `Usage: ` prefix.
    public var usage: String
    /// The hint line, e.g. `  See 'tipcat validate --help' for more information.`
    public var helpHint: String
    /// The path of the command the error belongs to, from the root.
    public var commandPath: [String]
    /// When no arguments at all were given, ArgumentParser prints the root's full help instead of the
    /// usage and hint lines; this holds that help text in that case.
    public var fullHelp: String?

    /// The exit status ArgumentParser uses for usage errors (`EX_USAGE`).
    public var exitCode: Int32 { 64 }

    /// Creates a usage error.
    public init(
        message: String, argumentHelp: String = "", usage: String, helpHint: String,
        commandPath: [String], fullHelp: String? = nil
    ) {
        self.message = message
        self.argumentHelp = argumentHelp
        self.usage = usage
        self.helpHint = helpHint
        self.commandPath = commandPath
        self.fullHelp = fullHelp
    }

    /// The complete message, ready to print (no trailing newline).
    public var description: String {
        var text = message.isEmpty ? "" : "Error: \(message)\n"
        if !argumentHelp.isEmpty { text += "Help:  \(argumentHelp)\n" }
        if let fullHelp { return text + "\n" + fullHelp }
        if !usage.isEmpty { text += "Usage: \(usage)\n" }
        return text + helpHint
    }
}
