import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Headless Chromium driven through the DevTools protocol over `--remote-debugging-pipe`: JSON messages, each
/// ended by a NUL byte, written to the browser's fd 3 and read from its fd 4. No WebSocket, no dependency.
///
/// The browser runs in its own process group, with a temporary profile; `close()` (and deinit) kill the whole
/// group, so a failing test never leaves a browser behind. Every call has a deadline.
final class Chromium: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The installed Chromium, if any (Debian's `chromium` package).
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = ["chromium", "chromium-browser", "google-chrome"].flatMap { name in
            path.split(separator: ":").map { "\($0)/\(name)" }
        } + ["/usr/bin/chromium", "/usr/lib/chromium/chromium"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    private let pid: pid_t
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private let profile: String
    private var buffer: [UInt8] = []
    private var nextID = 1
    private var closed = false
    /// Every event received so far (method, params, sessionId).
    private(set) var events: [(method: String, params: [String: Any], session: String?)] = []
    /// The page session every page call goes to.
    private(set) var session = ""
    let timeout: Double

    init(timeout: Double = 20) throws {
        guard let executable = Self.executable else { throw Failure(description: "chromium is not installed") }
        self.timeout = timeout
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("tipcat-chromium-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw Failure(description: "pipe failed") }
        // Above the descriptors the child gets (3 and 4), so the dup2 calls cannot overwrite one another.
        let childIn = fcntl(input[0], F_DUPFD_CLOEXEC, 10)
        let childOut = fcntl(output[1], F_DUPFD_CLOEXEC, 10)
        Glibc.close(input[0])
        Glibc.close(output[1])
        _ = fcntl(input[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(output[0], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, profile + "/stderr.log", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, childIn, 3)
        posix_spawn_file_actions_adddup2(&actions, childOut, 4)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        let arguments = [
            executable, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--user-data-dir=" + profile,
            "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-background-networking", "--disable-sync",
            "--disable-component-update", "--mute-audio", "--window-size=1200,900", "about:blank",
        ]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        Glibc.close(childIn)
        Glibc.close(childOut)
        guard status == 0 else {
            Glibc.close(input[1])
            Glibc.close(output[0])
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        toBrowser = input[1]
        fromBrowser = output[0]
        do {
            let target = try call("Target.createTarget", ["url": "about:blank"], inSession: false)
            guard let targetID = target["targetId"] as? String else { throw Failure(description: "no targetId") }
            let attached = try call("Target.attachToTarget", ["targetId": targetID, "flatten": true], inSession: false)
            guard let sessionID = attached["sessionId"] as? String else { throw Failure(description: "no sessionId") }
            session = sessionID
            _ = try call("Page.enable")
            _ = try call("Runtime.enable")
            _ = try call("Log.enable")
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Kills the browser's process group and removes the profile.
    func close() {
        guard !closed else { return }
        closed = true
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        Glibc.close(toBrowser)
        Glibc.close(fromBrowser)
        try? FileManager.default.removeItem(atPath: profile)
    }

    /// What Chromium wrote to stderr (for failure messages).
    var log: String { (try? String(contentsOfFile: profile + "/stderr.log", encoding: .utf8)) ?? "" }

    // MARK: Protocol

    /// Sends a command and waits for its result (events that arrive meanwhile are kept).
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:], inSession: Bool = true) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if inSession { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { write(toBrowser, $0.baseAddress.map { $0 + sent }, bytes.count - sent) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot write to chromium: \(String(cString: strerror(errno)))")
            }
            sent += count
        }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let reply = try nextMessage(deadline: deadline, waitingFor: method)
            if let replyID = reply["id"] as? Int, replyID == id {
                if let error = reply["error"] as? [String: Any] {
                    throw Failure(description: "\(method): \(error["message"] ?? error)")
                }
                return reply["result"] as? [String: Any] ?? [:]
            }
        }
    }

    /// Reads one message; an event is recorded and returned too.
    private func nextMessage(deadline: Date, waitingFor what: String) throws -> [String: Any] {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let data = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                guard let message = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
                if let method = message["method"] as? String {
                    events.append((method, message["params"] as? [String: Any] ?? [:], message["sessionId"] as? String))
                }
                return message
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw Failure(description: "chromium did not answer \(what) in \(timeout) s") }
            var poller = pollfd(fd: fromBrowser, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000))
            if ready < 0, errno != EINTR { throw Failure(description: "poll failed") }
            if ready <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(fromBrowser, $0.baseAddress, $0.count) }
            if count == 0 { throw Failure(description: "chromium closed the pipe while waiting for \(what); log: \(log.suffix(2000))") }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Failure(description: "cannot read from chromium")
            }
            buffer += chunk[0..<count]
        }
    }

    /// Waits for an event of the page session.
    func waitForEvent(_ method: String, after index: Int) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !events[index...].contains(where: { $0.method == method && $0.session == session }) {
            _ = try nextMessage(deadline: deadline, waitingFor: method)
        }
    }

    // MARK: Pages

    /// Navigates and waits until `url` is the loaded document. A load event of the page being left (a reload its
    /// script started) can come first under load: such an event is not taken for this page's.
    func open(_ url: String) throws {
        var mark = events.count
        let result = try call("Page.navigate", ["url": url])
        if let error = result["errorText"] as? String, !error.isEmpty { throw Failure(description: "cannot open \(url): \(error)") }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            try waitForEvent("Page.loadEventFired", after: mark)
            let checked = events.count  // events read during the check still count for the next wait
            if (try? string("document.readyState === 'complete' ? location.href : ''")) == url { return }
            guard Date() < deadline else { throw Failure(description: "\(url) did not become the loaded page") }
            mark = checked
        }
    }

    /// The value of a JavaScript expression in the page (returned by value; promises awaited).
    func evaluate(_ expression: String) throws -> Any? {
        let result = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        if let exception = result["exceptionDetails"] as? [String: Any] {
            throw Failure(description: "\(expression): \(exception["text"] ?? exception)")
        }
        return (result["result"] as? [String: Any])?["value"]
    }

    func string(_ expression: String) throws -> String {
        guard let value = try evaluate(expression) as? String else { throw Failure(description: "\(expression) is not a string") }
        return value
    }

    /// Emulates `prefers-color-scheme`.
    func colorScheme(_ scheme: String) throws {
        try call("Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": scheme]]])
    }

    /// Console errors and warnings, uncaught exceptions and log entries of level error or warning (CSP violations
    /// are reported as such) since event `index`, as text.
    func problems(since index: Int) -> [String] {
        events[index...].compactMap { event in
            switch event.method {
            case "Runtime.consoleAPICalled":
                let type = event.params["type"] as? String ?? ""
                guard type == "error" || type == "warning" || type == "assert" else { return nil }
                let args = (event.params["args"] as? [[String: Any]] ?? []).map { "\($0["value"] ?? $0["description"] ?? "")" }
                return "console.\(type): " + args.joined(separator: " ")
            case "Runtime.exceptionThrown":
                let details = event.params["exceptionDetails"] as? [String: Any] ?? [:]
                return "exception: \(details["text"] ?? "") \((details["exception"] as? [String: Any])?["description"] ?? "")"
            case "Log.entryAdded":
                let entry = event.params["entry"] as? [String: Any] ?? [:]
                let level = entry["level"] as? String ?? ""
                guard level == "error" || level == "warning" else { return nil }
                return "log.\(level) (\(entry["source"] ?? "")): \(entry["text"] ?? "") \(entry["url"] ?? "")"
            default:
                return nil
            }
        }
    }
}
