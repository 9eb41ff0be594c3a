import Foundation
public import TipcatCatalog
public import TipcatCore
public import TipcatPlugin
public import TipcatRender

/// Every extension point of tipcat in one place: styles, lint rules, generators and publish hooks, built in or
/// external. `validate` takes its lint rules from here, `render` its styles, `generate` its generators and
/// `publish` its hooks — there is no second path.
public struct PluginRegistry: Sendable {
    /// Where a plugin comes from.
    public enum Origin: Sendable, Hashable {
        /// Compiled into tipcat.
        case builtIn
        /// A style folder (`Templates/<name>/`).
        case folder(String)
        /// Declared in `plugins.json`, run as a program.
        case external(command: [String], executable: String?)
        /// An executable `tipcat-<name>` on PATH: `tipcat <name> …` runs it.
        case command(path: String)

        public var label: String {
            switch self {
            case .builtIn: return "built-in"
            case .folder: return "folder"
            case .external: return "external"
            case .command: return "command"
            }
        }

        public var path: String? {
            switch self {
            case .builtIn: nil
            case .folder(let path): path
            case .external(let command, let executable): executable ?? command.first
            case .command(let path): path
            }
        }
    }

    /// One row of `tipcat plugins list`.
    public struct Entry: Sendable, Hashable {
        public var name: String
        /// Plugin kinds; empty for an external subcommand.
        public var kinds: [PluginKind]
        public var origin: Origin
        public var summary: String
        /// Known for built-ins and folders; for external plugins, what `describe` answered (filled by `described`).
        public var version: String?
        public var enabled: Bool
    }

    /// The built-in lint rules (cross-file checks of the catalog).
    public var lintRules: [any CatalogLintRule]
    /// The styles: built-ins plus the templates directory's folders.
    public var styles: StyleRegistry
    /// The built-in generators by name.
    public var generators: [(name: String, summary: String, generator: any GeneratorPlugin)]
    /// The external plugins of `plugins.json` (enabled or not), resolved.
    public var external: [ExternalPlugin]
    /// `tipcat-<name>` executables on PATH.
    public var commands: [(name: String, path: String)]
    /// Problems with `plugins.json`.
    public var diagnostics: [Diagnostic]
    /// Where `plugins.json` is (or would be).
    public var configurationFile: String

    /// The running tipcat's version: the built-ins' version, reported to external plugins.
    public var tipcatVersion: String

    /// The name the built-in lint rules are listed under.
    public static let builtInLintName = "tipcat-lint"

    /// Loads the registry for a catalog directory.
    ///
    /// - Parameters:
    ///   - externalPlugins: false for `--no-plugins`: `plugins.json` is not even read.
    ///   - commands: the `tipcat-*` executables found on PATH (the CLI finds them).
    public init(
        catalogDirectory: String, templatesDirectory: String?, environment: [String: String],
        externalPlugins: Bool = true, lintRules: [any CatalogLintRule] = LintRegistry.builtIn,
        commands: [(name: String, path: String)] = [], tipcatVersion: String = "0",
        fileSystem: any CatalogFileSystem = DiskFileSystem()
    ) {
        self.lintRules = lintRules
        self.tipcatVersion = tipcatVersion
        styles = PluginRegistry.styles(templatesDirectory: templatesDirectory, fileSystem: fileSystem)
        generators = BuiltInGenerators.all
        self.commands = commands
        configurationFile = (catalogDirectory.hasSuffix("/") ? catalogDirectory : catalogDirectory + "/") + PluginConfiguration.fileName
        guard externalPlugins else {
            external = []
            diagnostics = []
            return
        }
        let (configuration, diagnostics) = PluginConfiguration.load(catalogDirectory: catalogDirectory, fileSystem: fileSystem)
        let directory = absolutePath(catalogDirectory)
        // Like git's exec-path: plugins installed beside tipcat are found too, after PATH.
        var searchEnvironment = environment
        if let own = PluginRegistry.executableDirectory {
            searchEnvironment["PATH"] = (environment["PATH"] ?? defaultSearchPath) + ":" + own
        }
        external = configuration.plugins.map { ExternalPlugin(spec: $0, directory: directory, environment: searchEnvironment) }
        self.diagnostics = diagnostics
    }

