/// Writes a fish completion script: a function that finds the subcommand path from the command line,
/// and `complete` lines conditioned on that path.
struct FishCompletion {
    let model: CompletionModel

    func script() -> String {
        let q = ShellQuote.fish
        let function = model.functionName
        let root = q(model.rootName)
        var lines: [String] = []
        lines.append("# Fish completion for \(ShellQuote.oneLine(model.rootName)), generated from its command tree.")
        lines.append("# Install it as ~/.config/fish/completions/\(ShellQuote.oneLine(model.rootName)).fish")
        lines.append("")
        lines.append("# Prints the subcommand path of the command line being completed, e.g. '\(ShellQuote.oneLine(model.rootName)) validate'.")
        lines.append("function \(function)_path")
        lines.append("    set -l words (commandline -opc)")
        lines.append("    set -l path \(root)")
        lines.append("    set -l skip 0")
        lines.append("    for word in $words[2..-1]")
        lines.append("        if test $skip -eq 1")
        lines.append("            set skip 0")
        lines.append("            continue")
        lines.append("        end")
        lines.append("        if test \"$word\" = '--'")
        lines.append("            break")
        lines.append("        end")
        for command in model.commands where !command.valueOptionSpellings.isEmpty {
            let spellings = command.valueOptionSpellings.map(q).joined(separator: " ")
            lines.append("        if test \"$path\" = \(q(command.key)); and contains -- \"$word\" \(spellings)")
            lines.append("            set skip 1")
            lines.append("            continue")
            lines.append("        end")
        }
        for command in model.commands where !command.subcommands.isEmpty {
            let names = command.subcommands.map { q($0.name) }.joined(separator: " ")
            lines.append("        if test \"$path\" = \(q(command.key)); and contains -- \"$word\" \(names)")
            lines.append("            set path \"$path $word\"")
            lines.append("        end")
        }
        lines.append("    end")
        lines.append("    echo $path")
        lines.append("end")
        lines.append("")
        lines.append("# Succeeds when the command line's subcommand path is exactly the argument.")
        lines.append("function \(function)_at")
        lines.append("    test (\(function)_path) = \"$argv[1]\"")
        lines.append("end")
        lines.append("")
        lines.append("# Prints directories and the files with one of the given extensions (all files when none is given).")
        lines.append("function \(function)_files")
        lines.append("    set -l token (commandline -ct)")
        lines.append("    set -l directory (string match -r -- '^.*/' $token)")
        lines.append("    for entry in \"$directory\"*")
        lines.append("        if test -d \"$entry\"")
        lines.append("            echo \"$entry/\"")
        lines.append("        else if test (count $argv) -eq 0")
        lines.append("            echo \"$entry\"")
        lines.append("        else")
        lines.append("            for ext in $argv")
        lines.append("                if string match -q -- \"*.$ext\" \"$entry\"")
        lines.append("                    echo \"$entry\"")
        lines.append("                    break")
        lines.append("                end")
        lines.append("            end")
        lines.append("        end")
        lines.append("    end")
        lines.append("end")
        lines.append("")
        lines.append("complete -c \(root) -f")
        for command in model.commands {
            let condition = "-n " + q("\(function)_at \(q(command.key))")
            for sub in command.subcommands {
                lines.append("complete -c \(root) \(condition) -f -a \(q(sub.name)) -d \(q(ShellQuote.oneLine(sub.abstract)))")
            }
            for option in command.options {
                var line = "complete -c \(root) \(condition) -l \(q(option.long))"
                if let short = option.short { line += " -s \(q(String(short)))" }
                if !option.help.isEmpty { line += " -d \(q(ShellQuote.oneLine(option.help)))" }
                if option.takesValue { line += " -r " + arguments(option.completion) }
                lines.append(line)
            }
            for positional in command.positionals {
                let completion = arguments(positional.effectiveCompletion)
                if completion != "-f" {
                    lines.append("complete -c \(root) \(condition) \(completion)")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `complete` flags that offer values of one completion kind.
    func arguments(_ kind: CompletionKind) -> String {
        let q = ShellQuote.fish
        switch kind {
        case .none:
            return "-f"
        case .file(let extensions):
            let safe = CompletionModel.safeExtensions(extensions).map(q).joined(separator: " ")
            return "-f -a \(q("(\(model.functionName)_files" + (safe.isEmpty ? "" : " " + safe) + ")"))"
        case .directory:
            return "-f -a \(q("(__fish_complete_directories)"))"
        case .list(let words):
            return "-f -a \(q(words.map { q(ShellQuote.oneLine($0)) }.joined(separator: " ")))"
        case .shellCommand(let command):
            return "-f -a \(q("(sh -c \(q(command)) 2>/dev/null)"))"
        }
    }
}
