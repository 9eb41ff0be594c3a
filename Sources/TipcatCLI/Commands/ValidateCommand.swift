import TipcatArguments
import TipcatCatalog
import TipcatCore

/// `tipcat validate`: load the catalog, print every finding, exit 1 on errors (or warnings with --strict).
struct ValidateCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let directory = arguments.value("catalog") ?? "Catalog"
        let format = DiagnosticFormat(rawValue: arguments.value("format") ?? "text") ?? .text
        let strict = arguments.flag("strict")
        let outcome = CatalogCheck(arguments: arguments, context: context).run()
        let result = outcome.result
        let diagnostics = outcome.diagnostics
        context.stdout.write(format.render(diagnostics))
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        if format == .text {
            let catalog = result.catalog
            let counts = "\(catalog.tips.count) \(plural(catalog.tips.count, "tip")), \(catalog.groups.count) \(plural(catalog.groups.count, "group")), "
                + "\(result.filesRead) \(plural(result.filesRead, "file"))"
            let findings = errors + warnings == 0
                ? "no findings"
                : "\(errors) \(plural(errors, "error")), \(warnings) \(plural(warnings, "warning"))"
            context.stderr.line("\(directory): \(counts) — \(findings)")
        }
        if errors > 0 || (strict && warnings > 0) { throw CommandError.exit(.failure) }
    }
}

func plural(_ count: Int, _ word: String) -> String { count == 1 ? word : word + "s" }
