/// A shell for which a completion script can be generated.
public enum Shell: String, CaseIterable, Sendable, Hashable {
    /// GNU Bash 4 or later.
    case bash
    /// Z shell 5.
    case zsh
    /// fish 3.
    case fish
}

/// Generates shell completion scripts from a `CommandSpec` tree.
public enum CompletionScript {
    /// The completion script for `root` in `shell`'s syntax; completes subcommands, options and their values.
    ///
    /// Install: bash — `source` it or put it in `bash-completion/completions/<name>`;
    /// zsh — save as `_<name>` on `$fpath`; fish — save as `~/.config/fish/completions/<name>.fish`.
    public static func generate(for root: CommandSpec, shell: Shell) -> String {
        let model = CompletionModel(root: root)
        switch shell {
        case .bash: return BashCompletion(model: model).script()
        case .zsh: return ZshCompletion(model: model).script()
        case .fish: return FishCompletion(model: model).script()
        }
    }
}

/// The command tree flattened into what completion scripts need, including the built-in options and `help`.
struct CompletionModel {
    /// A named option or flag as completion sees it.
    struct Option {
        var long: String
        var short: Character?
        var help: String
        var takesValue: Bool
        var isRepeating: Bool
        var completion: CompletionKind
        var valueName: String

        /// `--long` and `-s`.
        var spellings: [String] {
            ["--\(long)"] + (short.map { ["-\($0)"] } ?? [])
        }
    }

    /// One command reachable on the command line.
    struct Command {
        /// Names from the root, e.g. `["tipcat", "engine", "donate"]`.
        var path: [String]
        var subcommands: [(name: String, abstract: String)]
        var options: [Option]
        /// Value-taking options of this command and its parents (they are accepted after descending too).
        var valueOptionSpellings: [String]
        var positionals: [ArgumentSpec]

        var key: String { path.joined(separator: " ") }
    }

    let rootName: String
    /// Every command, depth first, the root first.
    let commands: [Command]

    init(root: CommandSpec) {
        rootName = root.name
        var commands: [Command] = []
        let hasVersion = root.version != nil
        func visit(_ spec: CommandSpec, path: [String], inheritedValueOptions: [String]) {
            var options = spec.arguments.filter { $0.kind != .positional && !$0.isHidden }.map {
                Option(
                    long: $0.name, short: $0.shortName, help: $0.help, takesValue: $0.kind == .option,
                    isRepeating: $0.isRepeating, completion: $0.effectiveCompletion, valueName: $0.valueName)
            }
            if hasVersion {
                options.append(Option(long: "version", short: nil, help: "Show the version.", takesValue: false,
                                      isRepeating: false, completion: .none, valueName: "version"))
            }
            options.append(Option(long: "help", short: "h", help: "Show help information.", takesValue: false,
                                  isRepeating: false, completion: .none, valueName: "help"))
            let valueOptions = inheritedValueOptions + spec.arguments.filter { $0.kind == .option }.flatMap {
                ["--\($0.name)"] + ($0.shortName.map { ["-\($0)"] } ?? [])
            }
            var subcommands = spec.subcommands.filter { !$0.isHidden }.map { (name: $0.name, abstract: $0.abstract) }
            let isRoot = path.count == 1
            if isRoot, !spec.subcommands.isEmpty, spec.subcommand(named: "help") == nil {
                subcommands.append((name: "help", abstract: "Show subcommand help information."))
            }
            commands.append(Command(
                path: path, subcommands: subcommands, options: options, valueOptionSpellings: valueOptions,
                positionals: spec.arguments.filter { $0.kind == .positional && !$0.isHidden }))
            for child in spec.subcommands where !child.isHidden {
                visit(child, path: path + [child.name], inheritedValueOptions: valueOptions)
            }
            if isRoot, !spec.subcommands.isEmpty, spec.subcommand(named: "help") == nil {
                let names = spec.subcommands.filter { !$0.isHidden }.map(\.name)
                commands.append(Command(
                    path: path + ["help"], subcommands: [], options: [], valueOptionSpellings: [],
                    positionals: [.positional("subcommands", required: false, repeating: true, completion: .list(names))]))
            }
        }
        visit(root, path: [root.name], inheritedValueOptions: [])
        self.commands = commands
    }

    /// The root name made safe for shell function names.
    var functionName: String {
        let scalars = rootName.unicodeScalars.map { scalar -> Character in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_": return Character(scalar)
            default: return "_"
            }
        }
        return "_" + String(scalars)
    }

    /// File extensions made safe to embed in glob patterns.
    static func safeExtensions(_ extensions: [String]) -> [String] {
        extensions.map { ext in
            String(ext.drop(while: { $0 == "." }).filter { $0.isASCII && ($0.isLetter || $0.isNumber || "_+-".contains($0)) })
        }.filter { !$0.isEmpty }
    }
}

/// Shell quoting shared by the generators.
enum ShellQuote {
    /// POSIX single quoting: `it's` becomes `'it'\''s'`. Valid in bash and zsh.
    static func posix(_ text: String) -> String {
        "'" + text.replacingAll("'", with: "'\\''") + "'"
    }

    /// fish single quoting: backslash and quote are escaped with a backslash.
    static func fish(_ text: String) -> String {
        "'" + text.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'") + "'"
    }

    /// Replaces newlines and tabs with spaces so a help text fits on one script line.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\t" ? " " : $0 })
    }
}

extension String {
    /// Every occurrence of the character `target` replaced with `replacement` (Foundation-free).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
