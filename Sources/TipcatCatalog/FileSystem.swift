public import TipcatCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a catalog file could not be read, in words a content writer understands.
public struct FileReadError: TipcatError, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "cannot read '\(path)': \(reason)" }
}

/// What the loader needs from a file system. Disk in production, memory in tests and lint-rule examples.
public protocol CatalogFileSystem: Sendable {
    /// The file's bytes, or why it cannot be read (missing, a directory, a symlink loop, too large…).
    func read(_ path: String) throws(FileReadError) -> [UInt8]
    /// The names of the entries of a directory (unsorted), or nil when it is not a readable directory.
    func list(_ directory: String) -> [String]?
    func fileExists(_ path: String) -> Bool
    func isDirectory(_ path: String) -> Bool
    /// `path` with every symbolic link, `.` and `..` resolved, nil when it cannot be resolved (a file system
    /// without links returns `path`).
    func realPath(_ path: String) -> String?
    /// `list`, each name with whether the listing itself says it is a regular file (a link to one is not).
    func listFiles(_ directory: String) -> [ListedFile]?
    /// `read`, for a path a listing said was a regular file: a file system may skip checking that again before
    /// opening it (it still refuses anything else, should the file have been replaced since).
    func read(_ path: String, listedAsRegular: Bool) throws(FileReadError) -> [UInt8]
}

/// An entry of a directory listing (`CatalogFileSystem.listFiles`).
public struct ListedFile: Sendable, Hashable {
    public var name: String
    /// The listing says it is a regular file (not a link to one, not a directory, FIFO, socket or device).
    public var isRegular: Bool

    public init(name: String, isRegular: Bool) {
        self.name = name
        self.isRegular = isRegular
    }
}

extension CatalogFileSystem {
    public func realPath(_ path: String) -> String? { path }
    public func listFiles(_ directory: String) -> [ListedFile]? { list(directory)?.map { ListedFile(name: $0, isRegular: false) } }
    public func read(_ path: String, listedAsRegular: Bool) throws(FileReadError) -> [UInt8] { try read(path) }

    /// Whether `path`, links resolved, is `folder` (links resolved) or inside it; false when either cannot be
    /// resolved.
    public func resolves(_ path: String, inside folder: String) -> Bool {
        guard let target = realPath(path), let root = realPath(folder) else { return false }
        return target == root || target.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }
}

/// The real file system, read with POSIX calls so every failure has a precise reason.
public struct DiskFileSystem: CatalogFileSystem {
    /// Files larger than this are refused rather than read into memory.
    public var maxFileSize: Int

    public init(maxFileSize: Int = 512 * 1024 * 1024) {
        self.maxFileSize = maxFileSize
    }

    /// Reads a regular file (symbolic links followed). Anything else — a directory, a FIFO, a socket, a device —
    /// is refused before it is opened for reading, so a named pipe without a writer cannot block the read.
    public func read(_ path: String) throws(FileReadError) -> [UInt8] {
        try read(path, listedAsRegular: false)
    }

    /// `read`; a file that `listFiles` saw as a regular file is opened without asking its kind by path first
    /// (one system call fewer for each of thousands of tip files). It is refused all the same if it is something
    /// else once open: `O_NONBLOCK` keeps a FIFO swapped in since from blocking the open.
    public func read(_ path: String, listedAsRegular: Bool) throws(FileReadError) -> [UInt8] {
        let (fd, size) = try openRegularFile(path, checkingFirst: !listedAsRegular)
        defer { close(fd) }
        // Read straight into the array's storage: no zero fill first (a file of tens of megabytes would be
        // written twice). A file that shrank since `fstat` gives what it holds.
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var filled = 0
            if let base = buffer.baseAddress { DiskFileSystem.prefault(UnsafeMutableRawPointer(base), count: size) }
            while filled < size, let base = buffer.baseAddress {
                let count = Glibc.read(fd, base + filled, size - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if count == 0 { break }
                filled += count
            }
            initialized = failure == 0 ? filled : 0
        }
        if failure != 0 { throw FileReadError(path: path, reason: DiskFileSystem.describe(failure)) }
        return bytes
    }

    /// The file at `path`, mapped read-only (see `FileBytes`): for large files read often, such as the String
    /// Catalog and the caches. Refused like `read` refuses.
    package func map(_ path: String) throws(FileReadError) -> FileBytes {
        let (fd, size) = try openRegularFile(path)
        defer { close(fd) }
        guard let bytes = FileBytes(mapping: fd, count: size) else {
            throw FileReadError(path: path, reason: DiskFileSystem.describe(errno))
        }
        return bytes
    }

