import Foundation
import TipcatCatalog
import TipcatCore
import TipcatJSON

// `make bench`: generate a synthetic catalog, time load + validate, compare with Python's json on the same files.

struct Options {
    var tips = 5000
    var locales = 12
    var directory = ".build/bench/catalog"
    var runs = 5
    /// `--only validate|render|preview|publish|engine|engine-commands|merge|plugins|strings|scaling|codegen` (repeatable): run just those parts; all of them by default.
    var parts: Set<String> = []
    /// `--styles plain,ansi`: the built-in styles the render part times (all three by default).
    var styles = ["plain", "markdown", "ansi"]

    /// `engine-commands`: only the whole-process engine figures (`engine` includes them).
    static let allParts: Set<String> = ["validate", "render", "preview", "publish", "engine", "engine-commands", "merge", "plugins", "strings", "scaling", "codegen"]

    func runs(_ part: String) -> Bool { parts.isEmpty || parts.contains(part) }

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--tips": tips = iterator.next().flatMap(Int.init) ?? tips
            case "--locales": locales = iterator.next().flatMap(Int.init) ?? locales
            case "--dir": directory = (iterator.next() ?? directory) + "/catalog"
            case "--runs": runs = iterator.next().flatMap(Int.init) ?? runs
            case "--styles": styles = (iterator.next() ?? "").split(separator: ",").map(String.init)
            case "--only":
                let part = iterator.next() ?? ""
                guard Options.allParts.contains(part) else {
                    FileHandle.standardError.write(Data("tipcat-bench: --only takes one of \(Options.allParts.sorted().joined(separator: ", "))\n".utf8))
                    exit(64)
                }
                parts.insert(part)
            default:
                FileHandle.standardError.write(Data("tipcat-bench: unknown argument '\(argument)'\n".utf8))
                exit(64)
            }
        }
    }
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

func peakRSSMegabytes() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024  // Linux reports KiB
}

func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }

let options = Options(Array(CommandLine.arguments.dropFirst()))
let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tipcat").path

/// Generates the synthetic catalog, loads it and reports the load + validate time.
func loadSyntheticCatalog() -> (catalog: Catalog, seconds: Double) {
    print("tipcat bench — catalog load + validate")
    print("generating \(options.tips) tips × \(options.locales) locales in \(options.directory) …")
    let files: Int
    do {
        files = try SyntheticCatalog(tips: options.tips, locales: options.locales).write(to: options.directory)
    } catch {
        print("error: cannot write the synthetic catalog: \(error)")
        exit(1)
    }

    var times: [Double] = []
    var result: LoadResult?
    for _ in 0..<options.runs {
        result = nil  // free the previous catalog outside the timed region
        var loaded: LoadResult?
        times.append(seconds { loaded = CatalogLoader().load(directory: options.directory) })
        result = loaded
    }
    guard let loaded = result else { exit(1) }
    let errors = loaded.diagnostics.filter { $0.severity == .error }
    if !errors.isEmpty {
        print("error: the synthetic catalog has \(errors.count) errors; first: \(errors[0])")
        exit(1)
    }
    let megabytes = Double(loaded.bytesRead) / 1_048_576
    let ours = median(times)
    print("files: \(files), \(format(megabytes)) MB, \(loaded.catalog.tips.count) tips, \(loaded.diagnostics.count) findings")
    print("load + validate:  \(format(ours * 1000)) ms median of \(options.runs) (min \(format((times.min() ?? 0) * 1000)) ms), \(format(megabytes / ours)) MB/s, peak RSS \(format(peakRSSMegabytes())) MB")

    return (loaded.catalog, ours)
}

