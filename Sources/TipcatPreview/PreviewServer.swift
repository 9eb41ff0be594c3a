import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The files a server serves, by path relative to the site's root, and the site's generation.
public struct ServedSite: Sendable {
    public var files: [String: [UInt8]]
    public var version: Int

    public init(files: [String: [UInt8]], version: Int) {
        self.files = files
        self.version = version
    }
}

/// Why the server could not start.
public struct ServerError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// A small HTTP/1.1 server for a preview site, on 127.0.0.1 only.
///
/// It serves the files of a `ServedSite` held in memory — a request can only ever name one of them, never a file
/// of the disk — plus `/__tipcat/version` (the site's generation, for `reload.js`). GET and HEAD; any other method
/// is 405. A request path is percent-decoded once; a path with `.` or `..` segments, an encoded `/` or `\`, a NUL,
/// a backslash or an empty segment is 404, like any path that is not in the site. A request head is at most
/// 16 KiB and must arrive within 5 seconds; each connection has its own thread (at most 64 at once; more get 503)
/// and is closed after one response.
public final class PreviewServer: @unchecked Sendable {
    public static let maximumRequestBytes = 16 * 1024
    public static let requestTimeout: Double = 5
    public static let maximumConnections = 64

    private let site: Mutex<ServedSite>
    private let stopping = Atomic<Bool>(false)
    private let active = Atomic<Int>(0)
    private var listener: Int32 = -1
    private var acceptThread: Thread?
    private let finished = DispatchSemaphore(value: 0)
    /// The port it listens on (the one the system chose for port 0).
    public private(set) var port: UInt16 = 0

    public init(site: ServedSite) {
        self.site = Mutex(site)
    }

    /// Replaces the site served (after a regeneration).
    public func update(_ newSite: ServedSite) {
        site.withLock { $0 = newSite }
    }

    public var version: Int { site.withLock { $0.version } }

    /// Binds 127.0.0.1:`port` (0: any free port) and starts accepting connections.
    public func start(port requested: UInt16) throws(ServerError) {
        signal(SIGPIPE, SIG_IGN)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ServerError(message: "cannot create a socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requested.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)  // 127.0.0.1, never INADDR_ANY
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ServerError(message: "cannot listen on 127.0.0.1:\(requested): \(reason)")
        }
        guard listen(fd, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ServerError(message: "cannot listen on 127.0.0.1:\(requested): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: actual.sin_port)
        listener = fd
        let thread = Thread { [self] in
            acceptLoop()
            finished.signal()
        }
        thread.name = "tipcat-preview-accept"
        acceptThread = thread
        thread.start()
    }

    /// Stops accepting, closes the listening socket and waits (up to 2 s) for the connections being served.
    public func stop() {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        if listener >= 0 {
            _ = finished.wait(timeout: .now() + 1)
            close(listener)
            listener = -1
        }
        let deadline = Date().addingTimeInterval(2)
        while active.load(ordering: .relaxed) > 0, Date() < deadline { usleep(10_000) }
    }

    private func acceptLoop() {
        while !stopping.load(ordering: .relaxed) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 200)
            if ready <= 0 { continue }
            let client = accept(listener, nil, nil)
            if client < 0 { continue }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            if active.add(1, ordering: .relaxed).newValue > Self.maximumConnections {
                active.subtract(1, ordering: .relaxed)
                Self.send(client, Self.response(status: 503, reason: "Service Unavailable", body: "busy\n"))
                close(client)
                continue
            }
            let thread = Thread { [self] in
                serve(client)
                Self.lingeringClose(client)
                active.subtract(1, ordering: .relaxed)
            }
            thread.start()
        }
    }

    // MARK: One connection

