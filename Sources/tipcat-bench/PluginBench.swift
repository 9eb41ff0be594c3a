import Foundation
import TipcatCatalog
import TipcatPlugins

/// `make bench` part `plugins`: what an external lint plugin costs a whole `tipcat validate` process.
///
/// A no-op lint plugin (Python: reads the whole request, answers no findings) is declared in the catalog's
/// plugins.json; `tipcat validate` runs with it and with `--no-plugins`, interleaved, median of N each. A second
/// plugin that also parses the request with Python's json module is timed the same way, for information.
func runPluginBench(catalogDirectory: String, binary: String, runs: Int) {
    print("")
    print("tipcat validate with an external lint plugin (whole processes, interleaved, median of \(runs))")
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        print("not measured: \(binary) is not built")
        return
    }
    // Diagnosis: the request's size and what encoding it costs in-process.
    let catalog = CatalogLoader().load(directory: catalogDirectory).catalog
    var encodeTimes: [Double] = []
    var requestBytes = 0
    for _ in 0..<runs {
        encodeTimes.append(seconds {
            requestBytes = PluginRequestEncoder(catalog: catalog, tipcatVersion: "bench").catalog.allPieces.reduce(0) { $0 + $1.count }
        })
    }
    print("request: \(format(Double(requestBytes) / 1_048_576)) MB, encoded in \(format(median(encodeTimes) * 1000)) ms median (in-process, for diagnosis)")
    let pluginsFile = catalogDirectory + "/plugins.json"
    let scripts = catalogDirectory + "/bench-plugins"
    defer {
        try? FileManager.default.removeItem(atPath: pluginsFile)
        try? FileManager.default.removeItem(atPath: scripts)
    }
    let noop = """
        import sys
        sys.stdin.buffer.read()
        sys.stdout.write('{"protocol": "tipcat.plugin/1", "diagnostics": []}\\n')
        """
    let parsing = """
        import json, sys
        request = json.load(sys.stdin)
        assert request["protocol"] == "tipcat.plugin/1"
        sys.stdout.write('{"protocol": "tipcat.plugin/1", "diagnostics": []}\\n')
        """
    do {
        try FileManager.default.createDirectory(atPath: scripts, withIntermediateDirectories: true)
        try noop.write(toFile: scripts + "/noop.py", atomically: true, encoding: .utf8)
        try parsing.write(toFile: scripts + "/parse.py", atomically: true, encoding: .utf8)
    } catch {
        print("not measured: cannot write the plugin scripts: \(error)")
        return
    }
    // The interpreter itself (see `pythonInterpreter`), as a team's plugins.json names it on a machine without shims.
    let python = pythonInterpreter ?? "python3"
    print("plugin interpreter: \(python)")
    func configure(_ script: String) {
        let command = (try? JSONSerialization.data(withJSONObject: [python, "bench-plugins/\(script)"], options: [.withoutEscapingSlashes]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        let json = """
            {"plugins": [{"name": "noop", "command": \(command), "kinds": ["lint"], "timeout": "60s"}]}
            """
        try? json.write(toFile: pluginsFile, atomically: true, encoding: .utf8)
    }
    for (script, label, goal) in [("noop.py", "no-op plugin (reads the request)", true), ("parse.py", "plugin that parses the request (json.load)", false)] {
        configure(script)
        var without: [Double] = []
        var with: [Double] = []
        for _ in 0..<runs {
            if let time = timedRun(binary, ["validate", "--catalog", catalogDirectory, "--no-plugins"]) { without.append(time) }
            if let time = timedRun(binary, ["validate", "--catalog", catalogDirectory]) { with.append(time) }
        }
        let base = median(without)
        let plugin = median(with)
        let overhead = base > 0 ? (plugin / base - 1) * 100 : 0
        print("\(label):")
        print("  tipcat validate --no-plugins: \(format(base * 1000)) ms   with the plugin: \(format(plugin * 1000)) ms   "
              + "overhead \(format(overhead))%" + (goal ? "  (goal ≤ 25%: \(overhead <= 25 ? "met" : "NOT met"))" : ""))
    }
}
