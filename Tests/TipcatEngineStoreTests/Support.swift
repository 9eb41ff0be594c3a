import Foundation
import Testing
@testable import TipcatCLI

/// The repository root, from this file's path.
let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// A fresh temporary directory, removed when released.
final class Scratch: @unchecked Sendable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tipcat-engine-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ relative: String) -> String { path + "/" + relative }

    func write(_ relative: String, _ text: String) throws {
        try text.write(toFile: file(relative), atomically: true, encoding: .utf8)
    }

    /// A copy of the sample catalog at `<scratch>/Catalog`.
    func sampleCatalog() throws -> String {
        let destination = file("Catalog")
        if !FileManager.default.fileExists(atPath: destination) {
            try FileManager.default.copyItem(atPath: repositoryRoot + "/Catalog", toPath: destination)
        }
        return destination
    }

    /// The sample catalog published to `<scratch>/.tipcat/store.sqlite` (production, version 1).
    func publishedStore() throws -> String {
        let catalog = try sampleCatalog()
        let store = file(".tipcat/store.sqlite")
        let result = run(["publish", "--catalog", catalog, "--store", store, "--author", "Test"])
        #expect(result.status == .success, "\(result.stderr)")
        return store
    }
}

/// The result of one in-process `tipcat` run.
struct CLIResult {
    var status: ExitCode
    var stdout: String
    var stderr: String
}

/// Runs `tipcat` in-process with captured output at a fixed time.
func run(_ arguments: [String], environment: [String: String] = [:]) -> CLIResult {
    let out = CapturedOutput()
    let err = CapturedOutput()
    var env = ["TIPCAT_NOW": "2026-01-05T08:00:00Z"]
    env.merge(environment) { _, new in new }
    let status = TipcatCommand.run(arguments, context: CommandContext(stdout: out, stderr: err, environment: env))
    return CLIResult(status: status, stdout: out.text, stderr: err.text)
}

/// The built `tipcat` executable: next to this test bundle, else in `.build/debug`.
func tipcatExecutable() -> String? {
    var candidates: [String] = []
    if let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        candidates.append(URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("tipcat").path)
    }
    candidates.append(repositoryRoot + "/.build/debug/tipcat")
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}
