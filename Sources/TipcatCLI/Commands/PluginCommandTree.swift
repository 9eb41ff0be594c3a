import TipcatArguments

/// `tipcat plugins …` and `tipcat generate`: the plugin registry from the command line.
extension CommandTree {
    static let noPluginsFlag = ArgumentSpec.flag(
        "no-plugins", help: "Run without the external plugins of plugins.json (built-in checks only).")

    static let pluginOptionOption = ArgumentSpec.option(
        "option", valueName: "key=value",
        help: "A plugin option, added to (or replacing) those of plugins.json; the value is JSON when it parses as JSON, else a string.",
        repeating: true)

    static let plugins = CommandSpec(
        name: "plugins",
        abstract: "List, describe and check plugins: styles, lint rules, generators, publish hooks and external commands.",
        discussion: """
            Built-in plugins are compiled in; styles are folders of the templates directory; external plugins are \
            programs declared in the catalog's plugins.json (or executables tipcat-plugin-<name> on PATH), spoken \
            to over the tipcat.plugin/1 JSON protocol; external commands are executables tipcat-<name> on PATH, \
            which 'tipcat <name>' runs.
            """,
        examples: ["tipcat plugins list", "tipcat plugins check"])

    static let pluginsList = CommandSpec(
        name: "list", abstract: "List every plugin: name, kinds, origin, version and path.",
        discussion: "External plugins are asked to describe themselves (concurrently, each within its timeout) for their version.",
        arguments: [catalogOption, templatesOption, .flag("json", help: "Print JSON.")],
        examples: ["tipcat plugins list", "tipcat plugins list --json"])

    static let pluginsDescribe = CommandSpec(
        name: "describe", abstract: "Show one plugin: what it does, its kinds, options schema and configuration.",
        arguments: [.positional("name", help: "The plugin's name (see tipcat plugins list)."), catalogOption, templatesOption,
                    .flag("json", help: "Print JSON.")],
        examples: ["tipcat plugins describe brand-voice", "tipcat plugins describe docs --json"])

    static let pluginsCheck = CommandSpec(
        name: "check", abstract: "Check plugins.json and every configured plugin: found, answering describe, offering its kinds.",
        discussion: "Exit status: 0 when every plugin is usable, 1 when any problem is found.",
        arguments: [catalogOption, .flag("json", help: "Print JSON.")],
        examples: ["tipcat plugins check"])

    static let generate = CommandSpec(
        name: "generate",
        abstract: "Run a generator plugin on the catalog and write its files under a directory.",
        discussion: """
            Built-in generators: docs (Markdown pages for reviewers). External generators are plugins of kind \
            'generate' in plugins.json. Every returned path must be relative and stay inside the output directory \
            (no absolute paths, '..', or symlinks on the way); one bad path and nothing is written. Files are \
            written whole (temporary file, then rename); unchanged files are not touched. With --check nothing is \
            written: the files that differ are listed and the exit status is 1 (for CI). The catalog must have no \
            errors. Exit status: 0 success, 1 a failed plugin, bad paths or (--check) differences, 64 usage.
            """,
        arguments: [
            .positional("name", help: "The generator (tipcat plugins list shows them)."),
            .option("output", short: "o", valueName: "dir", help: "The output directory (default: Generated/<name>).", completion: .directory),
            .flag("check", help: "Write nothing; exit 1 listing the files that differ from the output directory."),
            pluginOptionOption,
            catalogOption, noPluginsFlag,
        ],
        examples: [
            "tipcat generate docs -o docs/tips",
            "tipcat generate keys -o App/Generated --option enum=TipKeys",
            "tipcat generate keys -o App/Generated --check",
        ])
}
