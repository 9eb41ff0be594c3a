import Foundation
import Testing
import TipcatTestSupport
@testable import TipcatPreview
#if canImport(Glibc)
import Glibc
#endif

/// `tipcat preview --serve`, as a child process: serving, live regeneration, path traversal, methods, binding.
@Suite struct PreviewServeTests {
    /// Starts `tipcat preview --serve --port 0` on a copy of the sample catalog; returns the process and its port.
    static func start(_ directory: TemporaryDirectory, port requested: UInt16 = 0, extra: [String] = []) throws -> (ChildProcess, UInt16) {
        let catalog = try directory.sampleCatalog()
        guard let executable = tipcatExecutable() else { throw HTTPTestError(description: "the tipcat executable is not built") }
        let child = try ChildProcess(executable: executable, arguments: [
            "preview", "--serve", "--port", String(requested), "--catalog", catalog, "--templates", repositoryRoot + "/Templates", "-o", directory.file("site"),
        ] + extra)
        let line = try #require(child.waitForLine(timeout: 30) { $0.hasPrefix("serving ") }, "no 'serving' line; stderr: \(child.stderr)")
        let url = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init))
        #expect(url.hasPrefix("http://127.0.0.1:"))
        let port = try #require(UInt16(url.dropFirst("http://127.0.0.1:".count).prefix { $0 != "/" }))
        if requested != 0 { #expect(port == requested) }
        #expect(line == "serving \(directory.file("site")) at http://127.0.0.1:\(port)/ (Ctrl-C to stop)")
        return (child, port)
    }

    @Test func servesTheSiteRegeneratesOnEditAndRefusesEverythingElse() throws {
        let directory = try TemporaryDirectory()
        let (child, port) = try Self.start(directory)

        // The index and a tip page, with their types and lengths.
        let index = try HTTPTestClient.request(port: port, target: "/")
        #expect(index.status == 200)
        #expect(index.headers["content-type"] == "text/html; charset=utf-8")
        #expect(index.headers["content-length"] == String(index.body.count))
        #expect(index.text.contains("<a class=\"tip-link\" href=\"tips/NewTrailTip.html\">NewTrailTip</a>"))
        #expect(index.text.contains("<script src=\"assets/reload.js\" defer></script>"))
        let page = try HTTPTestClient.request(port: port, target: "/tips/NewTrailTip.html")
        #expect(page.status == 200)
        #expect(page.text.contains("Butler Fork is now available"))
        let versionBefore = try HTTPTestClient.request(port: port, target: "/__tipcat/version").text
        #expect(versionBefore == "1\n")
        #expect(page.text.contains("<meta name=\"tipcat-version\" content=\"1\">"))
        let script = try HTTPTestClient.request(port: port, target: "/assets/reload.js")
        #expect(script.status == 200 && script.headers["content-type"] == "text/javascript; charset=utf-8")
        let css = try HTTPTestClient.request(port: port, target: "/assets/tip.css")
        #expect(css.status == 200 && css.headers["content-type"] == "text/css; charset=utf-8")

        // HEAD: the same head, no body.
        let head = try HTTPTestClient.request(port: port, method: "HEAD", target: "/tips/NewTrailTip.html")
        #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == String(page.body.count))

        // Edit the tip: the page changes within 2 seconds.
        try directory.edit("Catalog/tips/NewTrailTip.json", replacing: "{trail.name} is now available", with: "{trail.name} opened today")
        let edited = Date()
        var changed = false
        while Date().timeIntervalSince(edited) < 2 {
            if try HTTPTestClient.request(port: port, target: "/tips/NewTrailTip.html").text.contains("Butler Fork opened today") {
                changed = true
                break
            }
            usleep(50_000)
        }
        #expect(changed, "the page did not change within 2 s; stderr: \(child.stderr)")
        #expect(try HTTPTestClient.request(port: port, target: "/__tipcat/version").text != versionBefore)
        #expect(try directory.read("site/tips/NewTrailTip.html").contains("Butler Fork opened today"))

        // Nothing outside the site.
        for target in [
            "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/%2E%2E/etc/passwd", "/tips/..%2f..%2fetc/passwd", "/tips%2fNewTrailTip.html",
            "/tips/NewTrailTip.html%00", "/%00", "/tips/../index.html", "/./index.html", "//etc/passwd", "/tips//NewTrailTip.html",
            "/..\\..\\etc\\passwd", "/%5c..%5cetc%5cpasswd", "/etc/passwd", "/tips/", "/tips", "/%zz", "http://127.0.0.1/index.html",
            "/.tipcat-preview",
        ] {
            let response = try HTTPTestClient.request(port: port, target: target)
            #expect(response.status == 404, "\(target) → \(response.status)")
            #expect(!response.text.contains("root:"), "\(target)")
        }
        // Methods other than GET and HEAD.
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "TRACE"] {
            let response = try HTTPTestClient.request(port: port, method: method, target: "/index.html")
            #expect(response.status == 405, "\(method)")
            #expect(response.headers["allow"] == "GET, HEAD")
        }
        // Malformed and oversized requests.
        #expect(try HTTPTestClient.exchange(port: port, raw: Array("nonsense\r\n\r\n".utf8)).status == 400)
        let huge = "GET /" + String(repeating: "a", count: 20_000) + " HTTP/1.1\r\n\r\n"
        #expect(try HTTPTestClient.exchange(port: port, raw: Array(huge.utf8)).status == 431)

        // A slow client holding a connection open does not stop others, and several clients at once are served.
        let slow = try #require(HTTPTestClient.connect(host: "127.0.0.1", port: port))
        defer { close(slow) }
        _ = "GET / HT".withCString { send(slow, $0, 8, Int32(MSG_NOSIGNAL)) }
        let results = ConcurrentResults()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            results.append((try? HTTPTestClient.request(port: port, target: "/index.html"))?.status ?? 0)
        }
        #expect(results.values == Array(repeating: 200, count: 8))

        // Bound to 127.0.0.1 only: the kernel's table of listening sockets says so, and another address of this
        // machine refuses the connection.
        let listening = try Self.listeningAddresses(port: port)
        #expect(listening == ["127.0.0.1"], "listening on \(listening)")
        for address in Self.otherAddresses() {
            #expect(HTTPTestClient.connect(host: address, port: port) == nil, "reachable on \(address)")
        }

        // The slow client's request never completed: it is answered 408 and closed (5 s after it connected).
        var answer = [UInt8](repeating: 0, count: 256)
        var waited = timeval(tv_sec: 8, tv_usec: 0)
        setsockopt(slow, SOL_SOCKET, SO_RCVTIMEO, &waited, socklen_t(MemoryLayout<timeval>.size))
        let count = answer.withUnsafeMutableBytes { recv(slow, $0.baseAddress, $0.count, 0) }
        #expect(count > 0 && String(decoding: answer.prefix(max(0, count)), as: UTF8.self).hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))

        // SIGTERM stops it cleanly.
        #expect(child.stop(signal: SIGTERM) == 0)
        #expect(child.stderr.contains("stopped"))
        #expect(HTTPTestClient.connect(host: "127.0.0.1", port: port) == nil)
    }

    @Test func aGivenPortAndCtrlC() throws {
        let directory = try TemporaryDirectory()
        let free = try Self.freePort()
        let (child, port) = try Self.start(directory, port: free, extra: ["--locale", "fr"])
        #expect(port == free)
        #expect(try HTTPTestClient.request(port: port, target: "/index.html").status == 200)
        #expect(child.stop(signal: SIGINT) == 0)
    }

    @Test func aPortInUseIsAnError() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        // Hold a listening socket on a port, then ask preview for it.
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        #expect(listen(holder, 1) == 0)
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(holder, $0, &length) } }
        let port = UInt16(bigEndian: bound.sin_port)
        let run = try tipcatProcess(["preview", "--serve", "--port", String(port), "--catalog", catalog, "-o", directory.file("site")], timeout: 30)
        let result = try #require(run.result, "preview --serve on a port in use did not exit")
        #expect(result.status == .failure)
        #expect(result.stderr == "error: cannot listen on 127.0.0.1:\(port): Address already in use\n")
        #expect(!FileManager.default.fileExists(atPath: directory.file("site")), "nothing is written when the port is taken")
    }

    /// A port nothing listens on right now.
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return UInt16(bigEndian: bound.sin_port)
    }

    /// The local addresses of the TCP sockets listening on `port` (from /proc/net/tcp and tcp6).
    static func listeningAddresses(port: UInt16) throws -> [String] {
        var found: [String] = []
        let portHex = String(format: "%04X", port)
        for file in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 3, fields[3] == "0A" else { continue }  // LISTEN
                let local = fields[1].split(separator: ":")
                guard local.count == 2, local[1] == portHex else { continue }
                if local[0].count == 8, let value = UInt32(local[0], radix: 16) {
                    // Little-endian hex of the address.
                    found.append("\(value & 0xFF).\(value >> 8 & 0xFF).\(value >> 16 & 0xFF).\(value >> 24)")
                } else {
                    found.append("ipv6:" + local[0])
                }
            }
        }
        return found
    }

    /// The machine's IPv4 addresses other than loopback.
    static func otherAddresses() -> [String] {
        var result: [String] = []
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var item = list
        while let current = item {
            if let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) {
                var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                if getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 {
                    let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    if !text.hasPrefix("127.") { result.append(text) }
                }
            }
            item = current.pointee.ifa_next
        }
        return result
    }
}

final class ConcurrentResults: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int] = []
    func append(_ value: Int) {
        lock.lock()
        items.append(value)
        lock.unlock()
    }
    var values: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
