import Dispatch
import Foundation
import TipcatCatalog
import TipcatCore
import TipcatEngine
import TipcatEngineStore
import TipcatBenchSupport

/// `make bench`, engine part: the in-memory engine benchmark, then `donate` through the SQLite state store
/// (one commit per donation, and batched) and cold starts over the SQLite store on the 5,000-tip catalog.
enum EngineBench {
    static func run(directory: String) {
        print("")
        print("tipcat bench — engine (in memory)")
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let report = await EngineBenchmark.run()
            print(report.description)
            done.signal()
        }
        done.wait()

        print("")
        print("tipcat bench — engine over SQLite (state database in \(directory))")
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try donations(directory: directory)
            try coldStarts(directory: directory)
        } catch {
            print("error: \(error)")
        }
    }

    static func fresh(_ path: String) throws -> SQLiteTipStateStore {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return try SQLiteTipStateStore(path: path)
    }

    static let start = Timestamp(secondsSince1970: 1_767_225_600)

    static func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }

    /// Sustained donating: 100,000 donations over 50 events, enough for every event to pass its limit of 1,000
    /// visible donations, so the engine's pruning is part of the figure.
    static func donations(directory: String) throws {
        let synthetic = SyntheticEngineCatalog(tips: 1000)
        let count = 100_000
        let plan = synthetic.donations(count, endingAt: start)
        for batch in [1, 1000] {
            let store = try fresh(directory + "/donate-\(batch).sqlite")
            var engine = try TipEngineSession(
                catalog: synthetic.catalog, store: store, configuration: TipEngineConfiguration(clock: FixedClock(start)))
            let began = DispatchTime.now().uptimeNanoseconds
            var index = 0
            while index < plan.count {
                if batch > 1 { try store.beginBatch() }
                for donation in plan[index..<min(plan.count, index + batch)] {
                    try engine.donate(donation.event, donation.values, at: donation.timestamp)
                }
                if batch > 1 { try store.commitBatch() }
                index += batch
            }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
            let stored = try store.donationCount()
            let label = batch == 1 ? "one commit per donation" : "batches of \(batch) (one transaction each)"
            let rate = Double(count) / elapsed
            print("donate → SQLite, \(label): \(String(format: "%.0f", rate)) /s (\(count) donations in \(String(format: "%.2f", elapsed)) s; \(stored) rows kept after pruning to each event's limit)  (goal ≥ 20,000/s: \(verdict(rate >= EngineBenchmark.donateGoal)))")
        }
    }

    static func coldStarts(directory: String) throws {
        let synthetic = SyntheticEngineCatalog(tips: 5000)
        for donations in [0, 20_000] {
            let path = directory + "/cold-\(donations).sqlite"
            var seed = try fresh(path)
            try seed.beginBatch()
            for donation in synthetic.donations(donations, endingAt: start) { try seed.appendDonation(donation) }
            try seed.commitBatch()
            var times: [Double] = []
            for _ in 0..<5 {
                let began = DispatchTime.now().uptimeNanoseconds
                let store = try SQLiteTipStateStore(path: path)
                var engine = try TipEngineSession(catalog: synthetic.catalog, store: store, configuration: TipEngineConfiguration(clock: FixedClock(start)))
                _ = try engine.next()
                times.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
            }
            var loads: [Double] = []
            for _ in 0..<5 {
                let began = DispatchTime.now().uptimeNanoseconds
                _ = try SQLiteTipStateStore(path: path).load()
                loads.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
            }
            let median = times.sorted()[times.count / 2]
            print("cold start, 5,000 tips, SQLite state with \(donations) donations (open + load + configure + first next): \(String(format: "%.1f", median)) ms median of 5  (goal < 50 ms: \(verdict(median < EngineBenchmark.coldStartBudget)))")
            print("  of which opening the database and reading the state: \(String(format: "%.1f", loads.sorted()[loads.count / 2])) ms")
        }
    }
}
