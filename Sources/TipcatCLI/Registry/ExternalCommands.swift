import Foundation
import TipcatArguments
import TipcatCore
import TipcatPlugins
#if canImport(Glibc)
import Glibc
#endif

/// External subcommands, as git and cargo have them: `tipcat foo a b` runs the executable `tipcat-foo` found on
/// `PATH` with `a b` when `foo` is not a built-in command.
///
/// Only names matching `[a-z0-9][a-z0-9-]*` are looked up, so a name can never be a path (`/`, `..`). `PATH`
/// comes from the command's environment; empty `PATH` entries (which POSIX reads as the current directory) are
/// skipped, so a file in the working directory never runs by accident.
public enum ExternalCommands {
    /// The executable-name prefix: `tipcat-foo` implements `tipcat foo`.
    public static let prefix = "tipcat-"

    /// Whether `name` may name an external command: `[a-z0-9][a-z0-9-]*`.
    public static func isValidName(_ name: String) -> Bool { PluginName.isKebab(name) }

    /// The path of the executable implementing `tipcat name`: the first `tipcat-name` on `PATH` that is a
    /// regular executable file; nil when there is none or `name` is not a valid external command name.
    public static func executable(named name: String, environment: [String: String]) -> String? {
        guard isValidName(name) else { return nil }
        for directory in searchPath(environment) {
            let candidate = directory + "/" + prefix + name
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// Every external command on `PATH`, sorted by name: for each name the first regular executable file
    /// `tipcat-NAME` in `PATH` order (later ones are shadowed, as the shell would).
    public static func discover(environment: [String: String]) -> [(name: String, path: String)] {
        var found: [String: String] = [:]
        for directory in searchPath(environment) {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for entry in entries.sorted() where entry.hasPrefix(prefix) {
                let name = String(entry.dropFirst(prefix.count))
                guard isValidName(name), found[name] == nil else { continue }
                let path = directory + "/" + entry
                if isExecutableFile(path) { found[name] = path }
            }
        }
        return found.keys.sorted().compactMap { name in found[name].map { (name: name, path: $0) } }
    }

    /// Runs the executable at `path` with `arguments`; returns its exit status (128+N when killed by signal N).
    ///
    /// Outputs that are real file descriptors (`FileOutput`) are flushed and handed to the child, which then
    /// writes to the terminal itself and inherits stdin. Any other output (captured text in tests) is fed
    /// through pipes: both pipes are drained on their own threads while the child runs, so a child filling one
    /// pipe cannot deadlock against us reading the other; each output is written once the child is done, and
    /// the child's stdin is then /dev/null so an in-process run never waits for a terminal.
    static func run(path: String, arguments: [String], context: CommandContext) throws -> ExitStatus {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = context.environment
        var drains: [(Pipe, any TextOutput)] = []
        let inherits = context.stdout is FileOutput && context.stderr is FileOutput
        if let out = context.stdout as? FileOutput, let err = context.stderr as? FileOutput, inherits {
            out.flush()
            err.flush()
            process.standardOutput = FileHandle(fileDescriptor: out.descriptor, closeOnDealloc: false)
            process.standardError = FileHandle(fileDescriptor: err.descriptor, closeOnDealloc: false)
        } else {
            let outPipe = Pipe()
            let errPipe = Pipe()
            process.standardOutput = outPipe
            process.standardError = errPipe
            process.standardInput = FileHandle.nullDevice
            drains = [(outPipe, context.stdout), (errPipe, context.stderr)]
        }
        // ETXTBSY ("text file busy"): the program was just written, and a child that another thread is starting at
        // this moment still holds it open until its own exec. That passes in milliseconds: try again a few times.
        var attempt = 0
        while true {
            do {
                try process.run()
                break
            } catch let error as NSError where error.code == Int(ETXTBSY) && attempt < 10 {
                attempt += 1
                usleep(20_000)
            } catch {
                throw CommandError.failure("cannot run '\(path)': \(error.localizedDescription)")
            }
        }
        let group = DispatchGroup()
        let collected = CollectedBytes(count: drains.count)
        for (index, (pipe, _)) in drains.enumerated() {
            let handle = pipe.fileHandleForReading
            DispatchQueue.global().async(group: group) {
                collected.set(index, handle.readDataToEndOfFile())
            }
        }
        process.waitUntilExit()
        group.wait()
        for (index, (_, output)) in drains.enumerated() {
            let data = collected.get(index)
            if !data.isEmpty { output.write(String(decoding: data, as: UTF8.self)) }
        }
        switch process.terminationReason {
        case .uncaughtSignal: return ExitStatus(128 + process.terminationStatus)
        case .exit: return ExitStatus(process.terminationStatus)
        @unknown default: return ExitStatus(process.terminationStatus)
        }
    }

    // MARK: Helpers

    /// The `PATH` directories in order, without empty entries.
    private static func searchPath(_ environment: [String: String]) -> [String] {
        (environment["PATH"] ?? "").split(separator: ":", omittingEmptySubsequences: true).map(String.init)
    }
}

/// The bytes read from each child pipe, filled in by the drain threads.
private final class CollectedBytes: @unchecked Sendable {
    // Guarded by `lock`.
    private var slots: [Data]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: Data(), count: count) }

    func set(_ index: Int, _ data: Data) { lock.withLock { slots[index] = data } }
    func get(_ index: Int) -> Data { lock.withLock { slots[index] } }
}
