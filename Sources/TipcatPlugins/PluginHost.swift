import Foundation
public import TipcatCatalog
public import TipcatCore
public import TipcatPlugin
import Synchronization
import TipcatText

/// Runs plugins for the commands: lint for `validate`, hooks for `publish`, generators for `generate`.
///
/// External plugins run concurrently, each bounded in time and output; whatever they answer is data —
/// checked, located and sanitized before it becomes a finding.
public struct PluginHost: Sendable {
    public var registry: PluginRegistry
    /// The catalog directory as the user named it (findings print paths under it).
    public var catalogDirectory: String

    public init(registry: PluginRegistry, catalogDirectory: String) {
        self.registry = registry
        self.catalogDirectory = catalogDirectory
    }

    /// Starts the lint plugins now — before the catalog is loaded — so their start-up overlaps the load.
    public func startLint() -> PendingLint {
        let plugins = registry.external(.lint)
        return PendingLint(host: self, plugins: plugins, children: concurrently(plugins.count) { plugins[$0].start() })
    }

    /// Lint plugins started and waiting for their request.
    public struct PendingLint: Sendable {
        let host: PluginHost
        let plugins: [ExternalPlugin]
        let children: [Result<RunningChild, PluginFailure>]

        /// True when no lint plugin is configured.
        public var isEmpty: Bool { plugins.isEmpty }

        /// Sends the catalog to every started plugin and collects what they find.
        public func finish(_ catalog: Catalog) -> [Diagnostic] {
            guard !plugins.isEmpty else { return [] }
            let encoder = PluginRequestEncoder(catalog: catalog, tipcatVersion: host.registry.tipcatVersion)
            let outcomes = concurrently(plugins.count) { index in
                children[index].flatMap { child in
                    plugins[index].finish(child, request: encoder.requestPieces(kind: .lint, plugin: plugins[index].spec.name,
                                                                                options: plugins[index].spec.options), kind: .lint)
                }
            }
            return host.diagnostics(for: plugins, outcomes: outcomes)
        }

        /// Stops the started plugins without asking them anything (the catalog could not be loaded).
        public func cancel() {
            for case .success(let child) in children { child.cancel() }
        }
    }

    /// Runs the pre-publish hooks: any error finding (or failure) vetoes the publish.
    public func prePublish(_ catalog: Catalog, event: PublishEvent) -> [Diagnostic] {
        let plugins = registry.external(.prePublish)
        guard !plugins.isEmpty else { return [] }
        return run(plugins, kind: .prePublish, encoder: PluginRequestEncoder(catalog: catalog, tipcatVersion: registry.tipcatVersion), publish: event)
    }

    /// Runs the post-publish hooks; everything they report is at most a warning (the version stays committed).
    public func postPublish(_ catalog: Catalog, event: PublishEvent) -> [Diagnostic] {
        let plugins = registry.external(.postPublish)
        guard !plugins.isEmpty else { return [] }
        return run(plugins, kind: .postPublish, encoder: PluginRequestEncoder(catalog: catalog, tipcatVersion: registry.tipcatVersion), publish: event).map { finding in
            var finding = finding
            if finding.severity == .error { finding.severity = .warning }
            if finding.ruleID == DiagnosticRule.pluginFailed.id { finding.ruleID = DiagnosticRule.postPublishFailed.id }
            return finding
        }
    }

    /// Asks one external plugin to describe itself.
    public func describe(_ plugin: ExternalPlugin) -> Result<PluginDescription, PluginFailure> {
        plugin.run([PluginRequestEncoder.describeRequest(plugin: plugin.spec.name, tipcatVersion: registry.tipcatVersion)], kind: .describe).flatMap { response in
            guard let description = response.description else {
                return .failure(PluginFailure(plugin: plugin.spec.name, reason: "answered describe without a description", stderrTail: ""))
            }
            return .success(description)
        }
    }

    /// Describes several external plugins at once (for `plugins list` and `plugins check`).
    public func describeAll(_ plugins: [ExternalPlugin]) -> [Result<PluginDescription, PluginFailure>] {
        concurrently(plugins.count) { describe(plugins[$0]) }
    }

    /// Runs a generator: built-in ones in-process, external ones over the protocol.
    public func generate(
        _ source: PluginRegistry.GeneratorSource, name: String, catalog: Catalog, options: [String: PluginJSON]
    ) -> Result<[PluginFile], PluginFailure> {
        if case .builtIn(let generator) = source, let typed = generator as? any CatalogGenerator {
            // Reads the loaded catalog: no request to encode.
            do {
                return .success(try typed.generate(catalog: catalog, options: options))
            } catch {
                return .failure(PluginFailure(plugin: name, reason: "failed: \(error)", stderrTail: ""))
            }
        }
        let encoder = PluginRequestEncoder(catalog: catalog, tipcatVersion: registry.tipcatVersion)
        switch source {
        case .builtIn(let generator):
            do {
                let request = try JSONDecoder().decode(
                    PluginRequest.self, from: Data(encoder.request(kind: .generate, plugin: name, options: options)))
                guard let catalog = request.catalog else {
                    return .failure(PluginFailure(plugin: name, reason: "got no catalog", stderrTail: ""))
                }
                return .success(try generator.generate(catalog, options: options))
            } catch {
                return .failure(PluginFailure(plugin: name, reason: "failed: \(error)", stderrTail: ""))
            }
        case .external(let plugin):
            var merged = plugin.spec.options
            for (key, value) in options { merged[key] = value }
            let request = encoder.requestPieces(kind: .generate, plugin: plugin.spec.name, options: merged)
            return plugin.run(request, kind: .generate).map { $0.files ?? [] }
        }
    }