    /// The style plugins: the built-in styles, overridden or extended by the folders of `templatesDirectory`.
    /// Every command that renders takes its styles from here.
    public static func styles(templatesDirectory: String?, fileSystem: any CatalogFileSystem = DiskFileSystem()) -> StyleRegistry {
        StyleRegistry(directory: templatesDirectory, fileSystem: fileSystem)
    }

    /// The directory of the running executable (`/proc/self/exe`), where `make install` also puts plugins.
    public static let executableDirectory: String? = {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return (path as NSString).deletingLastPathComponent
    }()

    /// Problems of every enabled external plugin that cannot be started (for `plugins check`).
    public var unstartable: [Diagnostic] {
        external.filter(\.spec.enabled).compactMap { plugin in
            plugin.notFoundReason.map { Diagnostic($0, rule: .pluginNotFound, at: plugin.spec.location) }
        }
    }

    /// The enabled external plugins of a kind, in `plugins.json` order.
    public func external(_ kind: PluginKind) -> [ExternalPlugin] {
        external.filter { $0.spec.enabled && $0.spec.kinds.contains(kind) }
    }

    /// Every plugin, built-in first, then folders, external plugins and commands.
    public var entries: [Entry] {
        var entries: [Entry] = [
            Entry(name: PluginRegistry.builtInLintName, kinds: [.lint], origin: .builtIn,
                  summary: "\(lintRules.count) cross-file checks of the catalog (tipcat validate)", version: tipcatVersion,
                  enabled: true),
        ]
        for (name, summary, _) in generators {
            entries.append(Entry(name: name, kinds: [.generate], origin: .builtIn, summary: summary,
                                 version: tipcatVersion, enabled: true))
        }
        for style in styles.styles {
            let origin: Origin
            switch style.origin {
            case .builtIn: origin = .builtIn
            case .directory(let path): origin = .folder(path)
            }
            entries.append(Entry(name: style.name, kinds: [.style], origin: origin, summary: style.manifest.description,
                                 version: origin == .builtIn ? tipcatVersion : nil, enabled: true))
        }
        for plugin in external {
            entries.append(Entry(name: plugin.spec.name, kinds: plugin.spec.kinds,
                                 origin: .external(command: plugin.spec.commandLine, executable: plugin.executable),
                                 summary: plugin.spec.description ?? plugin.spec.commandLine.joined(separator: " "), version: nil,
                                 enabled: plugin.spec.enabled))
        }
        for (name, path) in commands {
            entries.append(Entry(name: name, kinds: [], origin: .command(path: path), summary: "tipcat \(name) runs \(path)",
                                 version: nil, enabled: true))
        }
        return entries
    }

    /// The generator called `name`: built-in or external (kind `generate`).
    public func generator(named name: String) -> GeneratorSource? {
        if let builtIn = generators.first(where: { $0.name == name }) { return .builtIn(builtIn.generator) }
        if let plugin = external.first(where: { $0.spec.name == name && $0.spec.kinds.contains(.generate) && $0.spec.enabled }) {
            return .external(plugin)
        }
        return nil
    }

    /// The names `generate` accepts.
    public var generatorNames: [String] {
        generators.map(\.name) + external.filter { $0.spec.kinds.contains(.generate) && $0.spec.enabled }.map(\.spec.name)
    }

    /// A generator, wherever it comes from.
    public enum GeneratorSource: Sendable {
        case builtIn(any GeneratorPlugin)
        case external(ExternalPlugin)
    }
}

/// What a shell searches when PATH is unset.
let defaultSearchPath = "/usr/local/bin:/usr/bin:/bin"

/// `path` made absolute against the current directory, with `.` and `..` left for the kernel.
func absolutePath(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    let current = FileManager.default.currentDirectoryPath
    if path == "." || path.isEmpty { return current }
    return (current.hasSuffix("/") ? current : current + "/") + path
}
