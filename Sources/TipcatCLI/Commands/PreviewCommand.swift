import Foundation
import Synchronization
import TipcatArguments
import TipcatCatalog
import TipcatCore
import TipcatJSON
import TipcatLocalization
import TipcatPlugins
import TipcatPreview
import TipcatRender
import TipcatText
#if canImport(Glibc)
import Glibc
#endif

/// `tipcat preview`: the HTML gallery of every tip × locale, written as a static site, or served with live reload.
struct PreviewCommand {
    let arguments: ParsedArguments
    let context: CommandContext
    static let command = ["tipcat", "preview"]

    var catalogDirectory: String { arguments.value("catalog") ?? "Catalog" }
    var templatesDirectory: String { arguments.value("templates") ?? "Templates" }
    var outputDirectory: String { arguments.value("output") ?? ".tipcat/preview" }

    func run() throws {
        let serve = arguments.flag("serve")
        let port = try self.port()
        if !serve, arguments.optionValues["port"]?.isEmpty == false {
            throw CommandError.usage("--port is for --serve", command: Self.command)
        }
        if serve, arguments.flag("json") {
            throw CommandError.usage("--json prints one generation's summary; it cannot be used with --serve", command: Self.command)
        }
        if arguments.flag("all-locales"), arguments.optionValues["locale"]?.isEmpty == false {
            throw CommandError.usage("use --locale or --all-locales, not both", command: Self.command)
        }
        _ = try DeviceOption.device(in: arguments)  // a usage error before any work
        for (name, directory) in [("catalog", catalogDirectory), ("templates", templatesDirectory)] where Self.isInside(outputDirectory, directory) {
            throw CommandError.failure("the output directory '\(outputDirectory)' is inside the \(name) directory '\(directory)'; write the site elsewhere (-o)")
        }
        if serve {
            try self.serve(port: port)
            return
        }
        let generated = try generate(version: 1, liveReload: false)
        try commit(generated)
        report(generated.summary)
    }

    /// Whether `path` is `directory` or inside it, once both are absolute and standardized.
    static func isInside(_ path: String, _ directory: String) -> Bool {
        let child = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        let parent = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path
        return child == parent || child.hasPrefix(parent.hasSuffix("/") ? parent : parent + "/")
    }

