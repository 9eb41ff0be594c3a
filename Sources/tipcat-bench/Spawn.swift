import Foundation

/// Runs `path` with `arguments` (stdout to `stdout`, or /dev/null; stderr to /dev/null) and returns its wall time
/// in seconds, timed with posix_spawn and waitpid: Foundation's Process adds tens of milliseconds of its own to
/// each wait.
func timedRun(_ path: String, _ arguments: [String], stdout: String? = nil) -> Double? {
    spawnAndWait(path, arguments, stdout: stdout).map(\.seconds)
}

/// The exit status of `path` run with `arguments` (output discarded), or nil when it could not start or was killed.
func exitStatus(_ path: String, _ arguments: [String]) -> Int32? {
    guard let run = spawnAndWait(path, arguments, stdout: nil), run.status & 0x7F == 0 else { return nil }
    return (run.status >> 8) & 0xFF
}

private func spawnAndWait(_ path: String, _ arguments: [String], stdout: String?) -> (seconds: Double, status: Int32)? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let stdout {
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    } else {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, status)
}

/// Runs `python3 -c script argument` and returns what it printed, trimmed; nil when python3 could not start.
func runPython(_ script: String, _ argument: String) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, argument]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return nil }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
