/// Parses command lines against a `CommandSpec` tree with swift-argument-parser's conventions and messages.
///
/// ```swift
/// let parser = ArgumentParser(root: CommandSpec(name: "tipcat", version: "1.0", subcommands: [validate]))
/// switch try parser.parse(["validate", "--format", "json", "Tips"]) {
/// case .run(let arguments): arguments.value("format")   // "json"
/// case .help(let text): print(text)
/// case .version(let version): print(version)
/// }
/// ```
public struct ArgumentParser: Sendable, Hashable {
    /// The command tree.
    public var root: CommandSpec
    /// The column at which help text wraps.
    public var width: Int

    /// Creates a parser for `root`; help text wraps at `width` columns (80, as ArgumentParser without a terminal).
    public init(root: CommandSpec, width: Int = 80) {
        self.root = root
        self.width = width
    }

    /// Parses `arguments` (without the tool name itself).
    ///
    /// Returns `.help` for `-h`/`--help`/`help <subcommand>`, for a command that has subcommands but none was
    /// chosen, and for `--generate-completion-script <shell>`; `.version` for `--version` when the root has one.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParseResult {
        var session = ParseSession(parser: self, words: arguments)
        return try session.run()
    }

    /// The help screen of the command at `path` (with or without the root name first), or nil if no such command.
    public func helpText(for path: [String]) -> String? {
        guard let stack = stack(for: path, lenient: false) else { return nil }
        return renderer.help(stack: stack)
    }

    /// The usage synopsis of the command at `path` (or of the deepest command of `path` that exists).
    public func usage(for path: [String]) -> String {
        renderer.usage(stack: stack(for: path, lenient: true) ?? [root])
    }

    var renderer: HelpRenderer { HelpRenderer(root: root, width: width) }

    /// The commands from the root along `path`. A leading root name is optional.
    /// When `lenient`, unknown names end the walk (as `help <names>` does); otherwise they yield nil.
    func stack(for path: [String], lenient: Bool) -> [CommandSpec]? {
        var names = path[...]
        if names.first == root.name, root.subcommand(named: root.name) == nil {
            names = names.dropFirst()
        }
        var stack = [root]
        for name in names {
            guard let next = stack.last?.subcommand(named: name) else {
                return lenient ? stack : nil
            }
            stack.append(next)
        }
        return stack
    }
}
