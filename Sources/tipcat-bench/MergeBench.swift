import Foundation
import TipcatCatalog
import TipcatCore
import TipcatEngineStore

/// `make bench`, merge part: 100 device state files of 10,000 donations each (10 events × 1,000, each event's
/// donation limit), merged by `tipcat engine merge-state` into a fresh state database (whole process), and the
/// same work in process: reading the files, merging, writing the result into a state database.
struct MergeBench {
    var directory: String
    var binary: String
    var runs: Int
    var devices = 100
    var donationsPerDevice = 10_000
    var events = 10

    var catalog: String { directory + "/catalog" }
    var store: String { directory + "/store.sqlite" }
    var state: String { directory + "/state.sqlite" }

    func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// A catalog with `events` events of one int field, each keeping 1,000 donations, and one tip.
    func writeCatalog() throws {
        try FileManager.default.createDirectory(atPath: catalog + "/tips", withIntermediateDirectories: true)
        try Data(#"{"name": "Merge bench", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en"]}"#.utf8)
            .write(to: URL(fileURLWithPath: catalog + "/catalog.json"))
        let declarations = (0..<events).map { #"{"id": "event-\#($0)", "fields": {"n": "int"}, "donationLimit": {"maxCount": 1000}}"# }
        try Data(#"{"events": [\#(declarations.joined(separator: ", "))]}"#.utf8).write(to: URL(fileURLWithPath: catalog + "/events.json"))
        try Data(##"{"id": "BenchTip", "title": "Hello", "rules": ["#event-0.count >= 3"]}"##.utf8)
            .write(to: URL(fileURLWithPath: catalog + "/tips/BenchTip.json"))
    }

    /// Device `index`'s state: its donations spread over a month, a tip it showed, a parameter it set.
    func deviceState(_ index: Int) -> SyncStateFile {
        let device = String(format: "device-%03d", index)
        var state = SyncState(clock: HybridTime(milliseconds: 1_767_600_000_000 + Int64(index)))
        state.donations.reserveCapacity(donationsPerDevice)
        for sequence in 0..<donationsPerDevice {
            let id = SyncState.DonationID(device: device, sequence: Int64(sequence + 1))
            let time = Timestamp(secondsSince1970: 1_767_600_000 + Double(sequence / events) * 2_600 + Double(index) * 0.5)
            state.donations[id] = SyncState.Donation(
                id: id, event: EventID("event-\(sequence % events)"), timestamp: time, values: ["n": .int(sequence % 7)])
        }
        let stamp = HLCStamp(time: HybridTime(milliseconds: 1_767_600_000_000 + Int64(index)), device: device)
        state.tips["BenchTip"] = SyncState.Tip(tip: "BenchTip", parametersStamp: stamp,
                                               displays: [device: SyncState.DisplayCounter(count: 1 + index % 3, seconds: Double(index))])
        state.parameters["mode"] = SyncState.StampedValue(value: .string(device), stamp: stamp)
        return SyncStateFile(device: device, state: state)
    }

    func run() throws {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("merge-state (process): not measured (\(binary) not built)")
            return
        }
        print("")
        print("tipcat bench — state merge: \(devices) device states × \(donationsPerDevice) donations (\(events) events × 1,000) in \(directory); 1-minute load average \(loadAverage())")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: catalog)
        try writeCatalog()
        remove(store)
        guard timedRun(binary, ["publish", "--catalog", catalog, "--store", store, "--author", "bench"]) != nil,
              FileManager.default.fileExists(atPath: store)
        else {
            print("error: tipcat publish of the merge bench catalog failed")
            return
        }
        var paths: [String] = []
        var bytes = 0
        for index in 0..<devices {
            let path = String(format: "%@/device-%03d.state.json", directory, index)
            let data = deviceState(index).fileBytes
            bytes += data.count
            try Data(data).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        print("state files: \(devices), \(format(Double(bytes) / 1_048_576)) MB")

        // Whole process: a fresh state database each run.
        var times: [Double] = []
        for _ in 0..<runs {
            remove(state)
            if let time = timedRun(binary, ["engine", "merge-state"] + paths + ["--store", store, "--state", state]) { times.append(time) }
        }
        let check = (try? SQLiteTipStateStore(path: state).donationCount()) ?? -1
        print("tipcat engine merge-state of \(devices) files (process): \(format(median(times) * 1000)) ms median of \(times.count) "
              + "(min \(format((times.min() ?? 0) * 1000)), max \(format((times.max() ?? 0) * 1000))); \(check) donations kept")

        // In process: read and check every file, fold the merge, write into a fresh database.
        let limits = SyncState.DonationLimits(defaultLimit: 1000)
        var readTimes: [Double] = []
        var mergeTimes: [Double] = []
        var writeTimes: [Double] = []
        for _ in 0..<runs {
            remove(state)
            var files: [SyncStateFile] = []
            readTimes.append(try seconds {
                for path in paths {
                    guard let data = FileManager.default.contents(atPath: path) else { continue }
                    files.append(try SyncStateFile(bytes: [UInt8](data), path: path))
                }
            })
            var merged = SyncState()
            mergeTimes.append(seconds {
                merged = SyncState.merge(files.map(\.state), limits: limits)
            })
            let database = try SQLiteTipStateStore(path: state)
            writeTimes.append(try seconds { try database.mergeState([SyncStateFile(device: "merged", state: merged)], limits: limits) })
        }
        let total = median(readTimes) + median(mergeTimes) + median(writeTimes)
        print("in process (medians of \(runs)): read and check \(format(median(readTimes) * 1000)) ms, merge \(format(median(mergeTimes) * 1000)) ms, "
              + "write into the state database \(format(median(writeTimes) * 1000)) ms; total \(format(total * 1000)) ms, "
              + "\(format(Double(devices * donationsPerDevice) / max(total, 1e-9) / 1e6, 2)) M donations/s")
    }
}