    /// `--port N`: 0 to 65535.
    private func port() throws -> UInt16 {
        let text = arguments.value("port") ?? "8765"
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), text.utf8.count <= 5,
              let number = Int(text), number <= 65535
        else {
            throw CommandError.usage("--port takes a number from 0 to 65535 (0: any free port), found '\(text)'", command: Self.command)
        }
        return UInt16(number)
    }

    // MARK: Generating

    struct Generated {
        var summary: PreviewSummary
        var directory: SiteDirectory
        var files: [String: [UInt8]]
    }

    /// Loads and checks the catalog, renders the site into a staging directory (and, when serving, memory).
    private func generate(version: Int, liveReload: Bool) throws -> Generated {
        let check = CatalogCheck(directory: catalogDirectory, context: context, externalPlugins: !arguments.flag("no-plugins"))
        let outcome = check.run()
        if let missing = outcome.diagnostics.first(where: { $0.ruleID == DiagnosticRule.catalogNotFound.id }) {
            throw CommandError.failure(missing.message)
        }
        let catalog = outcome.result.catalog
        let locales = try self.locales(in: catalog)
        let device = try DeviceOption.device(in: arguments)
        let registry = PluginRegistry.styles(templatesDirectory: templatesDirectory)
        let style: Style
        do {
            style = try registry.style(named: "html")
        } catch {
            let details = error.diagnostics.map(\.description).joined(separator: "\n")
            throw CommandError.failure(error.message + (details.isEmpty ? "" : "\n" + details))
        }
        guard style.manifest.output == .html else {
            throw CommandError.failure("the style 'html' in \(templatesDirectory) has output '\(style.manifest.output.rawValue)'; preview needs an html style")
        }
        let stylesheet = style.stylesheet ?? (try? StyleRegistry(directory: nil).style(named: "html"))?.stylesheet ?? ""
        let site = PreviewSite(
            catalog: catalog, diagnostics: outcome.diagnostics, style: style, stylesheet: stylesheet,
            options: PreviewOptions(locales: locales, device: device, liveReload: liveReload, version: version, catalogDirectory: catalogDirectory))
        let directory: SiteDirectory
        do {
            directory = try SiteDirectory(path: outputDirectory)
        } catch {
            throw CommandError.failure(error.message)
        }
        let memory = Mutex<[String: [UInt8]]>([:])
        do {
            let summary = try site.generate { path, bytes in
                try directory.write(path, bytes)
                if liveReload { memory.withLock { $0[path] = bytes } }
            }
            ProcessLifetime.keepUntilExit(outcome.result)
            return Generated(summary: summary, directory: directory, files: memory.withLock { $0 })
        } catch let error as SiteWriteError {
            directory.discard()
            throw CommandError.failure(error.message)
        } catch {
            directory.discard()
            throw error
        }
    }

    private func commit(_ generated: Generated) throws {
        do {
            try generated.directory.commit()
        } catch {
            throw CommandError.failure(error.message)
        }
    }

    private func report(_ summary: PreviewSummary) {
        if arguments.flag("json") {
            context.stdout.json(.object([
                ("output", .string(outputDirectory)),
                ("index", .string(outputDirectory + "/index.html")),
                ("tips", .int(summary.tips)),
                ("locales", .array(summary.locales.map { .string($0.identifier) })),
                ("files", .int(summary.files)),
                ("renderFailures", .int(summary.renderFailures)),
                ("errors", .int(summary.errors)),
                ("warnings", .int(summary.warnings)),
            ]))
            notes(summary)
            return
        }
        let tips = "\(summary.tips) \(plural(summary.tips, "tip"))"
        let locales = "\(summary.locales.count) \(plural(summary.locales.count, "locale")) (" + summary.locales.map(\.identifier).joined(separator: ", ") + ")"
        context.stdout.line("wrote \(outputDirectory)/index.html: " + tips + " × " + locales + ", \(summary.files) files")
        notes(summary)
    }

    private func notes(_ summary: PreviewSummary) {
        if summary.errors + summary.warnings > 0 {
            context.stderr.line("note: \(catalogDirectory) has \(summary.errors) \(plural(summary.errors, "error")) and \(summary.warnings) \(plural(summary.warnings, "warning")); the gallery shows them beside their tips")
        }
        if summary.renderFailures > 0 {
            context.stderr.line("note: \(summary.renderFailures) tip × locale \(plural(summary.renderFailures, "cell")) could not be rendered; the gallery shows why")
        }
    }

    /// The locales to show: `--locale` values (checked like `render --locale`), else every supported locale and the
    /// pseudo-locales.
    private func locales(in catalog: Catalog) throws -> [LocaleID] {
        let source = catalog.settings.sourceLanguage
        let given = arguments.optionValues["locale"] ?? []
        var result: [LocaleID] = []
        func add(_ locale: LocaleID) { if !result.contains(locale) { result.append(locale) } }
        if given.isEmpty {
            add(source)
            catalog.settings.supportedLocales.forEach(add)
            PseudoLocale.allCases.compactMap { LocaleID($0.identifier) }.forEach(add)
            return result
        }
        let supported = Set(catalog.settings.supportedLocales)
        for text in given {
            guard let locale = LocaleID(text) else {
                throw CommandError.usage("'\(text)' is not a locale identifier; use a language code such as 'fr', 'fr-CA' or 'ja'", command: Self.command)
            }
            let chain = locale.fallbackChain(sourceLanguage: source)
            guard locale == source || PseudoLocale(locale) != nil || chain.dropLast().contains(where: supported.contains) else {
                throw CommandError.failure(
                    "unknown locale '\(locale)': the catalog supports \(catalog.settings.supportedLocales.map(\.identifier).joined(separator: ", ")) (and the pseudo-locales en-XA, ar-XB)"
                        + Suggestions.didYouMean(locale.identifier, in: catalog.settings.supportedLocales.map(\.identifier)))
            }
            add(locale)
        }
        return result
    }

    // MARK: --serve

    private func serve(port: UInt16) throws {
        // The port first: when it is taken, nothing is written.
        let server = PreviewServer(site: ServedSite(files: [:], version: 0))
        do {
            try server.start(port: port)
        } catch {
            throw CommandError.failure(error.message)
        }
        defer { server.stop() }
        var version = 1
        var generated = try generate(version: version, liveReload: true)
        try commit(generated)
        server.update(ServedSite(files: generated.files, version: version))
        PreviewSignals.install()
        let url = "http://127.0.0.1:\(server.port)/"
        context.stdout.line("serving \(outputDirectory) at \(url) (Ctrl-C to stop)")
        context.stdout.flush()
        notes(generated.summary)
        context.stderr.flush()
        let watched = [catalogDirectory, templatesDirectory]
        var last = FileSnapshot(paths: watched)
        var checked = Date()
        while !PreviewSignals.stop.load(ordering: .relaxed) {
            usleep(50_000)
            guard Date().timeIntervalSince(checked) >= 0.3 else { continue }
            checked = Date()
            let now = FileSnapshot(paths: watched)
            guard now != last else { continue }
            last = now
            version += 1
            do {
                generated = try generate(version: version, liveReload: true)
                try commit(generated)
                server.update(ServedSite(files: generated.files, version: version))
                context.stderr.line("regenerated \(outputDirectory) (version \(version))")
                notes(generated.summary)
            } catch let error as any TipcatError where error.exitStatus != .usage {
                _ = TipcatCommand.report(error, commandPath: Self.command, parser: ArgumentParser(root: CommandTree.root), context: context)
                context.stderr.line("still serving the previous version")
            }
            context.stderr.flush()
        }
        server.stop()
        context.stderr.line("stopped")
    }
}

/// SIGINT and SIGTERM end `preview --serve` cleanly: the handler only sets a flag the serving loop reads.
enum PreviewSignals {
    static let stop = Atomic<Bool>(false)

    static func install() {
        stop.store(false, ordering: .relaxed)
        // A parent may have started this process with the signals blocked (posix_spawn keeps the mask).
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        signal(SIGINT) { _ in PreviewSignals.stop.store(true, ordering: .relaxed) }
        signal(SIGTERM) { _ in PreviewSignals.stop.store(true, ordering: .relaxed) }
    }
}

extension TextOutput {
    /// Writes buffered text now (a file descriptor's buffer; captured output has none).
    func flush() {
        (unfiltered as? FileOutput)?.flush()
    }
}
