import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A raw HTTP/1.1 client for tests: sends the request target exactly as given (no path normalization, unlike
/// URLSession), reads until the server closes, with a deadline.
struct HTTPResponse {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

struct HTTPTestError: Error, CustomStringConvertible {
    var description: String
}

enum HTTPTestClient {
    /// Opens a TCP connection to `host` (IPv4 dotted quad) and `port`; nil when it is refused.
    static func connect(host: String, port: UInt16, timeout: Double = 2) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            close(fd)
            return nil
        }
        var time = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Sends `raw` bytes and reads the whole response.
    static func exchange(port: UInt16, raw: [UInt8], timeout: Double = 5) throws -> HTTPResponse {
        guard let fd = connect(host: "127.0.0.1", port: port) else { throw HTTPTestError(description: "cannot connect to 127.0.0.1:\(port)") }
        defer { close(fd) }
        var sent = 0
        while sent < raw.count {
            let count = raw.withUnsafeBytes { send(fd, $0.baseAddress.map { $0 + sent }, raw.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw HTTPTestError(description: "send failed") }
            sent += count
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                break
            }
            received += buffer[0..<count]
        }
        return try parse(received)
    }

    static func request(port: UInt16, method: String = "GET", target: String) throws -> HTTPResponse {
        try exchange(port: port, raw: Array("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
    }

    static func parse(_ bytes: [UInt8]) throws -> HTTPResponse {
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }) else {
            throw HTTPTestError(description: "no complete response head (\(bytes.count) bytes)")
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw HTTPTestError(description: "bad status line \(head.first ?? "")") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPResponse(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
    }
}

/// `tipcat` run as a child process that keeps running (`preview --serve`): its stdout read line by line, stopped
/// with a signal, always killed when released.
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private var buffer: [UInt8] = []
    private let lock = NSLock()
    private var stderrText: [UInt8] = []

    init(executable: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.lock.lock()
            self.buffer += data
            self.lock.unlock()
        }
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.lock.lock()
            self.stderrText += data
            self.lock.unlock()
        }
        try process.run()
    }

    var stdout: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: buffer, as: UTF8.self)
    }

    var stderr: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: stderrText, as: UTF8.self)
    }

    /// Waits until stdout contains a line matching `predicate`.
    func waitForLine(timeout: Double, where predicate: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = stdout.split(separator: "\n").map(String.init).first(where: predicate) { return line }
            if !process.isRunning { return stdout.split(separator: "\n").map(String.init).first(where: predicate) }
            usleep(20_000)
        }
        return nil
    }

    /// Sends `signal` and waits for the exit; the exit status, or nil when it had to be killed.
    func stop(signal: Int32 = SIGTERM, timeout: Double = 5) -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
    }
}
