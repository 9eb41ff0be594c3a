/// The outcome of a successful parse: which command runs and the values given to it.
///
/// Values of every command on the path are merged; a subcommand's argument shadows a parent's of the same name.
public struct ParsedArguments: Sendable, Hashable {
    /// The command names from the root down, e.g. `["tipcat", "engine", "donate"]`.
    public var commandPath: [String]
    /// How often each flag was given, by long name.
    public var flagCounts: [String: Int]
    /// Every value given to each option, by long name, in command-line order.
    public var optionValues: [String: [String]]
    /// The values assigned to each positional argument, by name.
    public var positionalValues: [String: [String]]
    /// Default values of the options and positionals on the command path, by name.
    public var defaults: [String: String]

    /// Creates parsed arguments directly (useful for tests of code that consumes them).
    public init(
        commandPath: [String],
        flagCounts: [String: Int] = [:],
        optionValues: [String: [String]] = [:],
        positionalValues: [String: [String]] = [:],
        defaults: [String: String] = [:]
    ) {
        self.commandPath = commandPath
        self.flagCounts = flagCounts
        self.optionValues = optionValues
        self.positionalValues = positionalValues
        self.defaults = defaults
    }

    /// Whether the flag `--long` was given at least once.
    public func flag(_ long: String) -> Bool { flagCount(long) > 0 }

    /// How many times the flag `--long` was given (`-vvv` counts 3).
    public func flagCount(_ long: String) -> Int { flagCounts[long] ?? 0 }

    /// The option's value: the last occurrence wins; the default when absent.
    public func value(_ long: String) -> String? {
        if let last = optionValues[long]?.last { return last }
        if let first = positionalValues[long]?.first { return first }
        return defaults[long]
    }

    /// Every value of a repeated option or repeating positional; `[default]` when absent and a default exists.
    public func values(_ long: String) -> [String] {
        if let given = optionValues[long], !given.isEmpty { return given }
        if let given = positionalValues[long], !given.isEmpty { return given }
        return defaults[long].map { [$0] } ?? []
    }

    /// The positional argument's value; the default when absent.
    public func positional(_ name: String) -> String? {
        positionalValues[name]?.first ?? defaults[name]
    }
}

/// What the caller should do after parsing.
public enum ParseResult: Sendable, Hashable {
    /// Run the command at `commandPath` with these arguments.
    case run(ParsedArguments)
    /// Print this text (help, or a requested completion script) to standard output and exit 0.
    case help(String)
    /// Print this version string and exit 0.
    case version(String)
}
