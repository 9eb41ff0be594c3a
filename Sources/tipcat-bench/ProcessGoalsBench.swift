import Foundation

/// `make bench`, validate part, whole processes measured with wait4 (wall time, CPU time, peak RSS):
/// `tipcat validate` against a Python process that only reads and `json.load`s the same files, interleaved; and
/// the peak memory of `validate`, a first `publish` and `render --all` against the catalog's bytes on disk.
struct ProcessGoalsBench {
    var catalogDirectory: String
    /// Where the Python script and the scratch stores go.
    var directory: String
    var binary: String
    var tips: Int
    var runs: Int

    static let pythonScript = """
        import json, os, sys
        root = sys.argv[1]
        paths = [os.path.join(root, n) for n in ('catalog.json', 'parameters.json', 'events.json', 'groups.json', 'lint.json', 'Localizable.xcstrings')]
        tips = os.path.join(root, 'tips')
        paths += [os.path.join(tips, n) for n in sorted(os.listdir(tips))]
        for p in paths:
            if os.path.exists(p):
                with open(p, 'rb') as f:
                    json.load(f)
        """

    struct Figure {
        var runs: [ProcessUsage] = []
        var wall: Double { median(runs.map(\.seconds)) }
        var cpu: Double { median(runs.map(\.cpuSeconds)) }
        var text: String {
            let walls = runs.map(\.seconds)
            return "\(format(wall * 1000)) ms wall (min \(format((walls.min() ?? 0) * 1000)), max \(format((walls.max() ?? 0) * 1000))), "
                + "\(format(cpu * 1000)) ms CPU"
        }
    }

    static func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }

    /// The bytes of every regular file under `path`.
    static func bytesOnDisk(_ path: String) -> Int {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return 0 }
        var total = 0
        for case let name as String in walker {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name)
            if attributes?[.type] as? FileAttributeType == .typeRegular { total += (attributes?[.size] as? Int) ?? 0 }
        }
        return total
    }

    func run() {
        print("")
        print("tipcat bench — validate and memory, whole processes (\(tips) tips; median of \(runs), runs interleaved; 1-minute load average \(loadAverage()))")
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("validate and memory (process): not measured (\(binary) not built)")
            return
        }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let validate = ["validate", "--catalog", catalogDirectory, "--no-plugins"]

        // validate against python3 json.load of the same files, both whole processes.
        let script = directory + "/json_load.py"
        if let python = pythonInterpreter,
           (try? Self.pythonScript.write(toFile: script, atomically: true, encoding: .utf8)) != nil {
            var ours = Figure()
            var theirs = Figure()
            for _ in 0..<runs {
                if let run = measuredRun(binary, validate) { ours.runs.append(run) }
                if let run = measuredRun(python, [script, catalogDirectory]) { theirs.runs.append(run) }
            }
            if ours.runs.isEmpty || theirs.runs.isEmpty {
                print("goal: validate vs python3 json.load: not measured (a process failed)")
            } else {
                print("tipcat validate: \(ours.text)")
                print("python3 json.load of the same files: \(theirs.text)")
                let wall = ours.wall / theirs.wall
                let cpu = ours.cpu / theirs.cpu
                print("goal: validate ≤ 1.2× python3 json.load, whole process: \(format(wall, 2))×  (\(Self.verdict(wall <= 1.2)))")
                print("goal: validate CPU time ≤ 1.5× python3's: \(format(cpu, 2))×  (\(Self.verdict(cpu <= 1.5)))")
            }
        } else {
            print("goal: validate vs python3 json.load: not measured (no python3)")
        }

        // Peak memory against the catalog's bytes on disk.
        let bytes = Self.bytesOnDisk(catalogDirectory)
        let limit = Double(bytes) * 2.5
        print("catalog on disk: \(format(Double(bytes) / 1_048_576)) MB; peak RSS goal ≤ 2.5× = \(format(limit / 1_048_576)) MB")
        let store = directory + "/memory-store.sqlite"
        let commands: [(String, [String], Bool)] = [
            ("validate", validate, false),
            ("publish (first, into an empty store)", ["publish", "--catalog", catalogDirectory, "--store", store, "--author", "bench", "--no-plugins"], true),
            ("render --all --style plain --locale en", ["render", "--all", "--style", "plain", "--locale", "en", "--catalog", catalogDirectory], false),
            ("render --all --style ansi --locale ja", ["render", "--all", "--style", "ansi", "--locale", "ja", "--color", "always", "--catalog", catalogDirectory], false),
        ]
        for (label, arguments, freshStore) in commands {
            var peaks: [Int] = []
            for _ in 0..<min(runs, 3) {
                if freshStore {
                    // A first publish: no store and no publish cache (`<store>-cache/`).
                    for suffix in ["", "-wal", "-shm", "-cache"] { try? FileManager.default.removeItem(atPath: store + suffix) }
                }
                if let peak = peakResidentBytes(binary, arguments) { peaks.append(peak) }
            }
            guard let peak = peaks.max() else {
                print("goal: peak RSS of \(label): not measured (no /usr/bin/time, or the command failed)")
                continue
            }
            let ratio = Double(peak) / Double(max(1, bytes))
            print("goal: peak RSS of \(label) ≤ 2.5× catalog bytes: \(format(Double(peak) / 1_048_576)) MB = \(format(ratio, 2))×  (\(Self.verdict(ratio <= 2.5)))")
        }
    }
}
