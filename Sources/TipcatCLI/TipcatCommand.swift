import TipcatArguments
public import TipcatCore
#if canImport(Glibc)
import Glibc
#endif

/// The `tipcat` command line: parses arguments, runs a command, maps every error to an exit status.
public enum TipcatCommand {
    /// Entry point of the executable.
    public static func main() -> Never {
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
        let status = run(Array(CommandLine.arguments.dropFirst()), context: context)
        stdout.flush()
        stderr.flush()
        exit(status.rawValue)
    }

    /// Runs one command line in-process (tests call this directly).
    public static func run(_ arguments: [String], context: CommandContext) -> ExitCode {
        let parser = ArgumentParser(root: CommandTree.root)
        if let name = arguments.first, CommandRegistry.root.command(at: [name]) == nil, name != "help",
           let path = ExternalCommands.executable(named: name, environment: context.environment) {
            do {
                return try ExternalCommands.run(path: path, arguments: Array(arguments.dropFirst()), context: context)
            } catch {
                context.stderr.line("error: cannot run \(path): \(error)")
                return .failure
            }
        }
        let parsed: ParsedArguments
        do {
            if arguments.first == "help", arguments.contains("--json") {
                try helpJSON(Array(arguments.dropFirst()), context: context)
                return .success
            }
            switch try parser.parse(arguments) {
            case .help(let text):
                context.stdout.write(text.hasSuffix("\n") ? text : text + "\n")
                return .success
            case .version(let text):
                context.stdout.line(text)
                return .success
            case .run(let arguments):
                parsed = arguments
            }
        } catch let error as UsageError {
            context.stderr.write(error.description.hasSuffix("\n") ? error.description : error.description + "\n")
            return .usage
        } catch {
            return report(error, parser: parser, context: context)
        }
        do {
            try dispatch(parsed, context: context)
            return .success
        } catch {
            return report(error, parser: parser, context: context)
        }
    }

    /// Prints an error from a command and returns the exit status it means.
    static func report(_ error: any Error, parser: ArgumentParser, context: CommandContext) -> ExitCode {
        switch error {
        case CommandError.usage(let message, let command):
            context.stderr.line("Error: \(message)")
            context.stderr.line("Usage: \(parser.usage(for: command))")
            context.stderr.line("  See '\(command.joined(separator: " ")) --help' for more information.")
            return .usage
        case CommandError.failure(let message):
            context.stderr.line("error: \(message)")
            return .failure
        case CommandError.exit(let status):
            return status
        default:
            context.stderr.line("internal error: \(error)")
            return .internalError
        }
    }

    /// Runs the registered command the parser selected; a group without a runner prints its help.
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
        context.stdout.line(CommandTreeJSON.document(for: spec).serialized(pretty: true))
    }
}
