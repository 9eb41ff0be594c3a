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
        context.stdout.write(CompletionScript.generate(for: CommandTree.root, shell: shell))
    }
}
