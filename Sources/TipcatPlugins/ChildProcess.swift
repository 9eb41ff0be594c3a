#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import TipcatCore

/// How a child process ended.
public enum ChildTermination: Sendable, Hashable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal killed it.
    case signaled(Int32)
    /// It ran past its time limit and was killed (with its whole process group).
    case timedOut(seconds: Double)
    /// It wrote more than the output limit to standard output and was killed.
    case outputTooLarge(limit: Int)
}

/// What a child process produced.
public struct ChildOutcome: Sendable {
    public var termination: ChildTermination
    public var stdout: [UInt8]
    /// The last bytes the child wrote to standard error (at most `ChildProcess.stderrTailLimit`).
    public var stderrTail: [UInt8]
    /// Wall time from start to end, in seconds.
    public var seconds: Double
}

/// Why a child process could not be started.
public struct ChildProcessError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// Runs one program with a request on its standard input, bounded in time and output — the isolation
/// boundary for external plugins and subcommands.
///
/// The child gets its own process group, so a timeout kills whatever it started too (a shell script's `sleep`
/// would otherwise keep the pipes open). Standard input, output and error are served by one `poll` loop: a
/// child that answers before reading its whole request, or writes a lot to standard error, cannot deadlock it.
public struct ChildProcess: Sendable {
    /// The program: an absolute path, or a path relative to `directory`.
    public var executable: String
    /// Arguments after the program name.
    public var arguments: [String]
    /// The working directory.
    public var directory: String
    public var environment: [String: String]
    public var timeout: Double
    public var stdoutLimit: Int

    public static let stderrTailLimit = 4096

    public init(executable: String, arguments: [String], directory: String, environment: [String: String], timeout: Double, stdoutLimit: Int) {
        self.executable = executable
        self.arguments = arguments
        self.directory = directory
        self.environment = environment
        self.timeout = timeout
        self.stdoutLimit = stdoutLimit
    }

