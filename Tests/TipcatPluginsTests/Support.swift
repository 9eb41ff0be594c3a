import Foundation
import Testing
import TipcatTestSupport
@testable import TipcatCLI

let pluginRepositoryRoot = repositoryRoot
let fixturePlugins = pluginRepositoryRoot + "/Tests/TipcatPluginsTests/Fixtures/plugins"
let pluginGoldenDirectory = pluginRepositoryRoot + "/Tests/TipcatPluginsTests/Fixtures/golden"

typealias PluginRun = RunResult

extension RunResult {
    var all: String { stdout + stderr }
}

/// A scratch copy of the sample catalog with its own plugins.json.
final class PluginSandbox {
    let root: String
    var catalog: String { root + "/Catalog" }
    var environment: [String: String]

    init(plugins: [[String: Any]] = []) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tipcat-plugins-\(UUID().uuidString)").path
        environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: pluginRepositoryRoot + "/Catalog", toPath: catalog)
        try setPlugins(plugins)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Replaces plugins.json; `[]` removes it.
    func setPlugins(_ plugins: [[String: Any]]) throws {
        let path = catalog + "/plugins.json"
        if plugins.isEmpty {
            try? FileManager.default.removeItem(atPath: path)
            return
        }
        let data = try JSONSerialization.data(withJSONObject: ["plugins": plugins], options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: path))
    }

    func write(_ relative: String, _ text: String) throws {
        let url = URL(fileURLWithPath: root + "/" + relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ relative: String) -> String? {
        FileManager.default.contents(atPath: root + "/" + relative).map { String(decoding: $0, as: UTF8.self) }
    }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: root + "/" + relative) }

    func run(_ arguments: String...) -> PluginRun { run(arguments) }

    func run(_ arguments: [String]) -> PluginRun { tipcat(arguments, environment: environment) }
}

/// A plugin entry for plugins.json running a fixture script.
func fixture(_ name: String, script: String, kinds: [String] = ["lint"], timeout: String? = nil, options: [String: Any]? = nil) -> [String: Any] {
    var entry: [String: Any] = ["name": name, "command": [fixturePlugins + "/" + script], "kinds": kinds]
    if let timeout { entry["timeout"] = timeout }
    if let options { entry["options"] = options }
    return entry
}

/// True when the text holds a byte a terminal would interpret (C0 other than newline, DEL, C1).
func hasControlCharacters(_ text: String) -> Bool {
    text.unicodeScalars.contains { scalar in
        (scalar.value < 0x20 && scalar != "\n") || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
    }
}
