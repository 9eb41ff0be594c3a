import Foundation
import TipcatArguments
import TipcatCatalog
import TipcatCore
import TipcatJSON
import TipcatPlugin
import TipcatPlugins
import TipcatText

/// `tipcat generate NAME [-o DIR] [--check]`: run a generator plugin and write (or compare) its files.
struct GenerateCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        guard let name = arguments.positional("name") else {
            throw CommandError.usage("missing the generator's name", command: arguments.commandPath)
        }
        let options = try parseOptions(arguments.values("option"))
        let directory = arguments.value("catalog") ?? "Catalog"
        let check = CatalogCheck(directory: directory, context: context, externalPlugins: !arguments.flag("no-plugins"))
        let registry = check.registry
        guard let source = registry.generator(named: name) else {
            if registry.external.contains(where: { $0.spec.name == name && !$0.spec.enabled }) {
                throw CommandError.failure("generator '\(Sanitizer.terminalSafe(name))' is disabled in plugins.json (\"enabled\": false)")
            }
            let names = registry.generatorNames
            throw CommandError.failure("no generator named '\(Sanitizer.terminalSafe(name))'" + Suggestions.didYouMean(name, in: names)
                + "; generators: \(names.joined(separator: ", "))"
                + (arguments.flag("no-plugins") ? " (external plugins are off: --no-plugins)" : ""))
        }
        // Generators read a valid catalog; lint plugins are not needed for that.
        let catalog = try CatalogCheck(directory: directory, context: context, externalPlugins: false)
            .requireValid(purpose: "nothing was generated").result.catalog
        let output = arguments.value("output") ?? "Generated/\(name)"
        let host = PluginHost(registry: registry, catalogDirectory: directory)
        let files: [PluginFile]
        switch host.generate(source, name: name, catalog: catalog, options: options) {
        case .success(let generated): files = generated
        case .failure(let failure):
            let location = registry.external.first { $0.spec.name == name }?.spec.location
            context.stderr.write(DiagnosticFormat.text.render([Diagnostic(failure.description, rule: .pluginFailed, at: location)]))
            context.stderr.line("error: nothing was generated")
            throw CommandError.exit(.failure)
        }
        let generated = GeneratedFiles(outputDirectory: output, files: files)
        let problems = generated.problems()
        if !problems.isEmpty {
            for problem in problems {
                context.stderr.line("error: generator '\(name)' returned the path \(Sanitizer.terminalSafe(problem.description)) [\(DiagnosticRule.pluginBadPath.id)]")
            }
            context.stderr.line("error: \(problems.count) bad \(plural(problems.count, "path")); nothing was written")
            throw CommandError.exit(.failure)
        }
        if arguments.flag("check") {
            let differences = generated.differences()
            for difference in differences {
                switch difference {
                case .missing(let path): context.stdout.line("missing: \(Sanitizer.terminalSafe(output + "/" + path))")
                case .changed(let path):
                    context.stdout.line("differs: \(Sanitizer.terminalSafe(output + "/" + path))" + lineSummary(path, output: output, files: files))
                }
            }
            if differences.isEmpty {
                context.stderr.line("\(output): \(files.count) \(plural(files.count, "file")) up to date")
                return
            }
            let again = (["tipcat", "generate", name] + (directory == "Catalog" ? [] : ["--catalog", directory]) + ["-o", output]
                + arguments.values("option").flatMap { ["--option", $0] }).map(shellQuoted).joined(separator: " ")
            context.stderr.line("error: \(differences.count) of \(files.count) \(plural(files.count, "file")) out of date; run '\(Sanitizer.terminalSafe(again))'")
            throw CommandError.exit(.failure)
        }
        let changed: [String]
        do {
            changed = try generated.write()
        } catch {
            throw CommandError.failure("cannot write \(Sanitizer.terminalSafe(error.description)); no temporary file was left behind, "
                + "but files already moved into place stay (run the command again)")
        }
        for path in changed { context.stdout.line("wrote \(Sanitizer.terminalSafe(output + "/" + path))") }
        context.stderr.line("\(output): \(files.count) \(plural(files.count, "file")), \(changed.count) changed")
    }

    /// ` (+3 -1 lines)`: how the generated file differs from the one on disk, line by line.
    private func lineSummary(_ path: String, output: String, files: [PluginFile]) -> String {
        guard let new = files.first(where: { $0.path == path }),
              let data = FileManager.default.contents(atPath: output + "/" + path)
        else { return "" }
        let oldLines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let newLines = new.contents.split(separator: "\n", omittingEmptySubsequences: false)
        let difference = newLines.difference(from: oldLines)
        return " (+\(difference.insertions.count) -\(difference.removals.count) lines)"
    }

    /// `--option key=value`: the value is JSON when it parses as JSON (`3`, `true`, `["a"]`), else a string.
    private func parseOptions(_ texts: [String]) throws -> [String: PluginJSON] {
        var options: [String: PluginJSON] = [:]
        for text in texts {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw CommandError.usage("--option takes key=value, got '\(Sanitizer.terminalSafe(text))'", command: arguments.commandPath)
            }
            let key = String(text[..<equals])
            let value = String(text[text.index(after: equals)...])
            if let document = try? JSONDocument.parse(text: value) {
                options[key] = PluginJSON(document.root.value)
            } else {
                options[key] = .string(value)
            }
        }
        return options
    }
}

/// `text` as one shell word: as is when it is plain, else in single quotes.
func shellQuoted(_ text: String) -> String {
    let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
        scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(scalar) || "-_./=:,+@%".unicodeScalars.contains(scalar)
    }
    return plain ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
}
