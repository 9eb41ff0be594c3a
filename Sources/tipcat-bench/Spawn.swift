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

/// What one child process used: wall time and CPU time (user + system), from wait4.
struct ProcessUsage {
    var seconds: Double
    var cpuSeconds: Double
}

/// Runs `path` with `arguments` (output discarded) and returns what it used; nil when it could not start or did
/// not exit 0. (Not its peak memory: a process started with posix_spawn inherits the high-water mark of this
/// one's memory; see `peakResidentBytes`.)
func measuredRun(_ path: String, _ arguments: [String]) -> ProcessUsage? {
    guard let run = spawnAndWait(path, arguments, stdout: nil), run.status == 0 else { return nil }
    return run.usage
}

/// The peak resident memory of `path` run with `arguments`, from GNU time (which forks the command, so the
/// figure is the command's own); nil without /usr/bin/time or when the command fails.
func peakResidentBytes(_ path: String, _ arguments: [String]) -> Int? {
    let time = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: time) else { return nil }
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("tipcat-bench-rss-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: report) }
    guard let run = spawnAndWait(time, ["-f", "%M", "-o", report, path] + arguments, stdout: nil), run.status == 0,
          let text = try? String(contentsOfFile: report, encoding: .utf8),
          let kilobytes = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    else { return nil }
    return kilobytes * 1024
}

private func spawnAndWait(_ path: String, _ arguments: [String], stdout: String?) -> (seconds: Double, status: Int32, usage: ProcessUsage)? {
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
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    func time(_ value: timeval) -> Double { Double(value.tv_sec) + Double(value.tv_usec) / 1e6 }
    let used = ProcessUsage(seconds: seconds, cpuSeconds: time(usage.ru_utime) + time(usage.ru_stime))
    return (seconds, status, used)
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

/// The Python interpreter the peers run on: `python3` on PATH, asked for `sys.executable`. A version manager's
/// shim on PATH (pyenv's is a shell script that runs pyenv before Python, about 90 ms a start) would otherwise
/// be timed as Python's own cost, flattering tipcat in every comparison. Nil without python3.
let pythonInterpreter: String? = {
    guard let onPath = RenderProcessBench.executable(named: "python3") else { return nil }
    guard let path = runPython("import sys; print(sys.executable)", ""), FileManager.default.isExecutableFile(atPath: path)
    else { return onPath }
    return path
}()