    /// A regular file (symbolic links followed) opened for reading, and its size. Anything else — a directory, a
    /// FIFO, a socket, a device — is refused before it is opened for reading, so a named pipe without a writer
    /// cannot block the read.
    /// Without `checkingFirst` (a path a listing saw as a regular file), its kind is only checked once it is open.
    private func openRegularFile(_ path: String, checkingFirst: Bool = true) throws(FileReadError) -> (descriptor: Int32, size: Int) {
        var info = stat()
        if checkingFirst {
            guard stat(path, &info) == 0 else { throw FileReadError(path: path, reason: DiskFileSystem.describe(errno)) }
            if let kind = DiskFileSystem.nonRegularKind(info.st_mode) { throw FileReadError(path: path, reason: kind) }
        }
        // O_NONBLOCK: if the path was swapped for a FIFO since `stat`, `open` returns at once instead of waiting
        // for a writer (the `fstat` below then refuses it). Regular files ignore the flag.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        if fd < 0 { throw FileReadError(path: path, reason: DiskFileSystem.describe(errno)) }
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw FileReadError(path: path, reason: DiskFileSystem.describe(code))
        }
        if let kind = DiskFileSystem.nonRegularKind(info.st_mode) {
            close(fd)
            throw FileReadError(path: path, reason: kind)
        }
        let size = Int(info.st_size)
        if size > maxFileSize {
            close(fd)
            throw FileReadError(path: path, reason: "the file is \(size) bytes; the limit is \(maxFileSize)")
        }
        return (fd, size)
    }

    /// Faults in a large fresh buffer's pages with one call before it is read into (MADV_POPULATE_WRITE, Linux
    /// 5.14 and later; ignored elsewhere): page by page, the faults cost about a third more (48 MB: 29 against
    /// 21 ms here).
    static func prefault(_ base: UnsafeMutableRawPointer, count: Int) {
        #if os(Linux)
        guard count >= 1 << 20 else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: base) + count) & ~(page - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, 23)  // MADV_POPULATE_WRITE
        #endif
    }

    public func list(_ directory: String) -> [String]? {
        listFiles(directory)?.map(\.name)
    }

    /// The kinds come from the directory itself (`d_type`): a file system that does not say is listed as not
    /// regular, and its files are checked before they are opened.
    public func listFiles(_ directory: String) -> [ListedFile]? {
        guard let handle = opendir(directory) else { return nil }
        defer { closedir(handle) }
        var files: [ListedFile] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { files.append(ListedFile(name: name, isRegular: Int32(entry.pointee.d_type) == DT_REG)) }
        }
        return files
    }

    public func fileExists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 || lstat(path, &info) == 0
    }

    public func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// When the file at `path` was last written, in seconds since 1970; nil when there is none.
    public func modificationTime(_ path: String) -> Double? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        return Double(info.st_mtimespec.tv_sec) + Double(info.st_mtimespec.tv_nsec) / 1e9
        #else
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        #endif
    }

    public func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Why a file of mode `mode` cannot be read ("it is a FIFO (named pipe), not a regular file"), nil for a
    /// regular file.
    static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "it is a directory, not a file"
        case S_IFIFO: "it is a FIFO (named pipe), not a regular file"
        case S_IFSOCK: "it is a socket, not a regular file"
        case S_IFCHR, S_IFBLK: "it is a device, not a regular file"
        default: "it is not a regular file"
        }
    }

    static func describe(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case ELOOP: "too many levels of symbolic links (a symlink loop?)"
        case EISDIR: "it is a directory, not a file"
        case ENOTDIR: "a component of the path is not a directory"
        case ENAMETOOLONG: "the path is too long"
        default: String(cString: strerror(code))
        }
    }
}

/// An in-memory file system: paths map to contents; directories are implied by paths.
public struct InMemoryFileSystem: CatalogFileSystem {
    public var files: [String: [UInt8]]

    public init(files: [String: String]) {
        self.files = files.mapValues { Array($0.utf8) }
    }

    public init(bytes: [String: [UInt8]]) {
        self.files = bytes
    }

    public func read(_ path: String) throws(FileReadError) -> [UInt8] {
        if let bytes = files[path] { return bytes }
        if isDirectory(path) { throw FileReadError(path: path, reason: "it is a directory, not a file") }
        throw FileReadError(path: path, reason: "no such file")
    }

    public func list(_ directory: String) -> [String]? {
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        var names = Set<String>()
        for path in files.keys where path.hasPrefix(prefix) {
            if let name = path.dropFirst(prefix.count).split(separator: "/").first { names.insert(String(name)) }
        }
        return names.isEmpty ? nil : Array(names)
    }

    public func fileExists(_ path: String) -> Bool { files[path] != nil || isDirectory(path) }

    public func isDirectory(_ path: String) -> Bool {
        let prefix = path.hasSuffix("/") ? path : path + "/"
        return files.keys.contains { $0.hasPrefix(prefix) }
    }
}

/// Joins path components with `/`, without doubling separators.
func joinPath(_ base: String, _ component: String) -> String {
    if base.isEmpty || component.hasPrefix("/") { return component }
    return base.hasSuffix("/") ? base + component : base + "/" + component
}
