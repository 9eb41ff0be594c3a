import Foundation
import TipcatArguments
import TipcatCatalog
import TipcatCore
import TipcatJSON
import TipcatLocalization
import TipcatPlugins
import TipcatRender
import TipcatTemplates
import TipcatText

/// `tipcat render`: preview tips in a style, a locale and with parameters — optionally re-rendering on change.
struct RenderCommand {
    let arguments: ParsedArguments
    let context: CommandContext
    static let command = ["tipcat", "render"]

    func run() throws {
        if arguments.flag("watch") {
            guard !arguments.flag("json") else {
                throw CommandError.usage("--json prints one rendering; it cannot be used with --watch", command: Self.command)
            }
            try watch()
        } else if arguments.flag("json") {
            context.stdout.json(try renderJSON())
        } else {
            try write(renderEach())
        }
    }

    /// `render --json`: `{"style", "output", "locale", "tips": [{"id", "text"}]}`.
    func renderJSON() throws -> JSONValue {
        let rendered = try renderEach()
        return .object([
            ("style", .string(rendered.style.name)),
            ("output", .string(rendered.style.manifest.output.rawValue)),
            ("locale", .string(rendered.locale.description)),
            ("tips", .array(rendered.tips.map { .object([("id", .string($0.id)), ("text", .string($0.text))]) })),
        ])
    }

    /// The tips, joined by newlines, written tip by tip (thousands of tips are never copied into one string, nor
    /// that string into the output's buffer). ANSI output keeps its escape sequences (the style's escaper made the
    /// values safe); other output passes through the terminal-safe filter like every command's text.
    private func write(_ rendered: (style: Style, locale: LocaleID, tips: [(id: String, text: String)])) {
        let output = rendered.style.manifest.output == .ansi ? context.stdout.unfiltered : context.stdout
        for (index, tip) in rendered.tips.enumerated() {
            if index > 0 { output.write("\n") }
            output.write(tip.text)
        }
    }

    /// Each selected tip rendered, with the style and locale used; the catalog is loaded fresh (so `--watch`
    /// sees edits).
    func renderEach() throws -> (style: Style, locale: LocaleID, tips: [(id: String, text: String)]) {
        let catalogDirectory = arguments.value("catalog") ?? "Catalog"
        // Only errors stop a render, and it shows no warnings: checks that can only warn are not run.
        var loader = CatalogLoader()
        loader.checksOnlyForErrors = true
        // Only the translations this rendering can show are decoded and checked (an invalid --locale is reported
        // once the catalog's locales are known).
        loader.translations = .shownIn(arguments.value("locale").flatMap(LocaleID.init))
        let loaded = loader.load(directory: catalogDirectory)
        ProcessLifetime.keepUntilExit(loaded)  // not freed just before the process exits
        let errors = loaded.diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty {
            let shown = errors.prefix(5).map(\.description).joined(separator: "\n")
            throw CommandError.failure("the catalog has \(errors.count) \(plural(errors.count, "error")); fix them first (tipcat validate --catalog \(catalogDirectory)):\n\(shown)")
        }
        let catalog = loaded.catalog
        let registry = PluginRegistry.styles(templatesDirectory: arguments.value("templates") ?? "Templates")
        let style: Style
        do {
            style = try registry.style(named: arguments.value("style") ?? "plain")
        } catch {
            let details = error.diagnostics.map(\.description).joined(separator: "\n")
            throw CommandError.failure(error.message + (details.isEmpty ? "" : "\n" + details))
        }
        let locale = try self.locale(in: catalog)
        let device = try DeviceOption.device(in: arguments)
        let tips = try selectedTips(in: catalog)
        let renderer = TipRenderer(style: style, settings: try .forOutput(of: style, arguments: arguments, context: context))
        let resolver = TipResolver(catalog: catalog)
        let given = try parameters(for: tips)
        // Tips render independently: chunks on every core, outputs (and the first failure) in catalog order.
        let useExample = tips.count > 1
        let chunks = concurrentChunks(count: tips.count, chunkSize: 64) { range in
            range.map { index -> Result<(id: String, text: String), any Error> in
                let tip = tips[index]
                do {
                    let resolved = try resolver.resolve(tip, locale: locale, parameters: given[tip.id] ?? [:],
                                                        useExample: useExample || given[tip.id] == nil, device: device)
                    return .success((tip.id.rawValue, try renderer.render(resolved)))
                } catch {
                    return .failure(error)
                }
            }
        }
        var outputs: [(id: String, text: String)] = []
        outputs.reserveCapacity(tips.count)
        for chunk in chunks {
            for result in chunk { outputs.append(try result.get()) }
        }
        return (style, locale, outputs)
    }

