import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a site could not be written.
public struct SiteWriteError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
    public init(_ message: String) { self.message = message }
}

/// Writes a site into a directory all at once: files go to a fresh sibling directory, which then replaces the
/// output directory by renames, so a failure leaves the previous site (or nothing) — never half a site.
///
/// An existing output directory is replaced only when it is empty or was written by `tipcat preview` (it holds the
/// marker file `.tipcat-preview`): a mistyped `-o` never deletes someone's files.
public final class SiteDirectory: @unchecked Sendable {
    public static let marker = ".tipcat-preview"
    public let path: String
    /// The directory being filled.
    public let staging: String
    private let createdDirectories = NSLock()
    private var directories: Set<String> = [""]

    /// Checks `path` and creates the staging directory beside it.
    public init(path: String) throws(SiteWriteError) {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        self.path = trimmed
        var isDirectory: ObjCBool = false
        let manager = FileManager.default
        if manager.fileExists(atPath: trimmed, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw SiteWriteError("'\(trimmed)' is a file, not a directory; -o takes a directory for the site") }
            let contents = (try? manager.contentsOfDirectory(atPath: trimmed)) ?? []
            guard contents.isEmpty || contents.contains(Self.marker) else {
                throw SiteWriteError("'\(trimmed)' is not empty and was not written by tipcat preview (no \(Self.marker) in it); choose a new or empty directory")
            }
        }
        let url = URL(fileURLWithPath: trimmed)
        let parent = url.deletingLastPathComponent().path
        do {
            try manager.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw SiteWriteError("cannot create '\(parent)': \(Self.reason(error))")
        }
        let name = url.lastPathComponent
        staging = parent + "/." + name + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard mkdir(staging, 0o755) == 0 else {
            throw SiteWriteError("cannot write in '\(parent)': \(String(cString: strerror(errno)))")
        }
    }

    /// Writes one file of the site (any thread); `relative` is a path the generator made (`tips/A.html`).
    public func write(_ relative: String, _ bytes: [UInt8]) throws(SiteWriteError) {
        if let slash = relative.lastIndex(of: "/") {
            let folder = String(relative[..<slash])
            createdDirectories.lock()
            defer { createdDirectories.unlock() }
            if !directories.contains(folder) {
                guard mkdir(staging + "/" + folder, 0o755) == 0 || errno == EEXIST else {
                    throw SiteWriteError("cannot create '\(path)/\(folder)': \(String(cString: strerror(errno)))")
                }
                directories.insert(folder)
            }
        }
        let fd = open(staging + "/" + relative, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SiteWriteError("cannot write '\(path)/\(relative)': \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SiteWriteError("cannot write '\(path)/\(relative)': \(String(cString: strerror(errno)))")
            }
            written += count
        }
    }

    /// Puts the staged site in place of the output directory.
    public func commit() throws(SiteWriteError) {
        try write(Self.marker, Array("written by tipcat preview; the whole directory is replaced on the next run\n".utf8))
        let manager = FileManager.default
        var old: String?
        if manager.fileExists(atPath: path) {
            let aside = staging.replacingOccurrences(of: ".tmp-", with: ".old-")
            guard rename(path, aside) == 0 else {
                let reason = String(cString: strerror(errno))
                discard()
                throw SiteWriteError("cannot replace '\(path)': \(reason)")
            }
            old = aside
        }
        guard rename(staging, path) == 0 else {
            let reason = String(cString: strerror(errno))
            if let old { _ = rename(old, path) }
            discard()
            throw SiteWriteError("cannot move the site to '\(path)': \(reason)")
        }
        if let old { try? manager.removeItem(atPath: old) }
    }

    /// Removes the staging directory (after a failure).
    public func discard() {
        try? FileManager.default.removeItem(atPath: staging)
    }

    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}