    private func serve(_ client: Int32) {
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sendTimeout = timeval(tv_sec: Int(Self.requestTimeout), tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
        let deadline = Date().addingTimeInterval(Self.requestTimeout)
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let end = Self.headEnd(request)
            if let end, end <= Self.maximumRequestBytes {
                request.removeSubrange(end...)
                break
            }
            if end != nil || request.count > Self.maximumRequestBytes {
                Self.send(client, Self.response(status: 431, reason: "Request Header Fields Too Large", body: "request too large\n"))
                return
            }
            if Date() >= deadline || stopping.load(ordering: .relaxed) {
                Self.send(client, Self.response(status: 408, reason: "Request Timeout", body: "request timeout\n"))
                return
            }
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count == 0 { return }  // the client went away
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                return
            }
            request += buffer[0..<count]
        }
        Self.send(client, respond(to: request))
    }

    /// The index of the blank line ending a request head, if it arrived.
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// The response to one request head (the bytes before its blank line).
    func respond(to head: [UInt8]) -> [UInt8] {
        let firstLine = head.split(separator: 10, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        let line = String(decoding: firstLine, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0", !parts[1].isEmpty else {
            return Self.response(status: 400, reason: "Bad Request", body: "bad request\n")
        }
        let method = parts[0]
        guard method == "GET" || method == "HEAD" else {
            return Self.response(status: 405, reason: "Method Not Allowed", body: "method not allowed\n", extra: ["Allow: GET, HEAD"])
        }
        let head = method == "HEAD"
        guard let path = Self.sitePath(String(parts[1])) else {
            return Self.response(status: 404, reason: "Not Found", body: "not found\n", headOnly: head)
        }
        let current = site.withLock { $0 }
        if path == "__tipcat/version" {
            return Self.response(status: 200, reason: "OK", body: "\(current.version)\n", type: "text/plain; charset=utf-8", headOnly: head)
        }
        guard let bytes = current.files[path] else {
            return Self.response(status: 404, reason: "Not Found", body: "not found\n", headOnly: head)
        }
        return Self.response(status: 200, reason: "OK", bytes: bytes, type: Self.contentType(path), headOnly: head)
    }

    /// The site path a request target names (`/` → `index.html`, `/tips/A.html` → `tips/A.html`), or nil for
    /// anything that is not a plain path inside the site.
    public static func sitePath(_ target: String) -> String? {
        var raw = Substring(target)
        if let end = raw.firstIndex(where: { $0 == "?" || $0 == "#" }) { raw = raw[..<end] }
        guard raw.hasPrefix("/") else { return nil }
        var decoded: [UInt8] = []
        var bytes = Array(raw.utf8)[...]
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard bytes.count >= 2, let high = hexValue(bytes[bytes.startIndex]), let low = hexValue(bytes[bytes.startIndex + 1]) else { return nil }
                bytes = bytes.dropFirst(2)
                let value = high << 4 | low
                // An encoded separator or NUL names no file of the site.
                if value == UInt8(ascii: "/") || value == UInt8(ascii: "\\") || value == 0 { return nil }
                decoded.append(value)
            } else {
                decoded.append(byte)
            }
        }
        guard !decoded.contains(0), !decoded.contains(UInt8(ascii: "\\")) else { return nil }
        guard let text = String(validating: decoded, as: UTF8.self) else { return nil }
        var segments = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        if segments.last == "" { segments.removeLast() }
        if segments.isEmpty { return "index.html" }
        for segment in segments where segment.isEmpty || segment == "." || segment == ".." { return nil }
        return segments.joined(separator: "/")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    static func contentType(_ path: String) -> String {
        if path.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if path.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if path.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if path.hasSuffix(".json") { return "application/json" }
        return "application/octet-stream"
    }

    static func response(status: Int, reason: String, body: String, type: String = "text/plain; charset=utf-8", headOnly: Bool = false, extra: [String] = []) -> [UInt8] {
        response(status: status, reason: reason, bytes: Array(body.utf8), type: type, headOnly: headOnly, extra: extra)
    }

    static func response(status: Int, reason: String, bytes: [UInt8], type: String, headOnly: Bool = false, extra: [String] = []) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        head += "Content-Type: \(type)\r\n"
        head += "Content-Length: \(bytes.count)\r\n"
        head += "Cache-Control: no-store\r\n"
        head += "X-Content-Type-Options: nosniff\r\n"
        head += "Content-Security-Policy: \(PreviewSite.contentSecurityPolicy(liveReload: true))\r\n"
        head += "Connection: close\r\n"
        for line in extra { head += line + "\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (headOnly ? [] : bytes)
    }

    /// Closes a connection after its response: the write side first, then whatever the client still sends is read
    /// and dropped (up to 1 MiB or 1 second), so an early answer (431) is not lost to a reset.
    static func lingeringClose(_ client: Int32) {
        shutdown(client, Int32(SHUT_WR))
        var buffer = [UInt8](repeating: 0, count: 4096)
        var total = 0
        let deadline = Date().addingTimeInterval(1)
        while total < 1 << 20, Date() < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                total += count
            } else if count < 0, errno == EINTR || errno == EAGAIN {
                continue
            } else {
                break
            }
        }
        close(client)
    }

    static func send(_ client: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(client, $0.baseAddress.map { $0 + sent }, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            sent += count
        }
    }
}
