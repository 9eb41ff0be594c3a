import Foundation
import TipcatCatalog
import TipcatCore
import TipcatLocalization
import TipcatStore
import TipcatCodec

/// `make bench`, publishing: first publish of the synthetic catalog, a republish after editing one tip (time
/// and store growth), then `versions` and `diff` between the two adjacent versions — in-process and as the
/// `tipcat` process.
struct PublishBench {
    var catalogDirectory: String
    var binary: String
    var runs: Int

    var storePath: String { URL(fileURLWithPath: catalogDirectory).deletingLastPathComponent().appendingPathComponent("store.sqlite").path }

    func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// The store's bytes on disk: the database plus any write-ahead log.
    var storeSize: Int { fileSize(storePath) + fileSize(storePath + "-wal") }

    func milliseconds(_ value: Double) -> String { format(value * 1000) + " ms" }

    /// Times the `tipcat` process with `arguments` (posix_spawn, see Spawn.swift), median of `runs`.
    func processTime(_ arguments: [String]) -> Double? {
        guard FileManager.default.isExecutableFile(atPath: binary) else { return nil }
        let times = (0..<runs).compactMap { _ in timedRun(binary, arguments) }
        return times.isEmpty ? nil : median(times)
    }

    func run() throws {
        print("\ntipcat bench — publish (1-minute load average \(loadAverage()) on \(ProcessInfo.processInfo.activeProcessorCount) cores)")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storePath + suffix) }
        var catalog = CatalogLoader().load(directory: catalogDirectory).catalog
        let channel = try ChannelName("production")
        let time = Timestamp(secondsSince1970: 1_772_357_400)
        func request(_ tree: ContentTree, _ message: String?) -> PublishRequest {
            PublishRequest(channel: channel, tree: tree, message: message, author: "bench", time: time, tipcatVersion: "bench")
        }

        // 1. First publish, into an empty store.
        var tree: ContentTree?
        let encodeFirst = seconds { tree = ContentTree(catalog: catalog) }
        guard let firstTree = tree else { return }
        var storeFirst = 0.0
        try autoreleasepool {
            let store = try SQLiteCatalogStore(path: storePath, mode: .readWrite)
            storeFirst = try seconds { _ = try store.publish(request(firstTree, "first")) }
        }
        let sizeAfterFirst = storeSize
        print("first publish:     \(milliseconds(encodeFirst + storeFirst)) (encode + hash \(milliseconds(encodeFirst)), store \(milliseconds(storeFirst))), "
              + "\(firstTree.objects.count) objects, store \(format(Double(sizeAfterFirst) / 1_048_576)) MB")

        // 2. Edit one tip's message, republish — a different tip each run; medians.
        var wall: [Double] = []
        var cpu: [Double] = []
        var encodeTimes: [Double] = []
        var storeTimes: [Double] = []
        var growths: [Double] = []
        let index = catalog.tips.count / 2
        for run in 0..<runs {
            if var message = catalog.tips[index + run].message {
                message.source += " Edited."
                message.message = try? Message.parse(message.source)
                catalog.tips[index + run].message = message
            }
            let before = storeSize
            let cpuBefore = cpuSeconds()
            let encode = seconds { tree = ContentTree(catalog: catalog) }
            guard let secondTree = tree else { return }
            var storeTime = 0.0
            try autoreleasepool {
                let store = try SQLiteCatalogStore(path: storePath, mode: .readWrite)
                storeTime = try seconds { _ = try store.publish(request(secondTree, nil)) }
            }
            cpu.append(cpuSeconds() - cpuBefore)
            wall.append(encode + storeTime)
            encodeTimes.append(encode)
            storeTimes.append(storeTime)
            growths.append(Double(storeSize - before))
        }
        let total = median(wall)
        let growth = median(growths)
        print("republish 1 tip:   \(milliseconds(total)) median of \(runs) (encode + hash \(milliseconds(median(encodeTimes))), store \(milliseconds(median(storeTimes))); "
              + "CPU \(milliseconds(median(cpu))) on \(ProcessInfo.processInfo.activeProcessorCount) cores); store grew \(format(growth / 1024)) KB  "
              + "(goal ≤ \(milliseconds(Self.editGoal(tips: catalog.tips.count))) and ≤ 20 KB: "
              + "\(total <= Self.editGoal(tips: catalog.tips.count) && growth <= 20 * 1024 ? "met" : "NOT met"))")

        // 3. versions and diff between adjacent versions, in-process (the store is closed afterwards, so the
        // processes below can checkpoint and remove the write-ahead log).
        try autoreleasepool {
            let reader = try SQLiteCatalogStore(path: storePath, mode: .readOnly)
            var versionTimes: [Double] = []
            var diffTimes: [Double] = []
            var changes = 0
            for _ in 0..<runs {
                versionTimes.append(try seconds { _ = try reader.versions() })
                diffTimes.append(try seconds {
                    changes = try reader.diff(from: reader.requireVersion(1), to: reader.requireVersion(2)).changes.count
                })
            }
            print("versions:          \(milliseconds(median(versionTimes))) in-process")
            print("diff 1 2:          \(milliseconds(median(diffTimes))) in-process (\(changes) change)")
        }

        // 4. The same through the tipcat process (start-up included).
        if let versions = processTime(["versions", "--store", storePath]), let diff = processTime(["diff", "1", "2", "--store", storePath]) {
            print("tipcat versions (process): \(milliseconds(versions)) median of \(runs)  (goal < 100 ms: \(versions < 0.1 ? "met" : "NOT met"))")
            print("tipcat diff 1 2 (process): \(milliseconds(diff)) median of \(runs)  (goal < 100 ms: \(diff < 0.1 ? "met" : "NOT met"))")
        } else {
            print("tipcat versions / diff (process): not measured (\(binary) not built)")
        }

        // 5. The whole command after editing one tip file (a different tip each run): load + validate dominate.
        guard FileManager.default.isExecutableFile(atPath: binary) else { return }
        var times: [Double] = []
        var processGrowths: [Int] = []
        for run in 0..<runs {
            let tipFile = catalogDirectory + "/tips/Tip\(index + runs + 1 + run).json"
            guard var text = try? String(contentsOfFile: tipFile, encoding: .utf8), let range = text.range(of: "\"title\": \"") else { continue }
            text.replaceSubrange(range, with: "\"title\": \"Edited: ")
            try text.write(toFile: tipFile, atomically: true, encoding: .utf8)
            let before = storeSize
            guard let time = timedRun(binary, ["publish", "--catalog", catalogDirectory, "--store", storePath, "--author", "bench"]) else { continue }
            times.append(time)
            processGrowths.append(storeSize - before)
        }
        print("tipcat publish after editing one tip file (process, load + validate included; the first run writes the publish cache): "
              + "\(milliseconds(median(times))) median of \(times.count), "
              + "store grew \(format(Double(median(processGrowths.map(Double.init))) / 1024)) KB median")

        wholeProcessRows(tips: catalog.tips.count, firstTip: index + 2 * runs + 1)
    }

    /// `12.3 ms median of 5 (min 11.9, max 13.0)`.
    /// The issue's goal for a publish after a one-tip edit: 0.3 s up to 5,000 tips, 0.6 s beyond (20,000).
    static func editGoal(tips: Int) -> Double { tips <= 5000 ? 0.3 : 0.6 }

    func spread(_ times: [Double]) -> String {
        "\(milliseconds(median(times))) median of \(times.count) (min \(format((times.min() ?? 0) * 1000)), max \(format((times.max() ?? 0) * 1000)))"
    }

    /// The goal rows, whole `tipcat` processes: publish after a one-tip edit, and a first publish against
    /// `sqlite3 .import` of the same rows (the two sides' runs interleaved).
    func wholeProcessRows(tips: Int, firstTip: Int) {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("publish goal rows: not measured (\(binary) not built)")
            return
        }
        let publish = ["publish", "--catalog", catalogDirectory, "--store", storePath, "--author", "bench"]

        // Publish after a one-tip edit: a different tip file each run, its title changed. The publish keeps its cache
        // beside the store (`<store>-cache/`), as a user's does: one untimed publish first writes it. Interleaved
        // with the same edit published from scratch (`--no-cache`, which leaves the cache as it is).
        _ = timedRun(binary, publish)
        var editTimes: [Double] = []
        var scratchTimes: [Double] = []
        func edit(_ tip: Int) -> Bool {
            let tipFile = catalogDirectory + "/tips/Tip\(tip % max(tips, 1)).json"
            guard var text = try? String(contentsOfFile: tipFile, encoding: .utf8), let range = text.range(of: "\"title\": \"") else { return false }
            text.replaceSubrange(range, with: "\"title\": \"Edited again: ")
            return (try? text.write(toFile: tipFile, atomically: true, encoding: .utf8)) != nil
        }
        for run in 0..<runs {
            if edit(firstTip + 2 * run), let time = timedRun(binary, publish) { editTimes.append(time) }
            if edit(firstTip + 2 * run + 1), let time = timedRun(binary, publish + ["--no-cache"]) { scratchTimes.append(time) }
        }
        let editGoal = Self.editGoal(tips: tips)
        let editMedian = median(editTimes)
        print("publish after a one-tip edit at \(tips) tips, from scratch (process, --no-cache): \(spread(scratchTimes))")
        print("goal: publish after a one-tip edit at \(tips) tips (process, incremental): \(spread(editTimes))  "
              + "(goal ≤ \(milliseconds(editGoal)): \(!editTimes.isEmpty && editMedian <= editGoal ? "met" : "NOT met"))")
        // Its peak memory, as the other commands' (the highest of three edits, each of another tip).
        let bytes = ProcessGoalsBench.bytesOnDisk(catalogDirectory)
        let peaks = (0..<3).compactMap { run in edit(firstTip + 2 * runs + run) ? peakResidentBytes(binary, publish) : nil }
        if let peak = peaks.max() {
            let ratio = Double(peak) / Double(max(1, bytes))
            print("goal: peak RSS of publish after a one-tip edit (incremental) ≤ 2.5× catalog bytes: "
                  + "\(format(Double(peak) / 1_048_576)) MB = \(format(ratio, 2))×  (\(ratio <= 2.5 ? "met" : "NOT met"))")
        } else {
            print("goal: peak RSS of publish after a one-tip edit: not measured (no /usr/bin/time, or the command failed)")
        }

        // First publish into an empty store against sqlite3 importing the same object rows into an empty table.
        guard let sqlite = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/bin/sqlite3"].first(where: FileManager.default.isExecutableFile) else {
            print("goal: first publish vs sqlite3 .import: skipped (no sqlite3 command-line tool; apt-get install sqlite3)")
            return
        }
        let directory = URL(fileURLWithPath: storePath).deletingLastPathComponent().path
        let rows = directory + "/objects.csv"
        let imported = directory + "/import.sqlite"
        // The rows: the objects the store holds (hash as hex text, content as text), written once as CSV.
        guard let exported = exportCSV(sqlite, rows: rows) else {
            print("goal: first publish vs sqlite3 .import: skipped (could not export the store's rows with \(sqlite))")
            return
        }
        let firstStore = directory + "/first.sqlite"
        let firstPublish = ["publish", "--catalog", catalogDirectory, "--store", firstStore, "--author", "bench"]
        let importArguments = [
            imported, "CREATE TABLE objects (hash TEXT PRIMARY KEY NOT NULL, kind TEXT NOT NULL, size INTEGER NOT NULL, content TEXT NOT NULL);",
            ".import --csv \(rows) objects",
        ]
        var publishTimes: [Double] = []
        var importTimes: [Double] = []
        // A first publish has no cache either (`<store>-cache/`).
        func remove(_ path: String) { for suffix in ["", "-wal", "-shm", "-journal", "-cache"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        for _ in 0..<runs {
            remove(firstStore)
            if let time = timedRun(binary, firstPublish) { publishTimes.append(time) }
            remove(imported)
            if let time = timedRun(sqlite, importArguments) { importTimes.append(time) }
        }
        remove(firstStore)
        remove(imported)
        try? FileManager.default.removeItem(atPath: rows)
        guard !publishTimes.isEmpty, !importTimes.isEmpty else {
            print("goal: first publish vs sqlite3 .import: not measured (a process did not start)")
            return
        }
        let ratio = median(publishTimes) / median(importTimes)
        print("first publish at \(tips) tips (process): \(spread(publishTimes))")
        print("sqlite3 .import of the same \(exported) rows (process): \(spread(importTimes))")
        print("goal: first publish ≤ 2× sqlite3 .import: \(format(ratio, 2))×  (\(ratio <= 2 ? "met" : "NOT met"))")
    }

    /// Writes the store's object rows to `rows` as CSV with `sqlite3`; returns how many rows, nil on failure.
    func exportCSV(_ sqlite: String, rows: String) -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sqlite)
        process.arguments = [
            "-readonly", storePath, ".mode csv", ".output \(rows)",
            "SELECT hex(hash), kind, size, CAST(content AS TEXT) FROM objects;", ".output stdout", "SELECT count(*) FROM objects;",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return Int(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// CPU time of this process so far (user + system), in seconds.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// The 1-minute load average, to tell a busy machine from a slow program.
func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first).map(String.init) ?? "unknown"
}

/// Runs `body`; Linux has no autorelease pool, so this only scopes `body`'s objects (closing the store).
func autoreleasepool(_ body: () throws -> Void) rethrows { try body() }

/// Entry point from main.swift.
func runPublishBench(catalogDirectory: String, binary: String, runs: Int) {
    do {
        try PublishBench(catalogDirectory: catalogDirectory, binary: binary, runs: runs).run()
    } catch {
        print("publish bench failed: \(error)")
    }
}
