#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The partials one resolver has read, by name (`nil` for a missing file): a render of thousands of tips reads
/// and parses each partial file once.
final class PartialFileCache: Sendable {
    let templates = Mutex<[String: Template?]>([:])
}

/// Partials from files: `{{>emails/footer}}` loads `<root>/emails/footer.mustache`.
///
/// Names are checked with ``PartialNameError/validate(_:)`` first, so `../x`, `/etc/passwd`, `a/../../b`,
/// names with NUL bytes or backslashes are refused with an error instead of being read. A missing file is
/// `nil` (a missing partial); a file that exists but cannot be read is an error. Symbolic links are followed
/// only while they stay inside the folder: a partial whose real path (every link resolved) is outside the real
/// path of `root` is refused, so a link to `/etc/passwd` is never read. Parsed templates are named by their
/// path, so errors inside a partial point at `root/name.mustache:line:col`. Each resolver reads a partial once
/// and keeps it (a resolver is made per render run: `render --watch` makes a new one for every change).
public struct DirectoryPartialResolver: PartialResolver, Hashable {
    private let cache = PartialFileCache()

    public static func == (lhs: DirectoryPartialResolver, rhs: DirectoryPartialResolver) -> Bool {
        lhs.root == rhs.root && lhs.fileExtension == rhs.fileExtension && lhs.maximumFileSize == rhs.maximumFileSize
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(root)
        hasher.combine(fileExtension)
        hasher.combine(maximumFileSize)
    }

    /// The partials folder.
    public var root: String
    /// Appended to names with a dot (`mustache` → `name.mustache`); empty for none.
    public var fileExtension: String
    /// Files larger than this are refused (a partial is a small text file).
    public var maximumFileSize: Int

    /// A resolver reading `<root>/<name>.<fileExtension>`.
    public init(root: String, fileExtension: String = "mustache", maximumFileSize: Int = 4 << 20) {
        self.root = root
        self.fileExtension = fileExtension
        self.maximumFileSize = maximumFileSize
    }

    /// The file path for `name`, after validating the name.
    public func path(for name: String) throws(PartialNameError) -> String {
        try PartialNameError.validate(name)
        let base = root.isEmpty ? "." : root
        let separator = base.hasSuffix("/") ? "" : "/"
        let suffix = fileExtension.isEmpty ? "" : "." + fileExtension
        return base + separator + name + suffix
    }

    /// Validates `name`, reads and parses the file; `nil` when it does not exist.
    public func template(named name: String) throws -> Template? {
        if let cached = cache.templates.withLock({ $0[name] }) { return cached }
        let path = try path(for: name)
        let template: Template?
        if let bytes = try readFile(path, name: name) {
            template = try Template(bytes: bytes, name: path)
        } else {
            template = nil
        }
        cache.templates.withLock { $0[name] = .some(template) }
        return template
    }

    /// The file's bytes, `nil` when it does not exist.
    private func readFile(_ path: String, name: String) throws(PartialFileError) -> [UInt8]? {
        func failure(_ detail: String) -> PartialFileError { PartialFileError(path: path, detail: detail) }
        // Only regular files are opened: a FIFO, socket or device is refused before `open`, which could wait
        // for a FIFO's writer (O_NONBLOCK covers a swap between the two calls; `fstat` then refuses it).
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw failure(Self.describe(errno: code))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw failure("not a regular file") }
        if let target = Self.realPath(path), let folder = Self.realPath(root.isEmpty ? "." : root),
           !Self.isInside(target, folder: folder) {
            throw failure("a symbolic link to '\(target)', outside the folder '\(root)'")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw failure(Self.describe(errno: code))
        }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw failure(Self.describe(errno: errno)) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw failure("not a regular file") }
        let size = Int(status.st_size)
        guard size <= maximumFileSize else { throw failure("larger than \(maximumFileSize) bytes") }
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let count = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return read(descriptor, base + filled, size - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(Self.describe(errno: errno))
            }
            if count == 0 { break }
            filled += count
        }
        if filled < size { bytes.removeSubrange(filled...) }
        return bytes
    }

    /// `path` with every symbolic link, `.` and `..` resolved (`realpath(3)`), nil when it cannot be resolved.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether the real path `path` is `folder` itself or inside it (both already resolved).
    public static func isInside(_ path: String, folder: String) -> Bool {
        if path == folder { return true }
        return path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    private static func describe(errno code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// A partial file that exists but cannot be used (unreadable, not a regular file, too large).
public struct PartialFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file path.
    public var path: String
    /// What went wrong (the system's error text or a limit).
    public var detail: String

    /// An error about the file at `path`.
    public init(path: String, detail: String) {
        self.path = path
        self.detail = detail
    }

    public var description: String { "\(path): \(detail)" }
}
