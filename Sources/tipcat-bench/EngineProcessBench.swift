import Foundation

/// `make bench`, engine part, whole processes: `tipcat engine …` as an app or a script calls it, one process
/// per call, on the generated catalog published into a store (translations included).
struct EngineProcessBench {
    var catalogDirectory: String
    var directory: String
    var binary: String
    var tips: Int
    var runs: Int

    var store: String { directory + "/store.sqlite" }
    var state: String { directory + "/state.sqlite" }
    /// Where the engine commands keep the prepared snapshot of the version (beside the state database).
    var snapshot: String { state + ".engine-snapshot" }
    var common: [String] { ["--store", store, "--state", state, "--now", "2026-03-01T12:00:00Z"] }

    struct Figure {
        var times: [Double]
        var median: Double { tipcat_bench.median(times) }
        var text: String {
            "\(format(median * 1000)) ms median of \(times.count) (min \(format((times.min() ?? 0) * 1000)), max \(format((times.max() ?? 0) * 1000)))"
        }
    }

    func measure(_ arguments: [String], before: () -> Void = {}) -> Figure {
        var times: [Double] = []
        for _ in 0..<runs {
            before()
            if let time = timedRun(binary, arguments) { times.append(time) }
        }
        return Figure(times: times)
    }

    func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    static func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }

    func run() throws {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("engine commands (process): not measured (\(binary) not built)")
            return
        }
        print("")
        print("tipcat bench — engine commands, whole processes (\(tips) tips, store and state in \(directory); 1-minute load average \(loadAverage()))")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        remove(store)
        remove(state)
        try? FileManager.default.removeItem(atPath: snapshot)
        guard timedRun(binary, ["publish", "--catalog", catalogDirectory, "--store", store, "--author", "bench"]) != nil,
              FileManager.default.fileExists(atPath: store)
        else {
            print("error: tipcat publish of the generated catalog failed")
            return
        }

        let validate = measure(["validate", "--catalog", catalogDirectory])
        print("tipcat validate (process), for comparison: \(validate.text)")

        // The first engine call after a publish prepares the snapshot: removed before each run.
        let first = measure(["engine", "next"] + common) { try? FileManager.default.removeItem(atPath: snapshot) }
        print("engine next, first call after a publish (reads the version, writes the snapshot): \(first.text)  "
              + "(goal ≤ validate \(format(validate.median * 1000)) ms: \(Self.verdict(first.median <= validate.median)))")
        let snapshotSize = ((try? FileManager.default.attributesOfItem(atPath: snapshot))?[.size] as? NSNumber)?.intValue ?? 0
        print("  snapshot: \(format(Double(snapshotSize) / 1_048_576)) MB")

        let nextGoal = tips <= 5000 ? 0.020 : 0.040
        let next = measure(["engine", "next"] + common)
        print("engine next, warm snapshot: \(next.text)  (goal ≤ \(format(nextGoal * 1000, 0)) ms: \(Self.verdict(next.median <= nextGoal)))")

        let donate = measure(["engine", "donate", "event-0", "itemID=7", "name=trail", "isFavorite=true"] + common)
        print("engine donate, one event: \(donate.text)  (goal ≤ 15 ms: \(Self.verdict(donate.median <= 0.015)))")

        let count = 50_000
        let batch = directory + "/donations.jsonl"
        var lines = ""
        lines.reserveCapacity(count * 90)
        // A day of an app's events, one every 1.7 s or so, in time order as an app logs them.
        for index in 0..<count {
            let second = index * 86_400 / count
            let time = String(format: "2026-02-28T%02d:%02d:%02dZ", second / 3600, second / 60 % 60, second % 60)
            lines += #"{"event": "event-\#(index % 50)", "values": {"itemID": \#(index % 97), "name": "trail", "isFavorite": \#(index % 2 == 0)}, "at": "\#(time)"}"#
            lines += "\n"
        }
        try lines.write(toFile: batch, atomically: true, encoding: .utf8)
        // Each run on a fresh state database (the snapshot beside it stays): the same day donated again would
        // land before the newest donations already logged.
        let batched = measure(["engine", "donate", "--batch", batch] + common) { remove(state) }
        let rate = Double(count) / max(batched.median, 1e-9)
        print("engine donate --batch, \(count) donations into a fresh state: \(batched.text), \(format(rate, 0)) donations/s  "
              + "(goal ≥ 50,000/s: \(Self.verdict(rate >= 50_000)))")
        // For information (no goal): the same call on the state the batch left, as an app's state looks after a
        // day of events; every call loads every donation.
        let loaded = measure(["engine", "next"] + common)
        print("engine next, warm snapshot, with the batch's \(count) donations in the state (no goal): \(loaded.text)")
    }
}
