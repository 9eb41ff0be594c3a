import Foundation
import Testing
import TipcatCore
import TipcatJSON

/// A by-hand timing check, not a timed test: it only runs when `TIPCAT_JSON_BENCH` names a directory
/// holding `Localizable.xcstrings` and/or `tips/*.json`, and it asserts nothing about speed. Run it in a
/// release build:
///
///     TIPCAT_JSON_BENCH=/tmp/bench swift test -c release --filter ThroughputCheck
@Suite struct ThroughputCheck {
    static let directory = ProcessInfo.processInfo.environment["TIPCAT_JSON_BENCH"]

    /// Best of `rounds` wall-clock times for `body`, in seconds.
    private func best(_ rounds: Int, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            try body()
            let elapsed = ContinuousClock.now - start
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        return best
    }

    private func report(_ label: String, bytes: Int, seconds: Double) {
        let line = "\(label): \(bytes) bytes in \(String(format: "%.1f", seconds * 1000)) ms = \(String(format: "%.0f", Double(bytes) / seconds / 1e6)) MB/s"
        print(line)
    }

    @Test(.enabled(if: directory != nil, "set TIPCAT_JSON_BENCH to run"))
    func measure() throws {
        let directory = URL(fileURLWithPath: try #require(Self.directory))
        let catalog = directory.appendingPathComponent("Localizable.xcstrings")
        if let data = try? Data(contentsOf: catalog) {
            let source = SourceFile(path: catalog.path, bytes: [UInt8](data))
            var root: JSONNode?
            let seconds = try best(5) { root = try JSONDocument.parse(source).root }
            #expect(root?.value.objectValue?["strings"] != nil)
            report("xcstrings parse", bytes: data.count, seconds: seconds)
            let lines = best(5) { _ = SourceFile(path: catalog.path, bytes: [UInt8](data)) }
            report("xcstrings SourceFile (line table)", bytes: data.count, seconds: lines)
            let value = try #require(root?.value)
            var written = ""
            let writeSeconds = best(3) { written = value.serialized(sortedKeys: true) }
            report("xcstrings write (sorted keys)", bytes: written.utf8.count, seconds: writeSeconds)
            let plainSeconds = best(3) { written = value.serialized() }
            report("xcstrings write", bytes: written.utf8.count, seconds: plainSeconds)
        }
        let tips = directory.appendingPathComponent("tips")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: tips.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        if !names.isEmpty {
            let sources = try names.map { name in
                SourceFile(path: name, bytes: [UInt8](try Data(contentsOf: tips.appendingPathComponent(name))))
            }
            let total = sources.reduce(0) { $0 + $1.bytes.count }
            let seconds = try best(5) {
                for source in sources { _ = try JSONDocument.parse(source) }
            }
            report("\(sources.count) tip files parse", bytes: total, seconds: seconds)
        }
        // A synthetic ASCII string-heavy document, independent of the files.
        var text = "["
        for index in 0..<200_000 {
            text += #"{"key":"NewTrailTip.title.\#(index)","value":"Discover what is new in the Wasatch region this week","state":"translated"},"#
        }
        text += "null]"
        let synthetic = SourceFile(path: "synthetic.json", text: text)
        let seconds = try best(5) { _ = try JSONDocument.parse(synthetic) }
        report("synthetic ASCII strings parse", bytes: synthetic.bytes.count, seconds: seconds)
    }
}
