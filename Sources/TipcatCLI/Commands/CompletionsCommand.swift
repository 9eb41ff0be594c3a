import TipcatArguments

/// `tipcat completions bash|zsh|fish`.
struct CompletionsCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let name = arguments.positional("shell") ?? ""
        guard let shell = Shell(rawValue: name) else {
            throw CommandError.usage(
                "unknown shell '\(name)'; choose bash, zsh or fish", command: ["tipcat", "completions"])
        }
        // A script of the command tree's own text, written exactly.
        context.stdout.unfiltered.write(CompletionScript.generate(for: CommandTree.root, shell: shell))
    }
}
