import Foundation

/// `make bench` part `strings`: whole `tipcat strings sync --check` and `tipcat strings export` processes against a
/// whole `tipcat validate` on the generated catalog, interleaved, median of N each (goal: within 2× of validate).
func runStringsBench(catalogDirectory: String, binary: String, runs: Int) {
    print("")
    print("tipcat strings sync --check and strings export vs tipcat validate (whole processes, interleaved, median of \(runs))")
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        print("not measured: \(binary) is not built")
        return
    }
    // Every locale but the source language (the first of the generated catalog's locales), in one export process.
    let locales = exportLocales(catalogDirectory: catalogDirectory)
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("tipcat-bench-xliff-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    let exportArguments = ["strings", "export", "--catalog", catalogDirectory, "-o", output] + locales.flatMap { ["--locale", $0] }
    var validate: [Double] = []
    var sync: [Double] = []
    var export: [Double] = []
    for _ in 0..<runs {
        if let time = timedRun(binary, ["validate", "--catalog", catalogDirectory]) { validate.append(time) }
        if let time = timedRun(binary, ["strings", "sync", "--check", "--catalog", catalogDirectory]) { sync.append(time) }
        try? FileManager.default.removeItem(atPath: output)
        if let time = timedRun(binary, exportArguments) { export.append(time) }
    }
    guard !validate.isEmpty, !sync.isEmpty, !export.isEmpty else {
        print("not measured: \(binary) did not start")
        return
    }
    let written = (try? FileManager.default.contentsOfDirectory(atPath: output))?.filter { $0.hasSuffix(".xliff") }.count ?? 0
    guard !locales.isEmpty, written == locales.count else {
        print("not measured: tipcat strings export wrote \(written) of \(locales.count) XLIFF files")
        return
    }
    let base = median(validate)
    func line(_ name: String, _ times: [Double]) {
        let time = median(times)
        let ratio = base > 0 ? time / base : 0
        print("tipcat validate: \(format(base * 1000)) ms   \(name): \(format(time * 1000)) ms   "
              + "ratio \(format(ratio, 2))×  (goal ≤ 2×: \(ratio <= 2 ? "met" : "NOT met"))")
    }
    line("tipcat strings sync --check", sync)
    line("tipcat strings export (\(locales.count) locales)", export)
}

/// The generated catalog's `supportedLocales` without its `sourceLanguage`.
private func exportLocales(catalogDirectory: String) -> [String] {
    guard let data = FileManager.default.contents(atPath: catalogDirectory + "/catalog.json"),
          let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
          let supported = object["supportedLocales"] as? [String] else { return [] }
    let source = object["sourceLanguage"] as? String
    return supported.filter { $0 != source }
}
