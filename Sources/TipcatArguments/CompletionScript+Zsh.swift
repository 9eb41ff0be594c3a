/// Writes a zsh completion script: one `_arguments` function per command, chained through `->subcommand`
/// and `->argument` states.
struct ZshCompletion {
    let model: CompletionModel

    func script() -> String {
        let q = ShellQuote.posix
        let names = functionNames()
        var lines: [String] = []
        var helpers: [String] = []
        lines.append("#compdef \(ShellQuote.oneLine(model.rootName))")
        lines.append("# Zsh completion for \(ShellQuote.oneLine(model.rootName)), generated from its command tree.")
        lines.append("# Install it as _\(ShellQuote.oneLine(model.rootName)) in a directory on $fpath, or `source` it after compinit.")
        lines.append("")
        for (index, command) in model.commands.enumerated() {
            let function = names[index]
            var specs: [String] = []
            for option in command.options {
                specs.append(contentsOf: optionSpecs(option, helpers: &helpers))
            }
            if command.subcommands.isEmpty {
                for positional in command.positionals {
                    let prefix = positional.isRepeating ? "*" : (positional.mustBeGiven ? "" : ":")
                    let action = self.action(positional.effectiveCompletion, helpers: &helpers)
                    specs.append(q("\(prefix):\(escapeMessage(positional.valueName)):\(action)"))
                }
            } else {
                specs.append(q("1: :->subcommand"))
                specs.append(q("*:: :->argument"))
            }
            lines.append("\(function)() {")
            lines.append("    local context state state_descr line")
            lines.append("    local -i ret=1")
            lines.append("    local -A opt_args")
            if specs.isEmpty {
                lines.append("    _message 'no more arguments' && ret=0")
            } else {
                lines.append("    _arguments -s -S -C \\")
                for spec in specs {
                    lines.append("        \(spec) \\")
                }
                lines.append("        && ret=0")
            }
            if !command.subcommands.isEmpty {
                lines.append("    case $state in")
                lines.append("        subcommand)")
                lines.append("            local -a subcommands")
                lines.append("            subcommands=(")
                for sub in command.subcommands {
                    lines.append("                \(q(escapeDescribeName(sub.name) + ":" + ShellQuote.oneLine(sub.abstract)))")
                }
                lines.append("            )")
                lines.append("            _describe -t subcommands \(q(command.key + " subcommand")) subcommands && ret=0")
                lines.append("            ;;")
                lines.append("        argument)")
                lines.append("            case $words[1] in")
                for sub in command.subcommands {
                    guard let childIndex = model.commands.firstIndex(where: { $0.path == command.path + [sub.name] }) else { continue }
                    lines.append("                \(q(sub.name))) \(names[childIndex]) && ret=0 ;;")
                }
                lines.append("            esac")
                lines.append("            ;;")
                lines.append("    esac")
            }
            lines.append("    return ret")
            lines.append("}")
            lines.append("")
        }
        lines.append(contentsOf: helpers)
        let root = names.first ?? model.functionName
        lines.append("if [[ \"${zsh_eval_context[-1]}\" == loadautofunc ]]; then")
        lines.append("    \(root) \"$@\"")
        lines.append("else")
        lines.append("    compdef \(root) \(q(model.rootName))")
        lines.append("fi")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Unique function names: `_tipcat`, `_tipcat_validate`, `_tipcat_engine_donate`.
    func functionNames() -> [String] {
        var used: Set<String> = []
        return model.commands.map { command in
            var name = model.functionName
            for part in command.path.dropFirst() {
                name += "_" + String(part.unicodeScalars.map { scalar -> Character in
                    switch scalar {
                    case "a"..."z", "A"..."Z", "0"..."9", "_": return Character(scalar)
                    default: return "_"
                    }
                })
            }
            var unique = name
            var counter = 2
            while used.contains(unique) {
                unique = "\(name)_\(counter)"
                counter += 1
            }
            used.insert(unique)
            return unique
        }
    }

    /// `_arguments` specs for one option: one per spelling, mutually exclusive unless repeatable.
    func optionSpecs(_ option: CompletionModel.Option, helpers: inout [String]) -> [String] {
        let spellings = option.spellings
        let exclusion = option.isRepeating ? "*" : "(\(spellings.joined(separator: " ")))"
        let description = option.help.isEmpty ? "" : "[\(escapeDescription(option.help))]"
        var value = ""
        if option.takesValue {
            value = ":\(escapeMessage(option.valueName)):\(action(option.completion, helpers: &helpers))"
        }
        return spellings.map { spelling in
            let name = option.takesValue && spelling.hasPrefix("--") ? spelling + "=" : spelling
            return ShellQuote.posix(exclusion + name + description + value)
        }
    }

    /// The `_arguments` action for a completion kind (goes inside a single-quoted spec).
    func action(_ kind: CompletionKind, helpers: inout [String]) -> String {
        switch kind {
        case .none:
            return ""
        case .file(let extensions):
            let safe = CompletionModel.safeExtensions(extensions)
            switch safe.count {
            case 0: return "_files"
            case 1: return "_files -g \"*.\(safe[0])\""
            default: return "_files -g \"*.(\(safe.joined(separator: "|")))\""
            }
        case .directory:
            return "_files -/"
        case .list(let words):
            return "(" + words.map(escapeWord).joined(separator: " ") + ")"
        case .shellCommand(let command):
            let name = "\(model.functionName)_command_output_\(helpers.count)"
            helpers.append("\(name)() {")
            helpers.append("    local -a values")
            helpers.append("    values=( ${(f)\"$(eval \(ShellQuote.posix(command)) 2>/dev/null)\"} )")
            helpers.append("    compadd -a values")
            helpers.append("}")
            helpers.append("")
            return name
        }
    }

    /// Escapes `[`, `]`, `:` and `\` in an option description.
    func escapeDescription(_ text: String) -> String {
        var result = ""
        for character in ShellQuote.oneLine(text) {
            if "[]:\\".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// Escapes `:` and `\` in a value message.
    func escapeMessage(_ text: String) -> String {
        var result = ""
        for character in ShellQuote.oneLine(text) {
            if ":\\".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// Escapes `:` and `\` in a `_describe` item's name.
    func escapeDescribeName(_ text: String) -> String { escapeMessage(text) }

    /// Backslash-escapes everything but plain word characters, for a `(word …)` action.
    func escapeWord(_ text: String) -> String {
        var result = ""
        for character in ShellQuote.oneLine(text) {
            let plain = character.isASCII && (character.isLetter || character.isNumber || "._-+/=,@%".contains(character))
            if !plain { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
