import Foundation
import TipcatPostgreSQL

/// One throwaway PostgreSQL server per test run, shared by every suite: `initdb` into a temporary directory,
/// started on a Unix socket in that directory and on a free loopback port, stopped when the test process
/// exits.
///
/// PostgreSQL refuses to run as root: under root (as in CI) the server's binaries run as Debian's `postgres`
/// user (`runuser`), with the directory given to it. Orphans cannot outlive the run: a watchdog process stops
/// the server as soon as the test process is gone (however it ended), and each start first stops the servers
/// of earlier runs whose test process is dead.
///
/// Tests call `PostgreSQLTestServer.shared()`; it returns nil, with the reason in `unavailableReason`, only
/// when no PostgreSQL server binaries are installed. Each test gets its own database (`makeDatabase()`).
public final class PostgreSQLTestServer: @unchecked Sendable {
    /// The directory holding the cluster (`data`), the socket and the log.
    public let root: String
    /// The TCP port (127.0.0.1), also the socket's number.
    public let port: Int
    /// A login role that must give its password (over TCP): for tests of credentials.
    public let passwordUser = "tipcat_password_user"
    /// That role's password.
    public let password = "correct horse battery"
    private let binaries: String
    private let admin: PostgreSQLConnection
    private let lock = NSLock()
    private var databases = 0

    /// The shared server, started on first use; nil when PostgreSQL is not installed.
    public static func shared() throws -> PostgreSQLTestServer? {
        switch sharedServer {
        case .success(let server): return server
        case .failure(let error):
            if error.description.hasPrefix(notInstalled) { return nil }
            throw error
        }
    }

    /// Why `shared()` is nil (no server binaries), for the skipped tests to print.
    public static var unavailableReason: String {
        if case .failure(let error) = sharedServer { return error.description }
        return ""
    }

    private static let notInstalled = "PostgreSQL is not installed"

    private static let sharedServer: Result<PostgreSQLTestServer, TestSupportError> = {
        do {
            let server = try PostgreSQLTestServer()
            runningServer = server.stopCommand
            atexit { if let command = runningServer { _ = runShell(command) } }
            return .success(server)
        } catch let error as TestSupportError {
            return .failure(error)
        } catch {
            return .failure(TestSupportError("\(error)"))
        }
    }()

    private static nonisolated(unsafe) var runningServer: String?