/// The JSON reader alone, the `tipcat validate` process, and Python's json module on the same files.
func compareWithPython(loadSeconds ours: Double) {
    // The JSON reader alone on the largest file.
    if let data = FileManager.default.contents(atPath: options.directory + "/Localizable.xcstrings") {
        let source = SourceFile(path: "Localizable.xcstrings", bytes: [UInt8](data))
        var parseTimes: [Double] = []
        for _ in 0..<options.runs { parseTimes.append(seconds { _ = try? JSONDocument.parse(source) }) }
        let parse = median(parseTimes)
        print("JSON parse of Localizable.xcstrings (\(format(Double(data.count) / 1_048_576)) MB): \(format(parse * 1000)) ms, \(format(Double(data.count) / 1_048_576 / parse)) MB/s")
    }

    // The real command, end to end (process start, load, validate, print, exit), with its peak memory.
    var cliTimes: [Double] = []
    if FileManager.default.isExecutableFile(atPath: binary) {
        for _ in 0..<options.runs {
            if let time = timedRun(binary, ["validate", "--catalog", options.directory]) { cliTimes.append(time) }
        }
        // Peak memory of one run, from GNU time (RUSAGE_CHILDREN would count the forked copy of this process).
        var peak = "not measured (no /usr/bin/time)"
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/time") {
            let report = FileManager.default.temporaryDirectory.appendingPathComponent("tipcat-bench-rss").path
            let timed = Process()
            timed.executableURL = URL(fileURLWithPath: "/usr/bin/time")
            timed.arguments = ["-f", "%M", "-o", report, binary, "validate", "--catalog", options.directory]
            timed.standardOutput = FileHandle.nullDevice
            timed.standardError = FileHandle.nullDevice
            if (try? timed.run()) != nil {
                timed.waitUntilExit()
                let kilobytes = (try? String(contentsOfFile: report, encoding: .utf8)).flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                if let kilobytes { peak = "\(format(kilobytes / 1024)) MB" }
            }
        }
        print("tipcat validate (process): \(format(median(cliTimes) * 1000)) ms median of \(options.runs), peak RSS \(peak)")
    } else {
        print("tipcat validate (process): not measured (\(binary) not built)")
    }

    // Python's json module, parsing the same files (reading included, interpreter start-up excluded).
    let script = """
        import json, os, sys, time
        root = sys.argv[1]
        paths = [os.path.join(root, n) for n in ('catalog.json', 'parameters.json', 'events.json', 'groups.json', 'Localizable.xcstrings')]
        tips = os.path.join(root, 'tips')
        paths += [os.path.join(tips, n) for n in sorted(os.listdir(tips))]
        best = []
        for _ in range(\(options.runs)):
            start = time.perf_counter()
            for p in paths:
                with open(p, 'rb') as f:
                    json.loads(f.read())
            best.append(time.perf_counter() - start)
        best.sort()
        print(best[len(best) // 2])
        """
    if let output = runPython(script, options.directory) {
        if let python = Double(output) {
            print("python3 json parse only: \(format(python * 1000)) ms median of \(options.runs)")
            let ratio = ours / python
            print("ratio load+validate / python parse: \(format(ratio, 2))×  (goal ≤ 1.50×: \(ratio <= 1.5 ? "met" : "NOT met"))")
            if !cliTimes.isEmpty {
                print("ratio tipcat validate process / python parse: \(format(median(cliTimes) / python, 2))×")
            }
        } else {
            print("python3 json: no figure (\(output))")
        }
    } else {
        print("python3 json: not run (python3 did not start)")
    }
}

if options.runs("validate") || options.runs("render") || options.runs("preview") || options.runs("publish") || options.runs("plugins") || options.runs("strings")
    || options.runs("codegen") {
    let (catalog, loadSeconds) = loadSyntheticCatalog()
    if options.runs("validate") {
        compareWithPython(loadSeconds: loadSeconds)
        ProcessGoalsBench(catalogDirectory: options.directory, directory: (options.directory as NSString).deletingLastPathComponent + "/process-goals",
                          binary: binary, tips: options.tips, runs: options.runs).run()
    }
    if options.runs("render") {
        renderBenchmark(catalog: catalog, directory: options.directory, runs: options.runs, styles: options.styles)
        renderCommandBenchmark(runs: options.runs)
        RenderProcessBench(catalogDirectory: options.directory, directory: (options.directory as NSString).deletingLastPathComponent + "/render-process",
                           binary: binary, tips: options.tips, runs: options.runs, styles: options.styles).run()
    }
    if options.runs("preview") {
        PreviewProcessBench(catalogDirectory: options.directory, directory: (options.directory as NSString).deletingLastPathComponent + "/preview",
                            binary: binary, tips: options.tips, locales: catalog.settings.supportedLocales.map(\.identifier), runs: options.runs).run()
    }
    if options.runs("publish") {
        runPublishBench(catalogDirectory: options.directory, binary: binary, runs: options.runs)
        PostgreSQLBench(catalogDirectory: options.directory, binary: binary, runs: options.runs).run()
    }
    if options.runs("plugins") { runPluginBench(catalogDirectory: options.directory, binary: binary, runs: options.runs) }
    if options.runs("strings") { runStringsBench(catalogDirectory: options.directory, binary: binary, runs: options.runs) }
    if options.runs("codegen") {
        runCodegenBench(catalogDirectory: options.directory, directory: (options.directory as NSString).deletingLastPathComponent + "/codegen",
                        binary: binary, runs: options.runs)
    }
}
if options.runs("scaling") {
    ScalingBench.run(directory: (options.directory as NSString).deletingLastPathComponent, runs: options.runs)
}
if options.runs("engine") || options.runs("engine-commands") {
    let parent = (options.directory as NSString).deletingLastPathComponent
    if options.runs("engine") { EngineBench.run(directory: parent + "/engine") }
    // The catalog the other parts generated, unless it is missing or of another size.
    let settings = (try? String(contentsOfFile: options.directory + "/catalog.json", encoding: .utf8)) ?? ""
    if !settings.contains("\"Synthetic \(options.tips)x\(min(max(1, options.locales), SyntheticCatalog.localePool.count))\"") {
        print("generating \(options.tips) tips × \(options.locales) locales in \(options.directory) …")
        _ = try? SyntheticCatalog(tips: options.tips, locales: options.locales).write(to: options.directory)
    }
    do {
        try EngineProcessBench(catalogDirectory: options.directory, directory: parent + "/engine-process", binary: binary,
                               tips: options.tips, runs: options.runs).run()
    } catch {
        print("engine process bench failed: \(error)")
    }
}
if options.runs("merge") {
    do {
        try MergeBench(directory: (options.directory as NSString).deletingLastPathComponent + "/merge", binary: binary, runs: options.runs).run()
    } catch {
        print("merge bench failed: \(error)")
    }
}
