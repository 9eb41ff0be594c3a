import TipcatArguments
import TipcatCatalog
import TipcatCore
import TipcatJSON

/// `tipcat list`: what the catalog holds, as text or JSON.
struct ListCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let directory = arguments.value("catalog") ?? "Catalog"
        let result = CatalogLoader().load(directory: directory)
        let catalog = result.catalog
        if result.diagnostics.hasErrors {
            context.stderr.line("warning: the catalog has errors; run 'tipcat validate --catalog \(directory)'; listing what could be read")
        }
        if arguments.flag("json") {
            context.stdout.json(json(catalog))
        } else {
            context.stdout.write(text(catalog))
        }
    }

    private func text(_ catalog: Catalog) -> String {
        var out = "\(catalog.settings.name) — source \(catalog.settings.sourceLanguage), locales "
            + catalog.settings.supportedLocales.map(\.description).joined(separator: ", ")
            + ", display frequency \(catalog.settings.displayFrequency)"
            + (catalog.settings.enabled ? "" : " (DISABLED)") + "\n"
        out += "\nTips (\(catalog.tips.count)):\n"
        let idWidth = min(32, catalog.tips.map { $0.id.rawValue.count }.max() ?? 0)
        for tip in catalog.tips {
            let group = catalog.group(containing: tip.id).map { " [\($0.id)]" } ?? ""
            let rules = tip.rules.isEmpty ? "" : " — \(tip.rules.count) \(plural(tip.rules.count, "rule"))"
            out += "  \(pad(tip.id.rawValue, idWidth))  \(tip.title.source)\(group)\(rules)\n"
        }
        out += "\nGroups (\(catalog.groups.count)):\n"
        for group in catalog.groups {
            out += "  \(group.id) (\(group.priority.rawValue)): \(group.tips.map(\.rawValue).joined(separator: " → "))\n"
        }
        out += "\nEvents (\(catalog.events.count)):\n"
        for event in catalog.events {
            let fields = event.fields.isEmpty ? "" : " {" + event.fields.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + "}"
            out += "  #\(event.id)\(fields)\n"
        }
        out += "\nParameters (\(catalog.parameters.count)):\n"
        for parameter in catalog.parameters {
            out += "  $\(parameter.name): \(parameter.type) = \(parameter.defaultValue)"
                + (parameter.lifetime == .transient ? " (transient)" : "") + "\n"
        }
        return out
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private func json(_ catalog: Catalog) -> JSONValue {
        .object([
            ("name", .string(catalog.settings.name)),
            ("sourceLanguage", .string(catalog.settings.sourceLanguage.description)),
            ("supportedLocales", .array(catalog.settings.supportedLocales.map { .string($0.description) })),
            ("displayFrequency", .string(catalog.settings.displayFrequency.description)),
            ("enabled", .bool(catalog.settings.enabled)),
            ("tips", .array(catalog.tips.map { tip in
                var pairs: [(String, JSONValue)] = [("id", .string(tip.id.rawValue))]
                if let custom = tip.customID { pairs.append(("customID", .string(custom.source))) }
                pairs.append(("title", .string(tip.title.source)))
                if let message = tip.message { pairs.append(("message", .string(message.source))) }
                pairs.append(("image", tip.image.map(JSONValue.string) ?? .null))
                if let group = catalog.group(containing: tip.id) { pairs.append(("group", .string(group.id.rawValue))) }
                pairs.append(("rules", .array(tip.rules.map { .string($0.source) })))
                pairs.append(("parameters", .array(tip.parameters.map { parameter in
                    .object([("name", .string(parameter.name)), ("type", .string(parameter.type.description))])
                })))
                pairs.append(("options", .object([
                    ("maxDisplayCount", tip.options.maxDisplayCount.map(JSONValue.int) ?? .null),
                    ("maxDisplayDuration", tip.options.maxDisplayDuration.map { JSONValue.seconds($0.seconds) } ?? .null),
                    ("ignoresDisplayFrequency", .bool(tip.options.ignoresDisplayFrequency)),
                ])))
                pairs.append(("actions", .array(tip.actions.map { action in
                    .object([("id", .string(action.id)), ("title", .string(action.title.source))])
                })))
                pairs.append(("file", .string(tip.file)))
                return .object(pairs)
            })),
            ("groups", .array(catalog.groups.map { group in
                .object([
                    ("id", .string(group.id.rawValue)), ("priority", .string(group.priority.rawValue)),
                    ("tips", .array(group.tips.map { .string($0.rawValue) })),
                ])
            })),
            ("events", .array(catalog.events.map { event in
                .object([
                    ("id", .string(event.id.rawValue)),
                    ("fields", .object(event.fields.map { ($0.name, .string($0.type.description)) })),
                ])
            })),
            ("parameters", .array(catalog.parameters.map { parameter in
                .object([
                    ("name", .string(parameter.name.rawValue)), ("type", .string(parameter.type.description)),
                    ("default", .string(parameter.defaultValue.description)), ("lifetime", .string(parameter.lifetime.rawValue)),
                ])
            })),
        ])
    }
}

extension JSONValue {
    /// A number of seconds: an int when whole, else a double.
    static func seconds(_ value: Double) -> JSONValue {
        if value.rounded() == value, abs(value) < 1e15 { return .int(Int(value)) }
        return JSONNumber(value).map(JSONValue.number) ?? .null
    }
}
