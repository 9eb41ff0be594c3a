import Foundation
import TipcatCatalog
import TipcatTemplates

/// Inputs that must scale linearly: many placeholders in one message (each located in its file) and many
/// Mustache tags on one line. Each is timed at 1,000 and at 10,000; linear time gives a ratio near 10,
/// quadratic time near 100. The check passes below 25.
enum ScalingBench {
    static let sizes = [1_000, 10_000]
    static let limit = 25.0

    static func run(directory: String, runs: Int) {
        print("")
        print("scaling checks (\(sizes.map(String.init).joined(separator: " → ")); linear when the ratio is below \(Int(limit))×):")
        report("placeholders in one title, each located (validate)") { count in
            let folder = directory + "/scaling-\(count)"
            try? FileManager.default.removeItem(atPath: folder)
            try FileManager.default.createDirectory(atPath: folder + "/tips", withIntermediateDirectories: true)
            try Data(#"{"name": "S", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en"]}"#.utf8)
                .write(to: URL(fileURLWithPath: folder + "/catalog.json"))
            let title = (0..<count).map { "{p\($0)}" }.joined(separator: " ")
            try Data(#"{"id": "A", "title": "\#(title)"}"#.utf8).write(to: URL(fileURLWithPath: folder + "/tips/A.json"))
            return median((0..<runs).map { _ in seconds { _ = CatalogLoader().load(directory: folder) } })
        }
        report("Mustache tags on one line (parse + render)") { count in
            let source = String(repeating: "{{#on}}{{x}}{{/on}} {{! c }}", count: count)
            return try median((0..<runs).map { _ in
                try seconds { _ = try Template(source, name: "line").render(["x": "y", "on": true]) }
            })
        }
    }

    private static func report(_ name: String, _ measure: (Int) throws -> Double) {
        do {
            let times = try sizes.map(measure)
            let ratio = times[1] / max(times[0], 1e-9)
            let figures = zip(sizes, times).map { "\($0): \(format($1 * 1000)) ms" }.joined(separator: ", ")
            print("  \(name): \(figures); ratio \(format(ratio))× (linear: \(ratio < limit ? "met" : "NOT met"))")
        } catch {
            print("  \(name): failed: \(error)")
        }
    }
}
