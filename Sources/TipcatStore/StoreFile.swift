#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks on the store's file made before SQLite touches it, so a foreign or damaged file is never written.
enum StoreFile {
    enum State {
        case missing
        /// Zero bytes: a store whose content is still in its write-ahead log, or an empty file.
        case empty
        /// Starts with the SQLite header; `pageSize` from the header.
        case sqlite(size: Int, pageSize: Int)
    }

    static let header: [UInt8] = Array("SQLite format 3".utf8) + [0]

    static func inspect(_ path: String) throws(StoreError) -> State {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return .missing }
            throw StoreError.notAStore(path: path, reason: "it cannot be read (\(String(cString: strerror(errno))))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw StoreError.notAStore(path: path, reason: "it is a directory") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw StoreError.notAStore(path: path, reason: "it is not a regular file") }
        let size = Int(info.st_size)
        if size == 0 { return .empty }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw StoreError.notAStore(path: path, reason: "it cannot be read (\(String(cString: strerror(errno))))")
        }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 100)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 100, 0) }
        guard count == 100, Array(bytes[0..<16]) == header else {
            throw StoreError.notAStore(path: path, reason: "it is not an SQLite database")
        }
        // Bytes 16–17: the page size, big-endian; 1 means 65536.
        let raw = Int(bytes[16]) << 8 | Int(bytes[17])
        let pageSize = raw == 1 ? 65_536 : raw
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else {
            throw StoreError.notAStore(path: path, reason: "it is damaged (invalid page size \(raw))")
        }
        // Without a write-ahead log no connection is writing, so the file must hold whole pages.
        var walInfo = stat()
        let walExists = stat(path + "-wal", &walInfo) == 0
        guard walExists || size % pageSize == 0 else {
            throw StoreError.notAStore(path: path, reason: "it is damaged (\(size) bytes is not a whole number of \(pageSize)-byte pages; truncated?)")
        }
        return .sqlite(size: size, pageSize: pageSize)
    }

    /// Creates the directories above `path` (`mkdir -p` of its parent).
    static func createParentDirectories(of path: String) throws(StoreError) {
        var components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        components.removeLast()
        var current = path.hasPrefix("/") ? "" : "."
        for component in components where !component.isEmpty && component != "." {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw StoreError.database(
                    context: "cannot create the store's directory '\(current)'", message: String(cString: strerror(errno)))
            }
        }
    }
}