    private func locale(in catalog: Catalog) throws -> LocaleID {
        guard let text = arguments.value("locale") else { return catalog.settings.sourceLanguage }
        guard let locale = LocaleID(text) else {
            throw CommandError.usage("'\(text)' is not a locale identifier; use a language code such as 'fr', 'fr-CA' or 'ja'", command: Self.command)
        }
        let supported = Set(catalog.settings.supportedLocales)
        let chain = locale.fallbackChain(sourceLanguage: catalog.settings.sourceLanguage)
        guard locale == catalog.settings.sourceLanguage || PseudoLocale(locale) != nil || chain.dropLast().contains(where: supported.contains) else {
            throw CommandError.failure(
                "unknown locale '\(locale)': the catalog supports \(catalog.settings.supportedLocales.map(\.identifier).joined(separator: ", ")) (and the pseudo-locales en-XA, ar-XB)"
                    + Suggestions.didYouMean(locale.identifier, in: catalog.settings.supportedLocales.map(\.identifier)))
        }
        return locale
    }

    private func selectedTips(in catalog: Catalog) throws -> [Tip] {
        let ids = arguments.values("tip-id")
        let all = arguments.flag("all")
        let group = arguments.value("group")
        let selectors = (ids.isEmpty ? 0 : 1) + (all ? 1 : 0) + (group == nil ? 0 : 1)
        guard selectors == 1 else {
            throw CommandError.usage(selectors == 0 ? "name the tips to render, or use --all or --group" : "use tip ids, --all or --group, not several", command: Self.command)
        }
        if all { return catalog.tips }
        if let group {
            guard let found = catalog.group(GroupID(group)) else {
                throw CommandError.failure("unknown group '\(group)'" + Suggestions.didYouMean(group, in: catalog.groups.map(\.id.rawValue)))
            }
            return found.tips.compactMap(catalog.tip)
        }
        let resolver = TipResolver(catalog: catalog)
        var tips: [Tip] = []
        for id in ids {
            tips.append(try resolver.tip(id))
        }
        return tips
    }

    /// `--param name=value` (repeatable) and `--params-file F.json`, type-checked against each tip.
    private func parameters(for tips: [Tip]) throws -> [TipID: [String: Value]] {
        let pairs = try arguments.values("param").map { item -> (name: String, text: String) in
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw CommandError.usage("--param takes name=value, found '\(item)'", command: Self.command)
            }
            return (String(item[..<equals]), String(item[item.index(after: equals)...]))
        }
        var fileValues: JSONObject?
        if let path = arguments.value("params-file") {
            let bytes = try DiskFileSystem().read(path)
            let source = SourceFile(path: path, bytes: bytes)
            let document: JSONDocument
            do {
                document = try JSONDocument.parse(source)
            } catch {
                // The parser knows the byte; the file gives it a line and column.
                throw InputError(message: error.message, location: error.location(in: source), ruleID: DiagnosticRule.invalidJSON.id)
            }
            guard case .object(let object) = document.root.value else {
                throw InputError(
                    message: "a params file must hold a JSON object of parameter values",
                    location: document.location(of: document.root), ruleID: nil)
            }
            fileValues = object
        }
        guard !pairs.isEmpty || fileValues != nil else { return [:] }
        var result: [TipID: [String: Value]] = [:]
        for tip in tips {
            var values: [String: Value] = [:]
            for member in fileValues?.members ?? [] {
                guard let type = tip.parameter(member.key) else {
                    if tips.count == 1 { throw CommandError.failure(ResolveError.unknownParameter(tip: tip.id, name: member.key, suggestion: Suggestions.closest(to: member.key, in: tip.parameters.map(\.name))).description) }
                    continue
                }
                if case .null = member.value.value, type.isOptional { continue }  // absent
                guard let value = ParameterValues.value(member.value, as: type) else {
                    throw CommandError.failure("parameter '\(member.key)' of \(tip.id) must be \(type) (in \(arguments.value("params-file") ?? ""))")
                }
                values[member.key] = value
            }
            let applicable = tips.count == 1 ? pairs : pairs.filter { tip.parameter(String($0.name.split(separator: ".").first ?? "")) != nil }
            values.merge(try ParameterValues.assemble(applicable, for: tip)) { _, new in new }
            // `--param name=` leaves an optional parameter absent, even when the params file gives it a value.
            for pair in applicable where pair.text.isEmpty && tip.parameter(pair.name)?.isOptional == true {
                values[pair.name] = nil
            }
            result[tip.id] = values
        }
        return result
    }

    // MARK: --watch

    private func watch() throws {
        let paths = [arguments.value("catalog") ?? "Catalog", arguments.value("templates") ?? "Templates"]
        var last = FileSnapshot(paths: paths)
        while true {
            if context.stdout.isTerminal { context.stdout.unfiltered.write("\u{1B}[H\u{1B}[2J") }
            do {
                try write(renderEach())
            } catch let error as any TipcatError where error.exitStatus != .usage {
                // Printed as the funnel prints it, and the watch goes on.
                _ = TipcatCommand.report(error, commandPath: Self.command, parser: ArgumentParser(root: CommandTree.root), context: context)
            }
            context.stderr.line("watching \(paths.joined(separator: " and ")) for changes (Ctrl-C to stop)…")
            while true {
                usleep(300_000)
                let now = FileSnapshot(paths: paths)
                if now != last {
                    last = now
                    break
                }
            }
        }
    }
}