    /// Starts the program; it waits for its input until `communicate` is called (or `cancel`).
    public func start() throws(ChildProcessError) -> RunningChild {
        signal(SIGPIPE, SIG_IGN)
        // Pipes are created and the child spawned under one lock: a pipe made by another thread between its
        // pipe() and its FD_CLOEXEC must not leak into this child (it would hold that pipe open).
        spawnLock.lock()
        var locked = true
        defer { if locked { spawnLock.unlock() } }
        var stdinPipe: [Int32] = [-1, -1]
        var stdoutPipe: [Int32] = [-1, -1]
        var stderrPipe: [Int32] = [-1, -1]
        guard makePipe(&stdinPipe) else { throw ChildProcessError(description: "cannot create a pipe: \(errnoText())") }
        guard makePipe(&stdoutPipe) else {
            closeAll(stdinPipe)
            throw ChildProcessError(description: "cannot create a pipe: \(errnoText())")
        }
        guard makePipe(&stderrPipe) else {
            closeAll(stdinPipe + stdoutPipe)
            throw ChildProcessError(description: "cannot create a pipe: \(errnoText())")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        guard ChildProcess.addChangeDirectory(&actions, directory) else {
            closeAll(stdinPipe + stdoutPipe + stderrPipe)
            throw ChildProcessError(description: "this C library cannot start a program in another directory")
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        var spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        // ETXTBSY: the program was just written and a child another thread is starting holds it open until its own
        // exec; that passes in milliseconds.
        var attempts = 0
        while spawned == ETXTBSY && attempts < 10 {
            attempts += 1
            usleep(20_000)
            spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        }
        close(stdinPipe[0])
        close(stdoutPipe[1])
        close(stderrPipe[1])
        spawnLock.unlock()
        locked = false
        guard spawned == 0 else {
            closeAll([stdinPipe[1], stdoutPipe[0], stderrPipe[0]])
            throw ChildProcessError(description: "cannot start '\(executable)': \(String(cString: strerror(spawned)))")
        }
        for fd in [stdinPipe[1], stdoutPipe[0], stderrPipe[0]] {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        // Larger pipe buffers (Linux F_SETPIPE_SZ; refused quietly above pipe-max-size): a request of tens of
        // megabytes then takes tens of wake-ups instead of hundreds.
        _ = fcntl(stdinPipe[1], 1031, Int32(1 << 20))
        _ = fcntl(stdoutPipe[0], 1031, Int32(1 << 20))
        return RunningChild(pid: pid, stdin: stdinPipe[1], stdout: stdoutPipe[0], stderr: stderrPipe[0], timeout: timeout,
                            stdoutLimit: stdoutLimit)
    }
}

/// A started child process waiting for its input. Call `communicate` or `cancel` exactly once.
public final class RunningChild: @unchecked Sendable {
    let pid: pid_t
    let stdinFD: Int32
    let stdoutFD: Int32
    let stderrFD: Int32
    let timeout: Double
    let stdoutLimit: Int
    private var finished = false

    init(pid: pid_t, stdin: Int32, stdout: Int32, stderr: Int32, timeout: Double, stdoutLimit: Int) {
        self.pid = pid
        self.stdinFD = stdin
        self.stdoutFD = stdout
        self.stderrFD = stderr
        self.timeout = timeout
        self.stdoutLimit = stdoutLimit
    }

    deinit { if !finished { cancel() } }

    /// Kills the child (and its process group) without sending it anything, and reaps it.
    public func cancel() {
        guard !finished else { return }
        finished = true
        for fd in [stdinFD, stdoutFD, stderrFD] { close(fd) }
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Writes `input` (pieces, in order) and collects the output until the child ends or a limit is hit. The
    /// time limit counts from here: a child started early waits for its request at no cost.
    public func communicate(input: some RequestBody) -> ChildOutcome {
        guard !finished else {
            return ChildOutcome(termination: .exited(127), stdout: [], stderrTail: Array("(the process was already finished)".utf8), seconds: 0)
        }
        finished = true
        let start = monotonicSeconds()
        let pid = self.pid
        let timeout = self.timeout
        let stdoutLimit = self.stdoutLimit
        var pieceIndex = 0
        var current: [UInt8] = []
        var writeFD: Int32 = stdinFD
        var outFD = stdoutFD
        var errFD = stderrFD
        var written = 0
        var stdout: [UInt8] = []
        var stderrTail: [UInt8] = []
        var exitStatus: Int32?
        var limitHit: ChildTermination?
        let deadline = start + timeout
        var buffer = [UInt8](repeating: 0, count: 65_536)

        func finishWriting() {
            if writeFD >= 0 {
                close(writeFD)
                writeFD = -1
                PhaseTrace.mark("plugin: request written")
            }
        }

        loop: while true {
            let now = monotonicSeconds()
            if now >= deadline {
                limitHit = .timedOut(seconds: timeout)
                break
            }
            if outFD < 0 && errFD < 0 {
                // Both outputs closed: wait for the exit, still bounded by the deadline.
                finishWriting()
                var status: Int32 = 0
                let result = waitpid(pid, &status, WNOHANG)
                if result == pid {
                    exitStatus = status
                    break
                }
                if result < 0 && errno != EINTR {
                    exitStatus = 0
                    break
                }
                usleep(2000)
                continue
            }
            var fds: [pollfd] = []
            if writeFD >= 0 { fds.append(pollfd(fd: writeFD, events: Int16(POLLOUT), revents: 0)) }
            if outFD >= 0 { fds.append(pollfd(fd: outFD, events: Int16(POLLIN), revents: 0)) }
            if errFD >= 0 { fds.append(pollfd(fd: errFD, events: Int16(POLLIN), revents: 0)) }
            let wait = Int32(max(1, min(1000, (deadline - now) * 1000)))
            let ready = poll(&fds, nfds_t(fds.count), wait)
            if ready < 0 {
                if errno == EINTR { continue }
                limitHit = .timedOut(seconds: timeout)
                break
            }
            for entry in fds where entry.revents != 0 {
                if entry.fd == writeFD {
                    // The next piece may still be being encoded: waiting for it here only delays reading the
                    // child's output, which it cannot finish before it has read its input anyway.
                    while written >= current.count, let next = input.piece(pieceIndex) {
                        pieceIndex += 1
                        current = next
                        written = 0
                    }
                    if written >= current.count {
                        finishWriting()
                        continue
                    }
                    let count = current.withUnsafeBytes { raw in
                        Glibc.write(writeFD, raw.baseAddress.map { $0 + written }, min(current.count - written, 1 << 20))
                    }
                    if count > 0 {
                        written += count
                    } else if count < 0 && errno != EAGAIN && errno != EINTR {
                        finishWriting()  // EPIPE: the child stopped reading; its answer still counts.
                    }
                } else {
                    let count = read(entry.fd, &buffer, buffer.count)
                    if count > 0 {
                        if entry.fd == outFD {
                            stdout.append(contentsOf: buffer[0..<count])
                            if stdout.count > stdoutLimit {
                                limitHit = .outputTooLarge(limit: stdoutLimit)
                                break loop
                            }
                        } else {
                            stderrTail.append(contentsOf: buffer[0..<count])
                            if stderrTail.count > 2 * ChildProcess.stderrTailLimit {
                                stderrTail.removeFirst(stderrTail.count - ChildProcess.stderrTailLimit)
                            }
                        }
                    } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                        close(entry.fd)
                        if entry.fd == outFD { outFD = -1; PhaseTrace.mark("plugin: answer read") } else { errFD = -1 }
                    }
                }
            }
        }
        finishWriting()
        if outFD >= 0 { close(outFD) }
        if errFD >= 0 { close(errFD) }
        if exitStatus == nil {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            exitStatus = status
        }
        if stderrTail.count > ChildProcess.stderrTailLimit {
            stderrTail.removeFirst(stderrTail.count - ChildProcess.stderrTailLimit)
        }
        let termination: ChildTermination
        if let limitHit {
            termination = limitHit
        } else {
            let status = exitStatus ?? 0
            let signalNumber = status & 0x7f
            termination = signalNumber == 0 ? .exited((status >> 8) & 0xff) : .signaled(signalNumber)
        }
        return ChildOutcome(termination: termination, stdout: stdout, stderrTail: stderrTail, seconds: monotonicSeconds() - start)
    }
}

extension ChildProcess {
    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29+), looked up at run time: Swift's Glibc module does
    /// not declare it.
    private static func addChangeDirectory(_ actions: inout posix_spawn_file_actions_t, _ directory: String) -> Bool {
        typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else { return false }
        let function = unsafeBitCast(symbol, to: AddChdir.self)
        return function(&actions, directory) == 0
    }
}

private let spawnLock = NSLock()

/// `pipe` with both ends close-on-exec.
private func makePipe(_ fds: inout [Int32]) -> Bool {
    guard pipe(&fds) == 0 else { return false }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return true
}

private func closeAll(_ descriptors: [Int32]) {
    for fd in descriptors where fd >= 0 { close(fd) }
}

private func errnoText() -> String { String(cString: strerror(errno)) }

func monotonicSeconds() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}

/// Finds a program the way a shell does: a name with a slash is a path (relative to `directory`); a bare name is
/// looked up in `PATH` for a regular, executable file.
public func resolveExecutable(_ name: String, directory: String, environment: [String: String]) -> String? {
    if name.contains("/") {
        let path = name.hasPrefix("/") ? name : (directory.hasSuffix("/") ? directory : directory + "/") + name
        return isExecutableFile(path) ? path : nil
    }
    guard !name.isEmpty else { return nil }
    for entry in (environment["PATH"] ?? defaultSearchPath).split(separator: ":", omittingEmptySubsequences: true) {
        let candidate = entry.hasSuffix("/") ? entry + name : entry + "/" + name
        if isExecutableFile(String(candidate)) { return String(candidate) }
    }
    return nil
}

/// Whether `path` is a regular file (after following symlinks) this process may execute.
public func isExecutableFile(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
    return access(path, X_OK) == 0
}
