import Foundation
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
    /// Whether the outcome's load result keeps the parsed String Catalog (`LoadResult.strings`).
    var keepsStrings = false
    /// Where the decoded String Catalog is kept between runs (`CatalogLoader.stringsCache`).
    var stringsCache: (any StringsDecodingCache)?
    /// Work that can start once the catalog is decoded, while it is checked (`CatalogLoader.whenDecoded`); not
    /// called when the catalog was never decoded (no such directory).
    var whenDecoded: (@Sendable (Catalog, LoadFingerprints?) -> Void)?

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
        // The catalog goes to the lint plugins as soon as it is decoded, while the built-in checks run.
        let pluginFindings = BackgroundResult<[Diagnostic]>()
        var loader = CatalogLoader(lintRules: registry.lintRules, knownRuleIDs: DiagnosticRules.allIDs)
        loader.keepsStrings = keepsStrings
        loader.stringsCache = stringsCache
        if pending.isEmpty { pluginFindings.set([]) }
        let alsoWhenDecoded = whenDecoded
        if !pending.isEmpty || alsoWhenDecoded != nil {
            loader.whenDecoded = { catalog, fingerprints in
                if !pending.isEmpty { pluginFindings.start { pending.finish(catalog) } }
                alsoWhenDecoded?(catalog, fingerprints)
            }
        }
        let result = loader.load(directory: directory)
        var diagnostics = result.diagnostics + registry.diagnostics
        if !pluginFindings.started {
            pending.cancel()  // the catalog was never decoded (no such directory)
        } else {
            // lint.json's "rules" turn plugin findings off or re-grade them like built-in ones.
            diagnostics += result.catalog.lint.apply(to: pluginFindings.wait())
        }
        // The loaded catalog lives until the process exits when it exits after this command: freeing a catalog of
        // thousands of tips costs tens of milliseconds the exit makes unnecessary.
        ProcessLifetime.keepUntilExit(result)
        return Outcome(result: result, diagnostics: diagnostics.sortedForOutput(), registry: registry)
    }

    /// Loads and checks the catalog; with errors, prints them to stderr and exits 1 (`purpose` says what did not
    /// happen). Warnings are summed up in one note. Errors of the rules in `tolerated` (what the command itself
    /// resolves) do not stop it: they count as warnings.
    func requireValid(purpose: String, tolerated: Set<String> = []) throws -> Outcome {
        let outcome = run()
        let errors = outcome.diagnostics.filter { $0.severity == .error && !tolerated.contains($0.ruleID) }.count
        let warnings = outcome.diagnostics.filter {
            $0.severity == .warning || ($0.severity == .error && tolerated.contains($0.ruleID))
        }.count
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

/// A value computed on its own thread, waited for later.
final class BackgroundResult<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value?
    private(set) var started = false

    /// Runs `body` on a new thread.
    func start(_ body: @escaping @Sendable () -> Value) {
        condition.lock()
        started = true
        condition.unlock()
        Thread {
            FreeMemory.primeThisThread()
            self.set(body())
        }.start()
    }

    func set(_ result: Value) {
        condition.lock()
        started = true
        value = result
        condition.broadcast()
        condition.unlock()
    }

    /// The value, once computed.
    func wait() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let value { return value }
            condition.wait()
        }
    }
}
