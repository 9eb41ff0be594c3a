import Foundation
import Testing
@testable import TipcatCLI
import TipcatEngineStore
import TipcatTestSupport

@Suite struct ConcurrencyTests {
    /// Two processes donating to one state database at the same time lose no donation.
    @Test func twoProcessesLoseNoDonation() throws {
        guard let tipcat = tipcatExecutable() else {
            Issue.record("the tipcat executable is not built")
            return
        }
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let state = scratch.file("state.sqlite")
        let perProcess = 40
        // Each child is a shell loop of `tipcat engine donate`, so both hammer the database at once.
        let script = """
            i=0; while [ $i -lt \(perProcess) ]; do
              "$0" engine donate entered-backyard-detail-view backyardID=$1 --store "$2" --state "$3" >/dev/null || exit 1
              i=$((i+1)); done
            """
        var children: [Process] = []
        var errors: [Pipe] = []
        for backyard in 1...2 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script, tipcat, String(backyard), store, state]
            process.environment = ["TIPCAT_NOW": "2026-01-05T08:00:00Z"]
            process.standardOutput = FileHandle.nullDevice
            let error = Pipe()
            process.standardError = error
            errors.append(error)
            children.append(process)
        }
        for child in children { try child.run() }
        for (child, error) in zip(children, errors) {
            let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            #expect(child.terminationStatus == 0, "a donating process failed: \(message)")
        }
        let database = try SQLiteTipStateStore(path: state)
        #expect(try database.donationCount() == 2 * perProcess)
        let snapshot = try database.load()
        #expect(snapshot.donations.filter { $0.values["backyardID"] == .int(1) }.count == perProcess)
        #expect(snapshot.donations.filter { $0.values["backyardID"] == .int(2) }.count == perProcess)
    }
}
