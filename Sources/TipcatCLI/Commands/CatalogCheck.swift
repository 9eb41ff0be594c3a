import TipcatArguments
import TipcatCatalog
import TipcatCore
import TipcatPlugins

/// Loading and checking a catalog the way `validate` does — built-in checks, lint rules from the plugin
/// registry, and external lint plugins — shared by every command that must refuse a catalog with errors.
struct CatalogCheck {
    let directory: String
    let context: CommandContext
    /// False for `--no-plugins`.
    let externalPlugins: Bool

    init(directory: String, context: CommandContext, externalPlugins: Bool) {
        self.directory = directory
        self.context = context
        self.externalPlugins = externalPlugins
    }

    init(arguments: ParsedArguments, context: CommandContext) {
        self.init(directory: arguments.value("catalog") ?? "Catalog", context: context,
                  externalPlugins: !arguments.flag("no-plugins"))
    }

    struct Outcome {
        var result: LoadResult
        /// Loader findings, plugins.json problems and plugin findings, in reading order.
        var diagnostics: [Diagnostic]
        var registry: PluginRegistry
    }

    var registry: PluginRegistry {
        PluginRegistry(catalogDirectory: directory, templatesDirectory: nil, environment: context.environment,
                       externalPlugins: externalPlugins, tipcatVersion: tipcatVersion)
    }

    func run() -> Outcome {
        let registry = self.registry
        // Lint plugins start first: their start-up (an interpreter, say) overlaps loading the catalog.
        let pending = PluginHost(registry: registry, catalogDirectory: directory).startLint()
        let result = CatalogLoader(lintRules: registry.lintRules, knownRuleIDs: DiagnosticRules.allIDs).load(directory: directory)
        var diagnostics = result.diagnostics + registry.diagnostics
        if result.diagnostics.contains(where: { $0.ruleID == DiagnosticRule.catalogNotFound.id }) {
            pending.cancel()
        } else {
            // lint.json's "rules" turn plugin findings off or re-grade them like built-in ones.
            diagnostics += result.catalog.lint.apply(to: pending.finish(result.catalog))
        }
        return Outcome(result: result, diagnostics: diagnostics.sortedForOutput(), registry: registry)
    }

    /// Loads and checks the catalog; with errors, prints them to stderr and exits 1 (`purpose` says what did not
    /// happen). Warnings are summed up in one note.
    func requireValid(purpose: String) throws -> Outcome {
        let outcome = run()
        let errors = outcome.diagnostics.filter { $0.severity == .error }.count
        let warnings = outcome.diagnostics.filter { $0.severity == .warning }.count
        if errors > 0 {
            context.stderr.write(DiagnosticFormat.text.render(outcome.diagnostics))
            context.stderr.line("error: \(directory) has \(errors) \(plural(errors, "error")); \(purpose)")
            throw CommandError.exit(.failure)
        }
        if warnings > 0 {
            context.stderr.line("note: \(directory) has \(warnings) \(plural(warnings, "warning")); run 'tipcat validate --catalog \(directory)' to see them")
        }
        return outcome
    }
}
