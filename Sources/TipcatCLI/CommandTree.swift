import TipcatArguments

/// The version printed by `tipcat --version`.
public let tipcatVersion = "0.1.0"

/// Every command's spec — arguments and help — declared once; `CommandRegistry` pairs each with its runner.
enum CommandTree {
    static let catalogOption = ArgumentSpec.option(
        "catalog", valueName: "dir", help: "The catalog directory.", default: "Catalog", completion: .directory)

    static let validate = CommandSpec(
        name: "validate",
        abstract: "Check a catalog and report every problem with its file, line and column.",
        discussion: """
            Reads catalog.json, parameters.json, events.json, groups.json, tips/*.json and \
            Localizable.xcstrings; checks types, rules, messages, placeholders, plurals and translations, then \
            runs the lint rules of the plugin registry and the lint plugins of plugins.json (their rule ids are \
            prefixed with the plugin's name: brand-voice/no-exclamation). \
            Exit status: 0 clean, 1 findings (warnings count only with --strict), 64 usage error.
            """,
        arguments: [
            catalogOption,
            .option("format", valueName: "format", help: "Output format: text (swiftc style), json, or github (workflow annotations).",
                    default: "text", allowed: ["text", "json", "github"]),
            .flag("strict", help: "Treat warnings as errors."),
            noPluginsFlag,
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
            .flag("json", help: "Print JSON: the locale and each number with its category."),
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

    static let templatesOption = ArgumentSpec.option(
        "templates", valueName: "dir", help: "The styles directory (one folder per style).", default: "Templates",
        completion: .directory)

    static let render = CommandSpec(
        name: "render",
        abstract: "Preview tips as they will look, in a style and a locale.",
        discussion: """
            Resolves each tip for the locale (falling back fr-CA → fr → source language), fills and type-checks \
            its parameters, computes its custom ID, formats plurals, and renders it with a style from the \
            templates directory (built-in: plain, markdown, ansi). With several tips, parameterized tips use \
            their example values. --device uses the tip's platforms entry for that device and picks String \
            Catalog device variations (the device's, then 'other', then the plain string). Colour: --color > NO_COLOR > FORCE_COLOR/CLICOLOR_FORCE > TERM=dumb > \
            whether stdout is a terminal. Width: --width > COLUMNS > the terminal's width > 80. A catalog with \
            errors is refused (the first five are shown); warnings are not shown, and the checks that can only \
            warn at their level in lint.json are not run (tipcat validate reports them). Only the translations \
            the rendering can show are read and checked: the locale's, its fallbacks' and the source language's.
            """,
        arguments: [
            .positional("tip-id", help: "The tips to render.", required: false, repeating: true),
            .flag("all", help: "Render every tip of the catalog."),
            .option("group", valueName: "group", help: "Render the tips of a group, in order."),
            .option("style", valueName: "style", help: "The style (see tipcat styles).", default: "plain"),
            .option("locale", valueName: "locale", help: "The locale to render in (default: the source language); en-XA and ar-XB are pseudo-locales derived from the source text."),
            DeviceOption.spec,
            .option("param", valueName: "name=value", help: "A parameter value; records by field: trail.id=butler-fork.", repeating: true),
            .option("params-file", valueName: "file", help: "A JSON object of parameter values.", completion: .file(extensions: ["json"])),
            WidthOption.spec,
            .option("color", valueName: "when", help: "Use colours (and, where the terminal supports them or FORCE_HYPERLINK=1, OSC 8 links for Markdown links in texts).", default: "auto", allowed: ["auto", "always", "never"]),
            catalogOption,
            templatesOption,
            .flag("watch", help: "Re-render when a catalog or template file changes (Ctrl-C to stop)."),
            .flag("json", help: "Print JSON: the style, the locale and each tip's rendered text (not with --watch)."),
        ],
        examples: [
            "tipcat render ShowLocationTip --style ansi",
            "tipcat render NewTrailTip --locale fr --param trail.id=silver-lake --param trail.name='Silver Lake' --param trail.region=Wasatch",
            "tipcat render --group compass --style markdown --locale ja",
            "tipcat render ShowLocationTip --locale fr --device mac",
            "tipcat render --all --style ansi --watch",
        ])

    static let styles = CommandSpec(
        name: "styles",
        abstract: "List the styles render can use.",
        arguments: [templatesOption, .flag("json", help: "Print JSON: each style's name, output, escaper, description and origin.")],
        examples: ["tipcat styles"])

    static let template = CommandSpec(
        name: "template",
        abstract: "Show a style's template (cat) or where it is (which).",
        arguments: [
            .positional("action", help: "cat or which.", completion: .list(["cat", "which"])),
            .positional("style", help: "The style's name."),
            templatesOption,
            .flag("json", help: "Print JSON: the style, its template's path and source."),
        ],
        examples: ["tipcat template cat ansi", "tipcat template which markdown"])

    /// The root's own spec; its subcommands come from `CommandRegistry`.
    static let tipcat = CommandSpec(
        name: "tipcat",
        abstract: "Author, check and preview TipKit-style tips from a git-friendly catalog.",
        discussion: """
            Run 'tipcat help <command>' for a command's options; 'tipcat help --json' prints every command as \
            JSON. Any other command runs the executable tipcat-<command> from PATH, if there is one.
            """,
        version: tipcatVersion)

    /// The whole tree, subcommands included, as the parser reads it (derived from `CommandRegistry`).
    static var root: CommandSpec { CommandRegistry.specTree }
}
