import TipcatArguments
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
        let parsed: ParsedArguments
        do {
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
        } catch {
            context.stderr.write(error.description.hasSuffix("\n") ? error.description : error.description + "\n")
            return .usage
        }
        do {
            try dispatch(parsed, context: context)
            return .success
        } catch let error as CommandError {
            switch error {
            case .usage(let message, let command):
                context.stderr.line("Error: \(message)")
                context.stderr.line("Usage: \(parser.usage(for: command))")
                context.stderr.line("  See '\(command.joined(separator: " ")) --help' for more information.")
                return .usage
            case .failure(let message):
                context.stderr.line("error: \(message)")
                return .failure
            case .exit(let status):
                return status
            }
        } catch {
            context.stderr.line("internal error: \(error)")
            return .internalError
        }
    }

    static func dispatch(_ arguments: ParsedArguments, context: CommandContext) throws {
        switch arguments.commandPath.dropFirst().first {
        case "validate": try ValidateCommand(arguments: arguments, context: context).run()
        case "list": try ListCommand(arguments: arguments, context: context).run()
        case "init": try InitCommand(arguments: arguments, context: context).run()
        case "render": try RenderCommand(arguments: arguments, context: context).run()
        case "styles": try StylesCommand(arguments: arguments, context: context).run()
        case "template": try TemplateCommand(arguments: arguments, context: context).run()
        case "plural": try PluralCommand(arguments: arguments, context: context).run()
        case "completions": try CompletionsCommand(arguments: arguments, context: context).run()
        case "engine": try EngineCommand(arguments: arguments, context: context).run()
        case "generate": try GenerateCommand(arguments: arguments, context: context).run()
        case "plugins": try PluginsCommand(arguments: arguments, context: context).run()
        case let name? where PublishingCommands.handles(name): try PublishingCommands.run(name, arguments: arguments, context: context)
        default:
            let help = ArgumentParser(root: CommandTree.root).helpText(for: ["tipcat"]) ?? ""
            context.stdout.write(help)
        }
    }
}
