/// Writes a bash completion function: it walks the words before the cursor to find the subcommand,
/// then completes the option value, an option name, a subcommand or a positional.
struct BashCompletion {
    let model: CompletionModel

    func script() -> String {
        let function = model.functionName
        let q = ShellQuote.posix
        var lines: [String] = []
        lines.append("#!/bin/bash")
        lines.append("# Bash completion for \(ShellQuote.oneLine(model.rootName)), generated from its command tree.")
        lines.append("# Load it with `source`, or install it as bash-completion/completions/\(ShellQuote.oneLine(model.rootName)).")
        lines.append("")
        lines.append(contentsOf: helperFunctions(function))
        lines.append("\(function)() {")
        lines.append("    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"\"")
        lines.append("    local cmd=\(q(model.rootName)) word=\"\" skip=0 ended=0 npos=0 i")
        lines.append("    COMPREPLY=()")
        lines.append("    if (( COMP_CWORD > 0 )); then prev=\"${COMP_WORDS[COMP_CWORD-1]}\"; fi")
        lines.append("    if [[ \"$cur\" == \"=\" ]]; then")
        lines.append("        cur=\"\"")
        lines.append("    elif [[ \"$prev\" == \"=\" ]] && (( COMP_CWORD > 1 )); then")
        lines.append("        prev=\"${COMP_WORDS[COMP_CWORD-2]}\"")
        lines.append("    fi")
        lines.append("    for (( i = 1; i < COMP_CWORD; i++ )); do")
        lines.append("        word=\"${COMP_WORDS[i]}\"")
        lines.append("        if [[ \"$word\" == \"=\" ]]; then skip=1; continue; fi")
        lines.append("        if (( skip )); then skip=0; continue; fi")
        lines.append("        if (( ended )); then npos=$(( npos + 1 )); continue; fi")
        lines.append("        if [[ \"$word\" == \"--\" ]]; then ended=1; continue; fi")
        lines.append("        if [[ \"$word\" == -* ]]; then")
        lines.append("            case \"$cmd\" in")
        for command in model.commands where !command.valueOptionSpellings.isEmpty {
            lines.append("                \(q(command.key)))")
            lines.append("                    case \"$word\" in \(command.valueOptionSpellings.map(q).joined(separator: "|"))) skip=1 ;; esac ;;")
        }
        lines.append("            esac")
        lines.append("            continue")
        lines.append("        fi")
        lines.append("        case \"$cmd\" in")
        for command in model.commands where !command.subcommands.isEmpty {
            lines.append("            \(q(command.key)))")
            lines.append("                case \"$word\" in")
            for sub in command.subcommands {
                lines.append("                    \(q(sub.name))) cmd=\(q(command.key + " " + sub.name)); npos=0; continue ;;")
            }
            lines.append("                esac ;;")
        }
        lines.append("        esac")
        lines.append("        npos=$(( npos + 1 ))")
        lines.append("    done")
        lines.append("")
        lines.append("    if (( skip )); then")
        lines.append("        case \"$cmd\" in")
        for command in model.commands {
            let valued = command.options.filter { $0.takesValue }
            guard !valued.isEmpty else { continue }
            lines.append("            \(q(command.key)))")
            lines.append("                case \"$prev\" in")
            for option in valued {
                lines.append("                    \(option.spellings.map(q).joined(separator: "|"))) \(action(option.completion, function)) ;;")
            }
            lines.append("                esac ;;")
        }
        lines.append("        esac")
        lines.append("        return 0")
        lines.append("    fi")
        lines.append("")
        lines.append("    if (( ! ended )) && [[ \"$cur\" == -* ]]; then")
        lines.append("        case \"$cmd\" in")
        for command in model.commands where !command.options.isEmpty {
            let words = command.options.flatMap(\.spellings).map(q).joined(separator: " ")
            lines.append("            \(q(command.key))) \(function)_add_matching \"$cur\" \(words) ;;")
        }
        lines.append("        esac")
        lines.append("        return 0")
        lines.append("    fi")
        lines.append("")
        lines.append("    case \"$cmd\" in")
        for command in model.commands where !command.subcommands.isEmpty || !command.positionals.isEmpty {
            lines.append("        \(q(command.key)))")
            if !command.subcommands.isEmpty {
                let words = command.subcommands.map { q($0.name) }.joined(separator: " ")
                lines.append("            if (( ! ended )); then \(function)_add_matching \"$cur\" \(words); fi")
            }
            if !command.positionals.isEmpty {
                lines.append("            case \"$npos\" in")
                for (index, positional) in command.positionals.enumerated() {
                    let pattern = positional.isRepeating ? "*" : String(index)
                    lines.append("                \(pattern)) \(action(positional.effectiveCompletion, function)) ;;")
                    if positional.isRepeating { break }
                }
                lines.append("            esac")
            }
            lines.append("            ;;")
        }
        lines.append("    esac")
        lines.append("    return 0")
        lines.append("}")
        lines.append("")
        lines.append("complete -F \(function) \(q(model.rootName))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The statement that adds completions of one kind for `$cur`.
    func action(_ kind: CompletionKind, _ function: String) -> String {
        let q = ShellQuote.posix
        switch kind {
        case .none:
            return ":"
        case .file(let extensions):
            let safe = CompletionModel.safeExtensions(extensions).map(q).joined(separator: " ")
            return "\(function)_add_files \"$cur\"" + (safe.isEmpty ? "" : " " + safe)
        case .directory:
            return "\(function)_add_directories \"$cur\""
        case .list(let words):
            guard !words.isEmpty else { return ":" }
            return "\(function)_add_matching \"$cur\" " + words.map(q).joined(separator: " ")
        case .shellCommand(let command):
            return "\(function)_add_command_output \"$cur\" \(q(command))"
        }
    }

    func helperFunctions(_ function: String) -> [String] {
        [
            "# Adds the words (after the first argument) that start with the first argument.",
            "\(function)_add_matching() {",
            "    local cur=\"$1\" word",
            "    shift",
            "    for word in \"$@\"; do",
            "        if [[ \"$word\" == \"$cur\"* ]]; then COMPREPLY+=( \"$word\" ); fi",
            "    done",
            "}",
            "",
            "# Adds directories and the files with one of the given extensions (all files when none is given).",
            "\(function)_add_files() {",
            "    local cur=\"$1\" entry ext",
            "    shift",
            "    compopt -o filenames 2>/dev/null",
            "    while IFS= read -r entry; do",
            "        if [[ -d \"$entry\" ]]; then COMPREPLY+=( \"$entry\" ); continue; fi",
            "        if (( $# == 0 )); then COMPREPLY+=( \"$entry\" ); continue; fi",
            "        for ext in \"$@\"; do",
            "            if [[ \"$entry\" == *.\"$ext\" ]]; then COMPREPLY+=( \"$entry\" ); break; fi",
            "        done",
            "    done < <(compgen -f -- \"$cur\")",
            "}",
            "",
            "# Adds directories.",
            "\(function)_add_directories() {",
            "    local entry",
            "    compopt -o filenames 2>/dev/null",
            "    while IFS= read -r entry; do COMPREPLY+=( \"$entry\" ); done < <(compgen -d -- \"$1\")",
            "}",
            "",
            "# Adds the output lines of a shell command that start with the first argument.",
            "\(function)_add_command_output() {",
            "    local cur=\"$1\" line",
            "    while IFS= read -r line; do",
            "        if [[ \"$line\" == \"$cur\"* ]]; then COMPREPLY+=( \"$line\" ); fi",
            "    done < <(eval \"$2\" 2>/dev/null)",
            "}",
            "",
        ]
    }
}
