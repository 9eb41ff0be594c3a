import Dispatch
import Foundation
import Synchronization
import Testing
import TipcatCore
import TipcatSQLite
import TipcatStore
import TipcatTestSupport

/// A `tipcat` child process.
final class Child {
    let process = Process()
    private let out = Pipe()
    private let err = Pipe()

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ["TIPCAT_NOW": "2026-03-01T09:30:00Z"].merging(environment) { _, new in new }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Sends SIGKILL once `nanoseconds` have passed, unless the child has exited by then.
    func kill(after nanoseconds: UInt64) {
        let deadline = DispatchTime.now().uptimeNanoseconds + nanoseconds
        while process.isRunning && DispatchTime.now().uptimeNanoseconds < deadline { usleep(500) }
        if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// Waits for the child; returns its exit status (nil when a signal ended it) and its output.
    func wait() -> (status: Int32?, stdout: String, stderr: String) {
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let status = process.terminationReason == .exit ? process.terminationStatus : nil
        return (status, stdout, stderr)
    }
}

/// Opens the store (a path or a URL) read-only and checks everything a reader may rely on; returns the
/// versions. `verified` holds the versions already read back in full, so each is checked once.
@discardableResult
func checkStoreConsistency(_ url: String, verified: inout Set<Int>, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [VersionRecord] {
    let store = try StoreLocation(url).open(.readOnly)
    try checkIntegrity(store, sourceLocation: sourceLocation)
    let versions = try store.versions()
    // Numbers 1…n: none lost, none duplicated, no half version.
    #expect(versions.map(\.number) == Array(1..<(versions.count + 1)), sourceLocation: sourceLocation)
    for record in versions where !verified.contains(record.number) {
        try store.verify(record)  // every object present and matching its hash, root = recorded content hash
        verified.insert(record.number)
    }
    let heads = try store.channels()
    for head in heads {
        #expect(versions.contains { $0.number == head.version }, "channel \(head.name) points at a missing version", sourceLocation: sourceLocation)
    }
    return versions
}

@Suite(.serialized) struct ReliabilityTests {
    /// A child publishes and is killed with SIGKILL at a random moment, 50 times. After each kill the store
    /// opens, passes its integrity check (SQLite), every committed version reads back with its recorded hash,
    /// and no half version is visible.
    @Test(.timeLimit(.minutes(2)), arguments: StoreBackend.allCases) func killNineWhilePublishing(backend: StoreBackend) throws {
        let executable = try #require(tipcatExecutable(), "build the tipcat executable first (swift build)")
        let scratch = try TemporaryDirectory()
        let catalog = scratch.file("Catalog")
        guard let store = try backend.newStoreURL(in: scratch) else { return }
        let arguments = ["publish", "--catalog", catalog, "--store", store, "--author", "crash-test"]
        try writeGeneratedCatalog(at: catalog, tips: 120, variant: " r0")

        let first = try Child(executable, arguments).wait()
        #expect(first.status == 0, "\(first.stderr)")
        // Calibrate: how long one publish of a fully changed catalog over an existing version takes here
        // (the fastest of three, so a busy machine does not stretch every round).
        var durations: [UInt64] = []
        for run in 0..<3 {
            try writeGeneratedCatalog(at: catalog, tips: 120, translationVariant: " c\(run)", onlyTranslations: true)
            let start = DispatchTime.now().uptimeNanoseconds
            let result = try Child(executable, arguments).wait()
            #expect(result.status == 0, "\(result.stderr)")
            durations.append(DispatchTime.now().uptimeNanoseconds - start)
        }
        // The kill comes at a random point of an estimated publish; a publish that finished first makes the
        // estimate shorter (the machine got faster than when it was calibrated), so most rounds are killed
        // mid-run whatever the load.
        var duration = Double(max(20_000_000, durations.min() ?? 0))

        var random = SeededGenerator(seed: 0x6B69_6C6C)
        var verified = Set<Int>()
        var killed = 0
        var completed = 0
        var versionCount = try checkStoreConsistency(store, verified: &verified).count
        let rounds = 50
        for round in 1...rounds {
            // Every tip's translation changes (one file to rewrite), so each publish stores 120 new objects.
            try writeGeneratedCatalog(at: catalog, tips: 120, translationVariant: " r\(round)", onlyTranslations: true)
            let child = try Child(executable, arguments)
            let delay = UInt64(duration * Double.random(in: 0.1...1.3, using: &random))
            child.kill(after: delay)
            let result = child.wait()
            if result.status == nil {
                killed += 1
            } else {
                completed += 1
                duration = max(2_000_000, duration * 0.8)
            }
            let versions = try checkStoreConsistency(store, verified: &verified)
            // A publish either happened entirely or not at all.
            #expect(versions.count == versionCount || versions.count == versionCount + 1, "round \(round)")
            if result.status == 0 { #expect(versions.count == versionCount + 1, "round \(round) exited 0 without a version") }
            versionCount = versions.count
        }
        #expect(killed >= rounds / 3, "only \(killed) of \(rounds) children were killed before they finished")
        // Every version is still there and still reads back.
        var again = Set<Int>()
        let final = try checkStoreConsistency(store, verified: &again)
        #expect(again.count == final.count)
        print("kill -9 harness (\(backend)): \(rounds) rounds, \(killed) killed mid-run, \(completed) finished, \(final.count) versions, all consistent")
    }

    /// A new store's first publish writes through SQLite's rollback journal (then switches to the write-ahead log).
    /// Killed as it writes the store, 8 times: a reader finds no store, a store with no version (that says its first
    /// publish was interrupted when its journal is hot), or the whole version; the next publish repairs it and publishes. Then four
    /// processes create one new store at once with `--expect-version 0`: one wins, three get the mismatch, and the
    /// store uses the write-ahead log.
    @Test(.timeLimit(.minutes(2))) func firstPublishesKilledOrRacing() throws {
        let executable = try #require(tipcatExecutable(), "build the tipcat executable first (swift build)")
        let scratch = try TemporaryDirectory()
        let catalog = scratch.file("Catalog")
        try writeGeneratedCatalog(at: catalog, tips: 800)
        let store = scratch.file("store.sqlite")
        let arguments = ["publish", "--catalog", catalog, "--store", store, "--author", "crash-test", "--no-cache"]
        func remove() {
            for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        #expect(try Child(executable, arguments).wait().status == 0)
        let duration = Double(DispatchTime.now().uptimeNanoseconds - start)
        var random = SeededGenerator(seed: 0x6669_7273)
        var interrupted = 0
        for round in 1...8 {
            remove()
            let child = try Child(executable, arguments)
            // Killed while it writes the store: once its rollback journal is there (its schema, then its objects, are
            // being written), at once or a moment later (some finish first).
            let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(4 * duration)
            while !FileManager.default.fileExists(atPath: store + "-journal"), child.process.isRunning,
                  DispatchTime.now().uptimeNanoseconds < deadline {
                usleep(100)
            }
            child.kill(after: UInt64(Double.random(in: 0...(duration / 8), using: &random)))
            let result = child.wait()
            let read = storeCLI(["versions", "--store", store, "--json"])
            if !FileManager.default.fileExists(atPath: store) {
                #expect(read.status != .success, "round \(round)")
            } else if read.status != .success {
                // The store's pages were written (a spill, or the commit): its journal is hot.
                #expect(read.stderr.contains("its first publish was interrupted before it committed"), "round \(round): \(read.stderr)")
                #expect(result.status == nil, "round \(round): a publish that finished left no version")
                interrupted += 1
            } else {
                // Killed before the store's pages were written (its journal not yet synced, so not hot), or after
                // the commit: no version or the whole one.
                var verified = Set<Int>()
                let versions = try checkStoreConsistency(store, verified: &verified)
                #expect(versions.count <= 1, "round \(round)")
                if versions.isEmpty { interrupted += 1 }
            }
            let again = try Child(executable, arguments).wait()
            #expect(again.status == 0, "round \(round): \(again.stderr)")
            var verified = Set<Int>()
            #expect(try checkStoreConsistency(store, verified: &verified).count >= 1, "round \(round)")
            #expect(!FileManager.default.fileExists(atPath: store + "-journal"), "round \(round)")
        }
        print("first publishes killed: 8 rounds, \(interrupted) left a store without a version, each repaired by the next publish")
        #expect(interrupted >= 2, "only \(interrupted) of 8 publishes were killed before they committed")

        remove()
        let racers = try (0..<4).map { _ in try Child(executable, arguments + ["--expect-version", "0"]) }
        let results = racers.map { $0.wait() }
        #expect(results.filter { $0.status == 0 }.count == 1, "\(results.map(\.stderr))")
        for loser in results where loser.status != 0 {
            #expect(loser.stderr == "error: version mismatch: production is at 1, expected 0\n")
        }
        var verified = Set<Int>()
        #expect(try checkStoreConsistency(store, verified: &verified).count == 1)
        let mode = try Connection(path: store, mode: .readOnly).journalMode()
        #expect(mode == "wal")
    }

    /// Four processes publish at once with the same `--expect-version`: exactly one wins, the others get the
    /// mismatch error; without the guard all four publish with distinct numbers; a reader running throughout
    /// never sees partial state.
    @Test(.timeLimit(.minutes(1)), arguments: StoreBackend.allCases) func fourConcurrentPublishers(backend: StoreBackend) throws {
        let executable = try #require(tipcatExecutable(), "build the tipcat executable first (swift build)")
        let scratch = try TemporaryDirectory()
        guard let store = try backend.newStoreURL(in: scratch) else { return }
        let writers = (0..<4).map { scratch.file("writer\($0)/Catalog") }
        for path in writers {
            try FileManager.default.copyItem(atPath: sampleCatalogPath, toPath: path)
            try FileManager.default.removeItem(atPath: path + "/plugins.json")
        }
        let seed = storeCLI(["publish", "--catalog", writers[0], "--store", store, "--author", "seed"])
        #expect(seed.status == .success)

        // A reader that checks the store continuously while the writers run.
        let stop = Atomic<Bool>(false)
        let readerFindings = Mutex<[String]>([])
        let reads = Atomic<Int>(0)
        let reader = DispatchGroup()
        DispatchQueue.global().async(group: reader) {
            var verified = Set<Int>()
            while !stop.load(ordering: .acquiring) {
                do {
                    let store = try StoreLocation(store).open(.readOnly)
                    let versions = try store.versions()
                    if versions.map(\.number) != Array(1..<(versions.count + 1)) {
                        readerFindings.withLock { $0.append("versions \(versions.map(\.number))") }
                    }
                    if let head = try store.head(of: .production) {
                        if !verified.contains(head.number) {
                            try store.verify(head)
                            verified.insert(head.number)
                        }
                        _ = try store.catalog(of: head)  // the engine's read: decodes completely
                    }
                    reads.add(1, ordering: .relaxed)
                } catch {
                    readerFindings.withLock { $0.append("\(error)") }
                }
            }
        }
        defer {
            stop.store(true, ordering: .releasing)
            reader.wait()
        }

        func edit(_ writer: Int, _ text: String) throws {
            let file = writers[writer] + "/tips/NewTrailTip.json"
            var json = try String(contentsOfFile: file, encoding: .utf8)
            if let range = json.range(of: #""message": ""#) {
                let end = json[range.upperBound...].firstIndex(of: "\"") ?? range.upperBound
                json.replaceSubrange(range.upperBound..<end, with: text)
            }
            try json.write(toFile: file, atomically: true, encoding: .utf8)
        }

        /// Waits (at most 60 s) until the reader has finished more than `count` reads.
        func waitForReads(after count: Int) {
            let deadline = Date().addingTimeInterval(60)
            while reads.load(ordering: .relaxed) <= count, Date() < deadline { usleep(2_000) }
        }
        // The reader is demonstrably running before the writers start, and reads again after they are done,
        // however the two cores are shared out.
        waitForReads(after: 0)
        let readsBeforeWriting = reads.load(ordering: .relaxed)

        var expectedVersions = 1
        for round in 1...3 {
            for writer in 0..<4 { try edit(writer, "Round \(round), writer \(writer), taps {trail.region}.") }
            let children = try (0..<4).map { writer in
                try Child(executable, ["publish", "--catalog", writers[writer], "--store", store, "--author", "writer\(writer)",
                                       "--expect-version", String(expectedVersions)])
            }
            let results = children.map { $0.wait() }
            let winners = results.filter { $0.status == 0 }
            let losers = results.filter { $0.status == 1 }
            #expect(winners.count == 1, "round \(round): \(results.map(\.stderr))")
            #expect(losers.count == 3, "round \(round): \(results.map(\.stderr))")
            for loser in losers {
                #expect(loser.stderr == "error: version mismatch: production is at \(expectedVersions + 1), expected \(expectedVersions)\n")
            }
            expectedVersions += 1
            var verified = Set<Int>()
            #expect(try checkStoreConsistency(store, verified: &verified).count == expectedVersions)
        }

        // Without the guard, all four publish, each under its own number.
        for writer in 0..<4 { try edit(writer, "Free for all, writer \(writer), taps {trail.region}.") }
        let children = try (0..<4).map { writer in
            try Child(executable, ["publish", "--catalog", writers[writer], "--store", store, "--author", "writer\(writer)"])
        }
        let results = children.map { $0.wait() }
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
        let numbers = results.compactMap { result -> Int? in
            guard let range = result.stdout.range(of: "Published version ") else { return nil }
            return Int(result.stdout[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(Set(numbers) == Set((expectedVersions + 1)...(expectedVersions + 4)))
        var verified = Set<Int>()
        let versions = try checkStoreConsistency(store, verified: &verified)
        #expect(versions.count == expectedVersions + 4)
        // Each version's parent is the version before it: no publish was lost in between.
        #expect(versions.dropFirst().allSatisfy { $0.parent == $0.number - 1 })

        waitForReads(after: readsBeforeWriting)
        stop.store(true, ordering: .releasing)
        reader.wait()
        #expect(readerFindings.withLock { $0 } == [])
        #expect(reads.load(ordering: .relaxed) > readsBeforeWriting)
    }
}
