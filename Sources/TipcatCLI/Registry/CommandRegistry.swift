import TipcatArguments

/// Every `tipcat` command, in help order: the one table dispatch, parsing, help and completions derive from.
///
/// To add a command: declare its `CommandSpec` as a `CommandTree` static (a `CommandTree` extension file per
/// family, like `PublishingCommandTree.swift`), write its runner — a type conforming to `RunnableCommand`, or a
/// closure — and add one line below: `Command(CommandTree.generate, GenerateCommand.self)`. A family with
/// subcommands is `Command(group: spec, [children])`, like `engine`. An option of one command is one
/// `ArgumentSpec` in its spec; a flag every command accepts goes in `CommandTree.tipcat.arguments` (the parser
/// accepts the root's options anywhere on the line). `CommandRegistryValidator` checks the tree in a test.
enum CommandRegistry {
    /// The root command, `tipcat`, with every subcommand.
    static let root = Command(group: CommandTree.tipcat, [
        Command(CommandTree.validate, ValidateCommand.self),
        Command(CommandTree.list, ListCommand.self),
        Command(CommandTree.initCommand, InitCommand.self),
        Command(CommandTree.render, RenderCommand.self),
        Command(CommandTree.preview, PreviewCommand.self),
        Command(CommandTree.styles, StylesCommand.self),
        Command(CommandTree.template, TemplateCommand.self),
        // Translations.
        Command(group: CommandTree.strings, [
            Command(CommandTree.stringsStatus) { try StringsCommand(arguments: $0, context: $1).status() },
            Command(CommandTree.stringsSync) { try StringsCommand(arguments: $0, context: $1).sync() },
            Command(CommandTree.stringsExport) { try StringsCommand(arguments: $0, context: $1).export() },
            Command(CommandTree.stringsImport) { try StringsCommand(arguments: $0, context: $1).importTranslations() },
        ]),
        // Publishing.
        Command(CommandTree.publish, PublishCommand.self),
        Command(CommandTree.versions, VersionsCommand.self),
        Command(CommandTree.showVersion, ShowVersionCommand.self),
        Command(CommandTree.diff, DiffCommand.self),
        Command(CommandTree.rollback, RollbackCommand.self),
        Command(CommandTree.promote, PromoteCommand.self),
        Command(CommandTree.export, ExportCommand.self),
        Command(group: CommandTree.store, [
            Command(CommandTree.storeMigrate) { try StoreMigrateCommand(arguments: $0, context: $1).run() },
        ]),
        // Plugins.
        Command(CommandTree.generate, GenerateCommand.self),
        Command(group: CommandTree.plugins, [
            Command(CommandTree.pluginsList) { try PluginsCommand(arguments: $0, context: $1).list() },
            Command(CommandTree.pluginsDescribe) { try PluginsCommand(arguments: $0, context: $1).describe() },
            Command(CommandTree.pluginsCheck) { try PluginsCommand(arguments: $0, context: $1).check() },
        ]),
        engine,
        Command(CommandTree.plural, PluralCommand.self),
        Command(CommandTree.completions, CompletionsCommand.self),
    ])

    /// `tipcat engine …`: one engine call per process.
    static let engine = Command(group: CommandTree.engine, [
        Command(CommandTree.engineStatus) { try EngineCommand(arguments: $0, context: $1).status() },
        Command(CommandTree.engineDonate) { try EngineCommand(arguments: $0, context: $1).donate() },
        Command(CommandTree.engineSet) { try EngineCommand(arguments: $0, context: $1).set() },
        Command(CommandTree.engineNext) { try EngineCommand(arguments: $0, context: $1).next() },
        Command(CommandTree.engineShow) { try EngineCommand(arguments: $0, context: $1).show() },
        Command(CommandTree.engineDisplayed) { try EngineCommand(arguments: $0, context: $1).displayed() },
        Command(CommandTree.engineHidden) { try EngineCommand(arguments: $0, context: $1).hidden() },
        Command(CommandTree.engineDismiss) { try EngineCommand(arguments: $0, context: $1).dismiss() },
        Command(CommandTree.engineInvalidate) { try EngineCommand(arguments: $0, context: $1).invalidate() },
        Command(CommandTree.engineAction) { try EngineCommand(arguments: $0, context: $1).action() },
        Command(CommandTree.engineShouldDisplay) { try EngineCommand(arguments: $0, context: $1).shouldDisplay() },
        Command(CommandTree.engineEvents) { try EngineCommand(arguments: $0, context: $1).events() },
        Command(CommandTree.engineWhy) { try EngineCommand(arguments: $0, context: $1).why() },
        Command(CommandTree.engineReset) { try EngineCommand(arguments: $0, context: $1).reset() },
        Command(CommandTree.engineResetEligibility) { try EngineCommand(arguments: $0, context: $1).resetEligibility() },
        Command(CommandTree.engineDeleteDonations) { try EngineCommand(arguments: $0, context: $1).deleteDonations() },
        Command(CommandTree.engineSimulate) { try EngineCommand(arguments: $0, context: $1).simulate() },
        Command(CommandTree.engineExportState) { try EngineCommand(arguments: $0, context: $1).exportState() },
        Command(CommandTree.engineMergeState) { try EngineCommand(arguments: $0, context: $1).mergeState() },
    ])

    /// The parser's tree, derived from the registry.
    static let specTree: CommandSpec = root.specTree
}
