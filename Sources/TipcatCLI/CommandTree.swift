import TipcatArguments

/// The version printed by `tipcat --version`.
public let tipcatVersion = "0.1.0"

/// Every command, its arguments and help, declared once: parsing, help, completions and docs all read it.
enum CommandTree {
    static let catalogOption = ArgumentSpec.option(
        "catalog", valueName: "dir", help: "The catalog directory.", default: "Catalog", completion: .directory)

    static let validate = CommandSpec(
        name: "validate",
        abstract: "Check a catalog and report every problem with its file, line and column.",
        discussion: """
            Reads catalog.json, parameters.json, events.json, groups.json, tips/*.json and \
            Localizable.xcstrings; checks types, rules, messages, placeholders, plurals and translations. \
            Exit status: 0 clean, 1 findings (warnings count only with --strict), 64 usage error.
            """,
        arguments: [
            catalogOption,
            .option("format", valueName: "format", help: "Output format: text (swiftc style), json, or github (workflow annotations).",
                    default: "text", allowed: ["text", "json", "github"]),
            .flag("strict", help: "Treat warnings as errors."),
        ],
        examples: ["tipcat validate", "tipcat validate --catalog path/to/Catalog --format github --strict"])

    static let list = CommandSpec(
        name: "list",
        abstract: "List the catalog's tips, groups, events and parameters.",
        arguments: [catalogOption, .flag("json", help: "Print JSON instead of text.")],
        examples: ["tipcat list", "tipcat list --json"])

    static let initCommand = CommandSpec(
        name: "init",
        abstract: "Create a minimal valid catalog in a new directory.",
        discussion: "The directory must not exist or must be empty; nothing is ever overwritten.",
        arguments: [.positional("dir", help: "The directory to create.", completion: .directory)],
        examples: ["tipcat init MyCatalog && tipcat validate --catalog MyCatalog"])

    static let plural = CommandSpec(
        name: "plural",
        abstract: "Print the CLDR plural category of each number in a locale.",
        discussion: """
            Numbers are taken as written: in English '1' is 'one' but '1.0' is 'other'. \
            A translator's aid for plural variations.
            """,
        arguments: [
            .positional("locale", help: "A locale identifier such as en, fr-CA or ar."),
            .positional("numbers", help: "One or more numbers, as written (1, 1.0, 2.50, 1.2c6).", repeating: true),
        ],
        examples: ["tipcat plural pl 1 2 5 22 1.5", "tipcat plural ar 0 1 2 3 11 100"])

    static let completions = CommandSpec(
        name: "completions",
        abstract: "Print a shell completion script.",
        discussion: """
            bash: tipcat completions bash > /etc/bash_completion.d/tipcat
            zsh:  tipcat completions zsh > "${fpath[1]}/_tipcat"
            fish: tipcat completions fish > ~/.config/fish/completions/tipcat.fish
            """,
        arguments: [.positional("shell", help: "bash, zsh or fish.", completion: .list(["bash", "zsh", "fish"]))],
        examples: ["tipcat completions zsh"])

    static let root = CommandSpec(
        name: "tipcat",
        abstract: "Author, check and preview TipKit-style tips from a git-friendly catalog.",
        discussion: "Run 'tipcat help <command>' for a command's options.",
        subcommands: [validate, list, initCommand, plural, completions] + publishing,
        version: tipcatVersion)
}
