import TipcatArguments

/// One command of `tipcat`: what it accepts (its `CommandSpec`) and what it does, declared together.
///
/// The parser's `CommandSpec` tree, help, completions, `tipcat help --json` and dispatch are all derived from
/// `CommandRegistry.root`, so a command cannot be declared without the code that runs it.
struct Command: Sendable {
    /// Runs a parsed command line; errors go to `TipcatCommand`'s funnel.
    typealias Runner = @Sendable (ParsedArguments, CommandContext) throws -> Void

    /// The command's own spec. Its `subcommands` must stay empty: children come from `subcommands` below.
    var spec: CommandSpec
    /// What the command does; nil only for a group, whose help the parser prints when no child is named.
    var run: Runner?
    /// The nested commands, in help order.
    var subcommands: [Command]

    /// A leaf command: a spec and its runner.
    init(_ spec: CommandSpec, run: @escaping Runner) {
        self.spec = spec
        self.run = run
        self.subcommands = []
    }

    /// A leaf command run by a `RunnableCommand` type: `Command(CommandTree.list, ListCommand.self)`.
    init<Body: RunnableCommand>(_ spec: CommandSpec, _ body: Body.Type) {
        self.init(spec) { arguments, context in try Body(arguments: arguments, context: context).run() }
    }

    /// A group of commands (`tipcat engine …`); naming the group alone prints its help.
    init(group spec: CommandSpec, _ subcommands: [Command]) {
        self.spec = spec
        self.run = nil
        self.subcommands = subcommands
    }

    /// The full `CommandSpec` tree the parser, help and completion scripts read.
    var specTree: CommandSpec {
        var tree = spec
        tree.subcommands = subcommands.map(\.specTree)
        return tree
    }

    /// The command at `path` below this one (`[]` is this command itself), or nil.
    func command(at path: some Collection<String>) -> Command? {
        guard let first = path.first else { return self }
        return subcommands.first { $0.spec.name == first }?.command(at: path.dropFirst())
    }
}

/// A command implemented as a value built from its parsed arguments and context.
protocol RunnableCommand: SendableMetatype {
    init(arguments: ParsedArguments, context: CommandContext)
    func run() throws
}

extension ValidateCommand: RunnableCommand {}
extension GenerateCommand: RunnableCommand {}
extension ListCommand: RunnableCommand {}
extension InitCommand: RunnableCommand {}
extension RenderCommand: RunnableCommand {}
extension PreviewCommand: RunnableCommand {}
extension StylesCommand: RunnableCommand {}
extension TemplateCommand: RunnableCommand {}
extension PluralCommand: RunnableCommand {}
extension CompletionsCommand: RunnableCommand {}
extension PublishCommand: RunnableCommand {}
extension VersionsCommand: RunnableCommand {}
extension ShowVersionCommand: RunnableCommand {}
extension DiffCommand: RunnableCommand {}
extension RollbackCommand: RunnableCommand {}
extension PromoteCommand: RunnableCommand {}
extension ExportCommand: RunnableCommand {}