/// The modification times and sizes of every file under some directories: polling is enough to notice edits.
struct FileSnapshot: Equatable {
    var files: [String: [Int]]

    init(paths: [String]) {
        var files: [String: [Int]] = [:]
        let manager = FileManager.default
        for root in paths {
            guard let enumerator = manager.enumerator(atPath: root) else { continue }
            while let relative = enumerator.nextObject() as? String {
                let path = root + "/" + relative
                guard let attributes = try? manager.attributesOfItem(atPath: path) else { continue }
                let modified = (attributes[.modificationDate] as? Date).map { Int($0.timeIntervalSince1970 * 1000) } ?? 0
                let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
                files[path] = [modified, size]
            }
        }
        self.files = files
    }
}

/// `tipcat styles`: every style and where it comes from.
struct StylesCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let registry = PluginRegistry.styles(templatesDirectory: arguments.value("templates") ?? "Templates")
        if arguments.flag("json") {
            context.stdout.json(.object([
                ("styles", .array(registry.styles.map { style in
                    let origin: String
                    switch style.origin {
                    case .builtIn: origin = "built-in"
                    case .directory(let path): origin = path
                    }
                    return .object([
                        ("name", .string(style.name)), ("output", .string(style.manifest.output.rawValue)),
                        ("escaper", .string(style.manifest.escaper.rawValue)), ("description", .string(style.manifest.description)),
                        ("origin", .string(origin)),
                    ])
                })),
                ("problems", .array(registry.diagnostics.map { .string($0.description) })),
            ]))
            return
        }
        let width = registry.styles.map(\.name.count).max() ?? 0
        for style in registry.styles {
            let origin: String
            switch style.origin {
            case .builtIn: origin = "built-in"
            case .directory(let path): origin = path
            }
            context.stdout.line("\(style.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(style.manifest.output.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))  \(style.manifest.description) [\(origin)]")
        }
        for diagnostic in registry.diagnostics { context.stderr.line(diagnostic.description) }
    }
}

/// `tipcat template cat|which NAME`: a style's main template, or where it is.
struct TemplateCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let action = arguments.positional("action") ?? ""
        let registry = PluginRegistry.styles(templatesDirectory: arguments.value("templates") ?? "Templates")
        let style: Style
        style = try registry.style(named: arguments.positional("style") ?? "")
        if arguments.flag("json"), action == "cat" || action == "which" {
            context.stdout.json(.object([
                ("style", .string(style.name)), ("path", .string(style.templatePath)), ("source", .string(style.templateSource)),
            ]))
            return
        }
        switch action {
        case "cat": context.stdout.write(style.templateSource)
        case "which": context.stdout.line(style.templatePath)
        default: throw CommandError.usage("unknown action '\(action)'; use cat or which", command: ["tipcat", "template"])
        }
    }
}
