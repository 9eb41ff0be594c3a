import TipcatArguments
import TipcatCatalog
import TipcatCore
import TipcatJSON
import TipcatPlugin
import TipcatPlugins
import TipcatText

/// `tipcat plugins list|describe|check`.
struct PluginsCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    private var directory: String { arguments.value("catalog") ?? "Catalog" }

    private var registry: PluginRegistry {
        PluginRegistry(
            catalogDirectory: directory, templatesDirectory: arguments.value("templates") ?? "Templates",
            environment: context.environment, commands: ExternalCommands.discover(environment: context.environment),
            tipcatVersion: tipcatVersion)
    }

    // MARK: list

    func list() throws {
        let registry = self.registry
        let host = PluginHost(registry: registry, catalogDirectory: directory)
        let enabled = registry.external.filter(\.spec.enabled)
        let versions = Dictionary(
            zip(enabled.map(\.spec.name), host.describeAll(enabled).map { try? $0.get().version }), uniquingKeysWith: { a, _ in a })
        var entries = registry.entries
        for index in entries.indices where entries[index].version == nil {
            if let version = versions[entries[index].name] ?? nil { entries[index].version = version }
        }
        if arguments.flag("json") {
            let items: [JSONValue] = entries.map { entry in
                var pairs: [(String, JSONValue)] = [
                    ("name", .string(entry.name)),
                    ("kinds", .array(entry.kinds.map { .string($0.rawValue) })),
                    ("origin", .string(entry.origin.label)),
                    ("version", entry.version.map(JSONValue.string) ?? .null),
                    ("path", entry.origin.path.map(JSONValue.string) ?? .null),
                    ("enabled", .bool(entry.enabled)),
                    ("summary", .string(entry.summary)),
                ]
                if case .external(let command, _) = entry.origin {
                    pairs.append(("command", .array(command.map(JSONValue.string))))
                }
                return .object(pairs)
            }
            context.stdout.json(JSONValue.object([("plugins", .array(items))]))
            return
        }
        let rows = entries.map { entry -> [String] in
            [
                entry.name + (entry.enabled ? "" : " (disabled)"),
                entry.kinds.isEmpty ? "command" : entry.kinds.map(\.rawValue).joined(separator: ","),
                entry.origin.label,
                entry.version ?? "-",
                entry.origin.path ?? "-",
            ].map(Sanitizer.terminalSafe)
        }
        context.stdout.write(table(header: ["NAME", "KINDS", "ORIGIN", "VERSION", "PATH"], rows: rows))
        if !registry.diagnostics.isEmpty {
            context.stderr.write(DiagnosticFormat.text.render(registry.diagnostics))
        }
    }

    // MARK: describe

    func describe() throws {
        guard let name = arguments.positional("name") else {
            throw CommandError.usage("missing the plugin's name", command: arguments.commandPath)
        }
        let registry = self.registry
        guard let entry = registry.entries.first(where: { $0.name == name }) else {
            throw CommandError.failure("no plugin named '\(Sanitizer.terminalSafe(name))'"
                + Suggestions.didYouMean(name, in: registry.entries.map(\.name)) + "; see 'tipcat plugins list'")
        }
        var pairs: [(String, JSONValue)] = [
            ("name", .string(entry.name)),
            ("kinds", .array(entry.kinds.map { .string($0.rawValue) })),
            ("origin", .string(entry.origin.label)),
            ("path", entry.origin.path.map(JSONValue.string) ?? .null),
            ("summary", .string(entry.summary)),
        ]
        var lines: [String] = []
        if entry.name == PluginRegistry.builtInLintName {
            pairs.append(("version", .string(tipcatVersion)))
            pairs.append(("rules", .array(registry.lintRules.map { rule in
                .object([("id", .string(rule.description.id)), ("severity", .string(rule.description.severity.rawValue)),
                         ("summary", .string(rule.description.summary))])
            })))
            lines += registry.lintRules.map { "  \($0.description.id) (\($0.description.severity.rawValue)): \($0.description.summary)" }
        } else if let plugin = registry.external.first(where: { $0.spec.name == name }) {
            pairs += [
                ("command", .array(plugin.spec.commandLine.map(JSONValue.string))),
                ("timeout", .double(plugin.spec.timeout)),
                ("enabled", .bool(plugin.spec.enabled)),
                ("options", JSONValue(plugin.spec.options)),
            ]
            switch PluginHost(registry: registry, catalogDirectory: directory).describe(plugin) {
            case .success(let description):
                pairs += [("version", .string(description.version)),
                          ("described", .object([
                            ("name", .string(description.name)),
                            ("kinds", .array(description.kinds.map { .string($0.rawValue) })),
                            ("summary", description.summary.map(JSONValue.string) ?? .null),
                            ("options", description.options.map { JSONValue($0) } ?? .null),
                          ]))]
                lines.append("  version \(description.version): \(description.summary ?? "")")
                if let options = description.options {
                    lines.append("  options schema: " + JSONValue(options).serialized())
                }
            case .failure(let failure):
                pairs.append(("error", .string(failure.description)))
                lines.append("  describe failed: \(failure.description)")
            }
            lines.append("  command: \(plugin.spec.commandLine.joined(separator: " ")) (timeout \(formatSeconds(plugin.spec.timeout)))")
            if !plugin.spec.options.isEmpty { lines.append("  configured options: " + JSONValue(plugin.spec.options).serialized()) }
        } else {
            pairs.append(("version", entry.version.map(JSONValue.string) ?? .null))
        }
        if arguments.flag("json") {
            context.stdout.json(JSONValue.object(pairs))
            return
        }
        let kinds = entry.kinds.isEmpty ? "command" : entry.kinds.map(\.rawValue).joined(separator: ", ")
        var text = ["\(entry.name) — \(kinds), \(entry.origin.label)" + (entry.origin.path.map { " (\($0))" } ?? ""),
                    "  \(entry.summary)"]
        text += lines
        context.stdout.write(text.map(Sanitizer.terminalSafe).joined(separator: "\n") + "\n")
    }

    // MARK: check

    func check() throws {
        let registry = self.registry
        var problems = registry.diagnostics + registry.unstartable
        let host = PluginHost(registry: registry, catalogDirectory: directory)
        let enabled = registry.external.filter { $0.spec.enabled && $0.executable != nil }
        var report: [String] = []
        for (plugin, result) in zip(enabled, host.describeAll(enabled)) {
            switch result {
            case .failure(let failure):
                problems.append(Diagnostic(failure.description, rule: .pluginFailed, at: plugin.spec.location))
            case .success(let description):
                let missing = plugin.spec.kinds.filter { !description.kinds.contains($0) }
                if !missing.isEmpty {
                    problems.append(Diagnostic(
                        "plugins.json gives plugin '\(plugin.spec.name)' the kinds \(missing.map(\.rawValue).joined(separator: ", ")), "
                            + "but it describes itself as doing \(description.kinds.map(\.rawValue).joined(separator: ", "))",
                        rule: .pluginFailed, at: plugin.spec.location))
                } else {
                    report.append("ok  \(plugin.spec.name) \(description.version) (\(plugin.spec.kinds.map(\.rawValue).joined(separator: ", ")))")
                }
            }
        }
        let sorted = problems.sortedForOutput()
        if arguments.flag("json") {
            context.stdout.write(DiagnosticFormat.json.render(sorted))
        } else {
            for line in report { context.stdout.line(Sanitizer.terminalSafe(line)) }
            context.stdout.write(DiagnosticFormat.text.render(sorted))
            let count = registry.external.count
            context.stderr.line("\(registry.configurationFile): \(count) external \(plural(count, "plugin")) — "
                + (sorted.isEmpty ? "no problems" : "\(sorted.count) \(plural(sorted.count, "problem"))"))
        }
        if sorted.contains(where: { $0.severity == .error }) { throw CommandError.exit(.failure) }
    }

    private func table(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        var widths = [Int](repeating: 0, count: header.count)
        for row in all {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}

extension JSONValue {
    /// A plugin-protocol JSON value as a TipcatJSON value (keys sorted).
    init(_ json: PluginJSON) {
        switch json {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .array(let values): self = .array(values.map { JSONValue($0) })
        case .object(let members): self = .object(members.sorted { $0.key < $1.key }.map { ($0.key, JSONValue($0.value)) })
        }
    }

    init(_ options: [String: PluginJSON]) { self.init(PluginJSON.object(options)) }
}
