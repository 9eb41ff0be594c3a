import Foundation
import Testing
@testable import TipcatCLI

/// The repository root, found from this file's path (works on a clean clone, no ../shared).
let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

let sampleCatalog = repositoryRoot + "/Catalog"

/// The result of one in-process `tipcat` run.
struct RunResult {
    var status: ExitCode
    var stdout: String
    var stderr: String
}

/// Runs `tipcat` in-process with captured output.
func tipcat(_ arguments: String..., environment: [String: String] = [:]) -> RunResult {
    tipcat(arguments, environment: environment)
}

func tipcat(_ arguments: [String], environment: [String: String] = [:]) -> RunResult {
    let out = CapturedOutput()
    let err = CapturedOutput()
    let status = TipcatCommand.run(arguments, context: CommandContext(stdout: out, stderr: err, environment: environment))
    return RunResult(status: status, stdout: out.text, stderr: err.text)
}

/// A fresh temporary directory, removed when the value is deinitialized.
final class TemporaryDirectory {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tipcat-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A copy of the sample catalog inside this directory; returns its path.
    func copyOfSampleCatalog() throws -> String {
        let destination = path + "/Catalog"
        try FileManager.default.copyItem(atPath: sampleCatalog, toPath: destination)
        return destination
    }

    func write(_ relativePath: String, _ text: String) throws {
        try write(relativePath, Data(text.utf8))
    }

    func write(_ relativePath: String, _ data: Data) throws {
        let url = URL(fileURLWithPath: path + "/" + relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }
}

/// A minimal valid catalog (one tip) in `directory/Catalog`; returns the catalog path.
func minimalCatalog(in directory: TemporaryDirectory) throws -> String {
    try directory.write("Catalog/catalog.json", """
        {"name": "T", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en", "fr"]}
        """)
    try directory.write("Catalog/tips/A.json", #"{"id": "A", "title": "Hello"}"#)
    return directory.path + "/Catalog"
}