    // MARK: - Running

    private func run(_ plugins: [ExternalPlugin], kind: RequestKind, encoder: PluginRequestEncoder, publish: PublishEvent?) -> [Diagnostic] {
        let outcomes = concurrently(plugins.count) { index in
            let plugin = plugins[index]
            let request = encoder.requestPieces(kind: kind, plugin: plugin.spec.name, options: plugin.spec.options, publish: publish)
            return plugin.run(request, kind: kind)
        }
        return diagnostics(for: plugins, outcomes: outcomes)
    }

    /// What the plugins answered, as diagnostics: failures at the plugin's entry in plugins.json, findings located.
    func diagnostics(for plugins: [ExternalPlugin], outcomes: [Result<PluginResponse, PluginFailure>]) -> [Diagnostic] {
        let resolver = PointerResolver(catalogDirectory: catalogDirectory)
        var diagnostics: [Diagnostic] = []
        for (plugin, outcome) in zip(plugins, outcomes) {
            switch outcome {
            case .failure(let failure):
                diagnostics.append(Diagnostic(failure.description, rule: .pluginFailed, at: plugin.spec.location))
            case .success(let response):
                for finding in response.diagnostics ?? [] {
                    diagnostics.append(diagnostic(finding, from: plugin, resolver: resolver))
                }
            }
        }
        return diagnostics
    }

    /// A plugin's finding as a tipcat diagnostic: rule id prefixed, message sanitized, location resolved.
    func diagnostic(_ finding: PluginDiagnostic, from plugin: ExternalPlugin, resolver: PointerResolver) -> Diagnostic {
        let name = plugin.spec.name
        let rule = name + "/" + PluginHost.cleanRuleID(finding.rule)
        let message = PluginHost.cleanText(finding.message, limit: 2000)
        let severity: Severity
        switch finding.severity {
        case .error: severity = .error
        case .warning: severity = .warning
        case .note: severity = .note
        }
        guard let file = finding.file else {
            return Diagnostic(severity, message.isEmpty ? "(no message)" : message, rule: rule, at: nil)
        }
        switch resolver.resolve(file: file, pointer: finding.pointer, line: finding.line, column: finding.column) {
        case .success(let location):
            return Diagnostic(severity, message.isEmpty ? "(no message)" : message, rule: rule, at: location)
        case .failure(let error):
            let place = PluginHost.cleanText(file + (finding.pointer.map { " " + $0 } ?? "")
                + (finding.line.map { ":\($0)" } ?? "") + (finding.column.map { ":\($0)" } ?? ""), limit: 200)
            return Diagnostic(
                "plugin '\(name)' reported \(rule) at \(place), which does not exist: \(PluginHost.cleanText(error.reason, limit: 300)) "
                    + "(its message: \(message))",
                rule: .pluginBadLocation, at: plugin.spec.location)
        }
    }

    /// One line of terminal-safe text, at most `limit` characters.
    static func cleanText(_ text: String, limit: Int) -> String {
        var clean = Sanitizer.terminalSafe(text)
        if clean.contains("\n") { clean = clean.split(separator: "\n", omittingEmptySubsequences: true).joined(separator: " ") }
        if clean.count > limit { clean = String(clean.prefix(limit)) + "…" }
        return clean
    }

    /// A rule id made of `[A-Za-z0-9._-]`; anything else becomes `-`.
    static func cleanRuleID(_ rule: String) -> String {
        let cleaned = String(String.UnicodeScalarView(rule.unicodeScalars.prefix(80).map { scalar in
            let value = scalar.value
            let allowed = (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A)
                || scalar == "-" || scalar == "_" || scalar == "."
            return allowed ? scalar : "-"
        }))
        return cleaned.isEmpty ? "finding" : cleaned
    }
}

/// Runs `body` for `0..<count` on separate threads (plugins block in `poll`, so the cooperative pool and
/// `concurrentPerform`'s per-core width are the wrong tools) and returns the results in order.
func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    if count == 1 { return [body(0)] }
    let results = Mutex<[Int: T]>([:])
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            let value = body(index)
            results.withLock { $0[index] = value }
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    group.wait()
    return results.withLock { stored in (0..<count).compactMap { stored[$0] } }
}