    /// The `initdb`, `pg_ctl` and `postgres` directory: from PATH, else the newest /usr/lib/postgresql/*/bin.
    static func findBinaries() -> String? {
        let manager = FileManager.default
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        where manager.isExecutableFile(atPath: directory + "/initdb") && manager.isExecutableFile(atPath: directory + "/pg_ctl") {
            return directory
        }
        let versions = ((try? manager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).compactMap(Int.init).sorted()
        for version in versions.reversed() {
            let directory = "/usr/lib/postgresql/\(version)/bin"
            if manager.isExecutableFile(atPath: directory + "/initdb") && manager.isExecutableFile(atPath: directory + "/pg_ctl") {
                return directory
            }
        }
        return nil
    }

    private static var isRoot: Bool { getuid() == 0 }

    /// `command` as a shell line run as the server's user.
    private static func asServerUser(_ arguments: [String]) -> String {
        let quoted = arguments.map(shellQuoted).joined(separator: " ")
        return isRoot ? "runuser -u postgres -- \(quoted)" : quoted
    }

    private init() throws {
        guard let binaries = PostgreSQLTestServer.findBinaries() else {
            throw TestSupportError("\(PostgreSQLTestServer.notInstalled) (no initdb/pg_ctl in PATH or /usr/lib/postgresql/*/bin; make test installs Debian's postgresql package)")
        }
        self.binaries = binaries
        if PostgreSQLTestServer.isRoot, getpwnam("postgres") == nil {
            throw TestSupportError("running as root, PostgreSQL needs the 'postgres' system user (Debian's postgresql package creates it)")
        }
        PostgreSQLTestServer.stopOrphans(binaries: binaries)

        let base = FileManager.default.temporaryDirectory.path
        var template = Array((base + "/tipcat-pg-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else { throw TestSupportError("mkdtemp failed: \(String(cString: strerror(errno)))") }
        root = String(cString: created)
        try "\(getpid())\n".write(toFile: root + "/owner.pid", atomically: true, encoding: .utf8)
        if PostgreSQLTestServer.isRoot, let user = getpwnam("postgres") {
            chown(root, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        port = try PostgreSQLTestServer.freePort()

        let data = root + "/data"
        let initdb = PostgreSQLTestServer.asServerUser([
            binaries + "/initdb", "-D", data, "-U", "tipcat", "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8",
            "--no-locale", "--no-sync",
        ])
        let initialized = PostgreSQLTestServer.runShell("cd \(shellQuoted(root)) && \(initdb)")
        guard initialized.status == 0 else { throw TestSupportError("initdb failed: \(initialized.output)") }

        // A watchdog stops the server once this process is gone, however it ends (even by SIGKILL).
        let stop = PostgreSQLTestServer.asServerUser([binaries + "/pg_ctl", "stop", "-D", data, "-m", "immediate", "-w"])
        let watchdog = "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(stop) >/dev/null 2>&1; rm -rf \(shellQuoted(root))"
        PostgreSQLTestServer.detach(watchdog)

        let options = "-c listen_addresses=127.0.0.1 -p \(port) -c unix_socket_directories=\(root) -c fsync=off "
            + "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        let start = PostgreSQLTestServer.asServerUser([
            binaries + "/pg_ctl", "start", "-D", data, "-w", "-t", "60", "-l", root + "/server.log", "-o", options,
        ])
        let started = PostgreSQLTestServer.runShell("cd \(shellQuoted(root)) && \(start)")
        guard started.status == 0 else {
            let log = (try? String(contentsOfFile: root + "/server.log", encoding: .utf8)) ?? ""
            _ = PostgreSQLTestServer.runShell("\(stop) >/dev/null 2>&1; rm -rf \(shellQuoted(root))")
            throw TestSupportError("pg_ctl start failed: \(started.output)\n\(log)")
        }
        do {
            admin = try PostgreSQLConnection(conninfo: "postgresql:///postgres?host=\(root)&port=\(port)&user=tipcat")
            try admin.execute("CREATE ROLE \(passwordUser) LOGIN PASSWORD '\(password)'")
        } catch {
            _ = PostgreSQLTestServer.runShell("\(stop) >/dev/null 2>&1; rm -rf \(shellQuoted(root))")
            throw TestSupportError("cannot set up the test server: \(error)")
        }
        stopCommand = "\(stop) >/dev/null 2>&1; rm -rf \(shellQuoted(root))"
        print("PostgreSQL test server: \(binaries), socket in \(root), port \(port)")
    }

    private let stopCommand: String

    /// A new, empty database; its URL connects over the Unix socket as the superuser (no password).
    public func makeDatabase() throws -> PostgreSQLTestDatabase {
        let name: String = lock.withLock {
            databases += 1
            return "t\(databases)_\(UUID().uuidString.prefix(8).lowercased())"
        }
        // Owned by the password role, so it may create the store's tables too (the superuser may anyway).
        try lock.withLock { try admin.execute("CREATE DATABASE \(name) OWNER \(passwordUser)") }
        return PostgreSQLTestDatabase(server: self, name: name)
    }

    /// Runs SQL as the superuser in the `postgres` database (terminating backends, …).
    public func administer(_ sql: String) throws {
        try lock.withLock { try admin.execute(sql) }
    }

    /// Stops the servers of earlier runs whose test process is no longer alive.
    static func stopOrphans(binaries: String) {
        let base = FileManager.default.temporaryDirectory.path
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where entry.hasPrefix("tipcat-pg-") {
            let directory = base + "/" + entry
            let owner = (try? String(contentsOfFile: directory + "/owner.pid", encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if let owner, kill(owner, 0) == 0 || errno == EPERM { continue }
            let stop = asServerUser([binaries + "/pg_ctl", "stop", "-D", directory + "/data", "-m", "immediate", "-w"])
            _ = runShell("\(stop) >/dev/null 2>&1; rm -rf \(shellQuoted(directory))")
        }
    }

    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError("socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw TestSupportError("bind() failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw TestSupportError("getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs `/bin/sh -c command`, returning its status and combined output. posix_spawn and waitpid rather
    /// than Foundation's Process: this runs while other test threads wait for the shared server, and Process
    /// needs a free thread of the pool they occupy to report the exit.
    @discardableResult
    static func runShell(_ command: String) -> (status: Int32, output: String) {
        var template = Array((FileManager.default.temporaryDirectory.path + "/tipcat-pg-output-XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { return (-1, "mkstemp failed") }
        let outputPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        close(descriptor)
        defer { unlink(outputPath) }
        guard let pid = spawn(["/bin/sh", "-c", command], output: outputPath) else { return (-1, "posix_spawn failed") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7F == 0
        return (exited ? (status >> 8) & 0xFF : -1, output)
    }

    /// Starts `/bin/sh -c command` in its own session (setsid), not waited for.
    static func detach(_ command: String) {
        _ = spawn(["/usr/bin/setsid", "/bin/sh", "-c", command], output: "/dev/null")
    }

    /// posix_spawn of `arguments` with stdin from /dev/null and stdout and stderr to `output`.
    private static func spawn(_ arguments: [String], output: String) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { (text: String) in strdup(text) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        return result == 0 ? pid : nil
    }
}

/// One test's database on the shared server.
public struct PostgreSQLTestDatabase: Sendable {
    let server: PostgreSQLTestServer
    /// The database's name.
    public let name: String

    /// The URL tipcat takes: the superuser over the Unix socket (no password).
    public var url: String { "postgresql:///\(name)?host=\(server.root)&port=\(server.port)&user=tipcat" }

    /// The URL of the password role over TCP, with `password` in it (nil: none, for PGPASSWORD or ~/.pgpass).
    public func tcpURL(password: String?) -> String {
        "postgresql://\(server.passwordUser)\(password.map { ":" + $0 } ?? "")@127.0.0.1:\(server.port)/\(name)"
    }

    /// Terminates every other session on this database (a server going away, as its clients see it).
    public func terminateSessions(where condition: String = "true") throws {
        try server.administer(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)' AND pid <> pg_backend_pid() AND (\(condition))")
    }
}

/// `text` quoted for /bin/sh.
func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
