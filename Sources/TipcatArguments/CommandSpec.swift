/// A command or subcommand declared as a value: names, help texts, arguments and nested subcommands.
///
/// Declaring commands as plain values (no property wrappers, no reflection) lets one tree drive parsing,
/// help output and shell completion scripts.
public struct CommandSpec: Sendable, Hashable {
    /// The word that selects this command on the command line (the tool name for the root).
    public var name: String
    /// One-line summary, printed after `OVERVIEW:` and in the parent's `SUBCOMMANDS:` list.
    public var abstract: String
    /// Longer text printed after the abstract, separated by a blank line.
    public var discussion: String
    /// Flags, options and positional arguments, in the order they appear in usage and help.
    public var arguments: [ArgumentSpec]
    /// Nested commands. A command with subcommands prints its help when none is selected.
    public var subcommands: [CommandSpec]
    /// The version string; only the root's is used. When set, `--version` prints it.
    public var version: String?
    /// Example invocations printed under `EXAMPLES:` in help (an extension over ArgumentParser).
    public var examples: [String]
    /// Hidden commands can be run but are not listed in help or completion scripts.
    public var isHidden: Bool

    /// Creates a command; everything but the name is optional.
    public init(
        name: String,
        abstract: String = "",
        discussion: String = "",
        arguments: [ArgumentSpec] = [],
        subcommands: [CommandSpec] = [],
        version: String? = nil,
        examples: [String] = [],
        isHidden: Bool = false
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.subcommands = subcommands
        self.version = version
        self.examples = examples
        self.isHidden = isHidden
    }

    /// The direct subcommand called `name`, if any.
    public func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }
}
