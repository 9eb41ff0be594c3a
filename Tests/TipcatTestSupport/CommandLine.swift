import Foundation
import TipcatCLI

/// The result of one in-process `tipcat` run.
public struct RunResult: Sendable {
    public var status: ExitCode
    public var stdout: String
    public var stderr: String

    /// A result, for tests that run `tipcat` another way (in a child process, with a terminal…).
    public init(status: ExitCode, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs `tipcat` in-process with captured output.
public func tipcat(_ arguments: String..., environment: [String: String] = [:]) -> RunResult {
    tipcat(arguments, environment: environment)
}

/// Runs `tipcat` in-process with captured output; `terminal` makes stderr claim to be a terminal (progress lines).
public func tipcat(_ arguments: [String], environment: [String: String] = [:], terminal: Bool = false) -> RunResult {
    let out = CapturedOutput()
    let err = CapturedOutput(isTerminal: terminal)
    let status = TipcatCommand.run(arguments, context: CommandContext(stdout: out, stderr: err, environment: environment))
    return RunResult(status: status, stdout: out.text, stderr: err.text)
}

/// The built `tipcat` executable: next to this test bundle, else in `.build/debug`.
public func tipcatExecutable() -> String? {
    var candidates: [String] = []
    if let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        candidates.append(URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("tipcat").path)
    }
    candidates.append(repositoryRoot + "/.build/debug/tipcat")
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}

extension TemporaryDirectory {
    /// The sample catalog published to `<directory>/.tipcat/store.sqlite` (production, version 1).
    public func publishedStore(environment: [String: String] = [:]) throws -> String {
        let catalog = try sampleCatalog()
        let store = file(".tipcat/store.sqlite")
        let result = tipcat(["publish", "--catalog", catalog, "--store", store, "--author", "Test"], environment: environment)
        guard result.status == .success else { throw TestSupportError("publish failed: \(result.stderr)") }
        return store
    }
}

/// What `tipcatProcess` saw: the run's result (nil when it was still running at the deadline and was killed)
/// and how long it took.
public struct TimedRun: Sendable {
    public var result: RunResult?
    public var seconds: Double
}

/// Runs the built `tipcat` executable as a child process, killing it when it has not finished within
/// `timeout` seconds — for input that could make a command wait forever (a FIFO without a writer). `environment`
/// is added to this process's.
public func tipcatProcess(_ arguments: [String], timeout: Double, environment: [String: String] = [:]) throws -> TimedRun {
    guard let executable = tipcatExecutable() else { throw TestSupportError("the tipcat executable is not built") }
    let scratch = try TemporaryDirectory()
    let outPath = scratch.file("stdout"), errPath = scratch.file("stderr")
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
    }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    let start = Date()
    try process.run()
    while process.isRunning, Date().timeIntervalSince(start) < timeout { usleep(10_000) }
    if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return TimedRun(result: nil, seconds: Date().timeIntervalSince(start))
    }
    process.waitUntilExit()
    let seconds = Date().timeIntervalSince(start)
    let status = ExitCode(process.terminationStatus)
    return TimedRun(result: RunResult(status: status, stdout: try scratch.read("stdout"), stderr: try scratch.read("stderr")), seconds: seconds)
}
