import Foundation

/// `make bench`, publishing on PostgreSQL: the whole `tipcat` process against a throwaway local server (Unix
/// socket), beside the SQLite rows — a first publish, publish after a one-tip edit and `versions`, medians.
struct PostgreSQLBench {
    var catalogDirectory: String
    var binary: String
    var runs: Int

    func milliseconds(_ value: Double) -> String { format(value * 1000) + " ms" }

    func spread(_ times: [Double]) -> String {
        "\(milliseconds(median(times))) median of \(times.count) (min \(format((times.min() ?? 0) * 1000)), max \(format((times.max() ?? 0) * 1000)))"
    }

    func run() {
        print("\ntipcat bench — publish on PostgreSQL (whole process, local server on a Unix socket; 1-minute load average \(loadAverage()))")
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("PostgreSQL rows: not measured (\(binary) not built)")
            return
        }
        let server: BenchPostgreSQLServer
        do {
            guard let started = try BenchPostgreSQLServer.start() else {
                print("PostgreSQL rows: skipped (no initdb/pg_ctl in PATH or /usr/lib/postgresql/*/bin; apt-get install postgresql)")
                return
            }
            server = started
        } catch {
            print("PostgreSQL rows: not measured (the server did not start: \(error))")
            return
        }
        defer { server.stop() }
        let url = server.url
        // A PostgreSQL store's publish cache would go to ~/.cache/tipcat: a fresh one of the bench's own instead.
        let cache = catalogDirectory + "/../postgresql-publish-cache"
        try? FileManager.default.removeItem(atPath: cache)
        setenv("TIPCAT_CACHE_DIR", cache, 1)
        defer {
            unsetenv("TIPCAT_CACHE_DIR")
            try? FileManager.default.removeItem(atPath: cache)
        }
        let publish = ["publish", "--catalog", catalogDirectory, "--store", url, "--author", "bench"]
        guard let first = timedRun(binary, publish), exitStatus(binary, ["versions", "--store", url]) == 0 else {
            print("PostgreSQL rows: not measured (tipcat publish to \(url) failed)")
            return
        }
        print("tipcat publish, first version (process, PostgreSQL): \(milliseconds(first))")

        let tips = ((try? FileManager.default.contentsOfDirectory(atPath: catalogDirectory + "/tips")) ?? []).count
        var editTimes: [Double] = []
        for run in 0..<runs {
            let tipFile = catalogDirectory + "/tips/Tip\(max(0, tips - 1 - run)).json"
            guard var text = try? String(contentsOfFile: tipFile, encoding: .utf8), let range = text.range(of: "\"title\": \"") else { continue }
            text.replaceSubrange(range, with: "\"title\": \"Edited for PostgreSQL: ")
            guard (try? text.write(toFile: tipFile, atomically: true, encoding: .utf8)) != nil, let time = timedRun(binary, publish) else { continue }
            editTimes.append(time)
        }
        print("tipcat publish after a one-tip edit at \(tips) tips (process, PostgreSQL): \(spread(editTimes))")
        let versionTimes = (0..<runs).compactMap { _ in timedRun(binary, ["versions", "--store", url]) }
        print("tipcat versions (process, PostgreSQL): \(spread(versionTimes))")
        let diffTimes = (0..<runs).compactMap { _ in timedRun(binary, ["diff", "1", "2", "--store", url]) }
        print("tipcat diff 1 2 (process, PostgreSQL): \(spread(diffTimes))")
        // The engine's first call reads the whole version from the server (the snapshot removed before each run).
        let state = NSTemporaryDirectory() + "tipcat-bench-pg-state-\(getpid()).sqlite"
        let firstCalls = (0..<runs).compactMap { _ -> Double? in
            for suffix in ["", "-wal", "-shm", ".engine-snapshot"] { try? FileManager.default.removeItem(atPath: state + suffix) }
            return timedRun(binary, ["engine", "next", "--store", url, "--state", state])
        }
        for suffix in ["", "-wal", "-shm", ".engine-snapshot"] { try? FileManager.default.removeItem(atPath: state + suffix) }
        print("engine next, first call after a publish (process, PostgreSQL): \(spread(firstCalls))")
    }
}

/// A throwaway PostgreSQL server for the benchmark: `initdb` into a temporary directory, started on a Unix
/// socket there (as Debian's `postgres` user when running as root), stopped and removed by `stop()` — or by a
/// watchdog once this process is gone.
struct BenchPostgreSQLServer {
    var root: String
    var binaries: String
    var port: Int

    /// The server's own `postgres` database holds the store (the server is the benchmark's alone).
    var url: String { "postgresql:///postgres?host=\(root)&port=\(port)&user=tipcat" }

    static func start() throws -> BenchPostgreSQLServer? {
        let manager = FileManager.default
        let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + ((try? manager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).compactMap(Int.init).sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin" }
        guard let binaries = candidates.first(where: { manager.isExecutableFile(atPath: $0 + "/initdb") && manager.isExecutableFile(atPath: $0 + "/pg_ctl") }) else {
            return nil
        }
        var template = Array((manager.temporaryDirectory.path + "/tipcat-bench-pg-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else { throw BenchError("mkdtemp failed") }
        let root = String(cString: created)
        let isRoot = getuid() == 0
        if isRoot {
            guard let user = getpwnam("postgres") else { throw BenchError("running as root needs the 'postgres' user") }
            chown(root, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        let server = BenchPostgreSQLServer(root: root, binaries: binaries, port: 5432 + Int(getpid() % 1000))
        let data = root + "/data"
        // A watchdog stops the server if this process ends without stop().
        detach(["/usr/bin/setsid", "/bin/sh", "-c", "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(server.stopCommand)"])
        guard exitStatus("/bin/sh", ["-c", "cd \(root) && " + server.asServer([binaries + "/initdb", "-D", data, "-U", "tipcat", "--auth-local=trust", "-E", "UTF8", "--no-locale", "--no-sync"])]) == 0 else {
            server.stop()
            throw BenchError("initdb failed")
        }
        let options = "-c listen_addresses= -p \(server.port) -c unix_socket_directories=\(root)"
        guard exitStatus("/bin/sh", ["-c", "cd \(root) && " + server.asServer([binaries + "/pg_ctl", "start", "-D", data, "-w", "-l", root + "/log", "-o", options])]) == 0 else {
            server.stop()
            throw BenchError("pg_ctl start failed")
        }
        return server
    }

    func asServer(_ arguments: [String]) -> String {
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return getuid() == 0 ? "runuser -u postgres -- " + quoted : quoted
    }

    var stopCommand: String {
        asServer([binaries + "/pg_ctl", "stop", "-D", root + "/data", "-m", "fast", "-w"]) + " >/dev/null 2>&1; rm -rf '\(root)'"
    }

    func stop() {
        _ = exitStatus("/bin/sh", ["-c", stopCommand])
    }

    private static func detach(_ arguments: [String]) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_RDWR, 0) }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { (text: String) in strdup(text) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        _ = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
