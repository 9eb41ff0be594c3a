import Synchronization
import TipcatArguments
public import TipcatCore
import TipcatText
#if canImport(Glibc)
import Glibc
#endif

/// What the executable knows about its own process: it ends right after one command.
enum ProcessLifetime {
    /// Set by `TipcatCommand.main` (not when tests run commands in-process).
    static let exitsAfterCommand = Atomic<Bool>(false)
    private static let kept = Mutex<[any Sendable]>([])

    /// Keeps `value` alive until the process exits when it exits after this command: freeing a large
    /// structure (the engine over thousands of tips) costs milliseconds the exit makes unnecessary.
    static func keepUntilExit(_ value: any Sendable) {
        guard exitsAfterCommand.load(ordering: .relaxed) else { return }
        kept.withLock { $0.append(value) }
    }
}

/// The `tipcat` command line: parses arguments, runs a command, maps every error to an exit status.
public enum TipcatCommand {
    /// Entry point of the executable.
    public static func main() -> Never {
        PhaseTrace.mark("main")
        FreeMemory.tuneAllocator()
        let stdout = FileOutput(descriptor: STDOUT_FILENO)
        let stderr = FileOutput(descriptor: STDERR_FILENO)
        var environment: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        let context = CommandContext(stdout: stdout, stderr: stderr, environment: environment)
        ProcessLifetime.exitsAfterCommand.store(true, ordering: .relaxed)
        let status = run(Array(CommandLine.arguments.dropFirst()), context: context)
        stdout.flush()
        stderr.flush()
        exit(status.rawValue)
    }

    /// Runs one command line in-process (tests call this directly). Every error ends in `report`, once.
    public static func run(_ arguments: [String], context original: CommandContext) -> ExitCode {
        let parser = ArgumentParser(root: CommandTree.root)
        var commandPath = ["tipcat"]
        // Everything tipcat itself prints is terminal-safe; an external command writes to the terminal directly.
        let context = original.terminalSafe
        do {
            if let name = arguments.first, CommandRegistry.root.command(at: [name]) == nil, name != "help",
               let path = ExternalCommands.executable(named: name, environment: original.environment) {
                return try ExternalCommands.run(path: path, arguments: Array(arguments.dropFirst()), context: original)
            }
            if arguments.first == "help", arguments.contains("--json") {
                commandPath = ["tipcat", "help"]
                try helpJSON(Array(arguments.dropFirst()), context: context)
                return .success
            }
            switch try parser.parse(arguments) {
            case .help(let text):
                context.stdout.write(text.hasSuffix("\n") ? text : text + "\n")
            case .version(let text):
                context.stdout.line(text)
            case .run(let parsed):
                commandPath = parsed.commandPath
                try dispatch(parsed, context: context)
            }
            return .success
        } catch {
            return report(error, commandPath: commandPath, parser: parser, context: context)
        }
    }

    /// The error funnel: prints any error a command throws, once, and returns the exit status it means.
    ///
    /// A parser's `UsageError` prints as swift-argument-parser does, exit 64. A `TipcatError` prints as
    /// `file:line:col: error: message [rule]` (or `error: message`), or as a usage error (`Error:`, the usage of
    /// `commandPath`'s command, a help hint) when its status is `.usage`; an empty message prints nothing. Any
    /// other error is a bug: `internal error: …`, exit 70. Every piece of text passes through
    /// `Sanitizer.terminalSafe` first, since messages quote user input.
    static func report(_ error: any Error, commandPath: [String], parser: ArgumentParser, context: CommandContext) -> ExitCode {
        if let error = error as? UsageError {
            let text = Sanitizer.terminalSafe(error.description)
            context.stderr.write(text.hasSuffix("\n") ? text : text + "\n")
            return .usage
        }
        guard let error = error as? any TipcatError else {
            context.stderr.line("internal error: " + Sanitizer.terminalSafe(String(describing: error)))
            return .internalError
        }
        let message = Sanitizer.terminalSafe(error.message)
        let status = error.exitStatus
        if message.isEmpty { return status }
        if status == .usage {
            var command = commandPath
            if case CommandError.usage(_, let path) = error { command = path }
            context.stderr.line("Error: \(message)")
            context.stderr.line("Usage: \(parser.usage(for: command))")
            context.stderr.line("  See '\(command.joined(separator: " ")) --help' for more information.")
            return status
        }
        var line = ""
        if let location = error.location {
            line += Sanitizer.terminalSafe(location.description) + ": "
        }
        line += "error: " + message
        if let rule = error.ruleID { line += " [" + Sanitizer.terminalSafe(rule) + "]" }
        context.stderr.line(line)
        return status == .success ? .failure : status
    }

    /// Runs the registered command the parser selected (with `context` terminal-safe); a group without a runner
    /// prints its help.
    static func dispatch(_ arguments: ParsedArguments, context: CommandContext) throws {
        guard let command = CommandRegistry.root.command(at: arguments.commandPath.dropFirst()), let run = command.run else {
            let help = ArgumentParser(root: CommandTree.root).helpText(for: arguments.commandPath) ?? ""
            context.stdout.write(help)
            return
        }
        try run(arguments, context)
    }

    /// `tipcat help [COMMAND…] --json`: the tree below the named command as versioned JSON.
    static func helpJSON(_ words: [String], context: CommandContext) throws {
        var spec = CommandTree.root
        var path = ["tipcat"]
        for word in words where !word.hasPrefix("-") {
            guard let next = spec.subcommand(named: word) else {
                let names = spec.subcommands.filter { !$0.isHidden }.map(\.name)
                throw CommandError.usage(
                    "'\(path.joined(separator: " ")) \(word)' is not a command" + Suggestions.didYouMean(word, in: names),
                    command: path)
            }
            spec = next
            path.append(word)
        }
        context.stdout.json(CommandTreeJSON.document(for: spec))
    }
}
