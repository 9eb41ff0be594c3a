import Foundation
public import TipcatPlugin
#if canImport(Glibc)
import Glibc
#endif

/// Writes a generator's files under one output directory — or compares them with what is there (`--check`).
///
/// Every path is checked before anything is written: relative, no `..` or `.` components, no empty component, no
/// NUL or backslash, no two files at one path, and no existing component under the output directory that is a
/// symlink or a non-directory. One bad path and nothing is written. Files are written to temporary names beside
/// their targets and renamed into place, so a reader never sees half a file.
public struct GeneratedFiles: Sendable {
    public var outputDirectory: String
    public var files: [PluginFile]

    /// Why the files cannot be written.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "'\(path)': \(reason)" }
    }

    /// A file that differs from what the generator produced.
    public enum Difference: Sendable, Hashable {
        case missing(String)
        case changed(String)
    }

    public init(outputDirectory: String, files: [PluginFile]) {
        self.outputDirectory = outputDirectory
        self.files = files
    }

    /// Every problem with the paths; empty when all can be written.
    public func problems() -> [Problem] {
        var problems: [Problem] = []
        var seen = Set<String>()
        if let reason = GeneratedFiles.directoryProblem(outputDirectory, allowMissing: true) {
            problems.append(Problem(path: outputDirectory, reason: reason))
        }
        for file in files {
            let path = file.path
            if path.hasPrefix("/") {
                problems.append(Problem(path: path, reason: "is absolute; generators return paths relative to the output directory"))
            } else if !isSafeRelativePath(path) {
                problems.append(Problem(path: path, reason: "is not a plain relative path (no '..', '.', empty components, backslashes or control characters)"))
            } else if !seen.insert(path).inserted {
                problems.append(Problem(path: path, reason: "is returned twice"))
            } else {
                // Every existing component below the output directory must be a real directory (the last: a file).
                var current = outputDirectory
                let components = path.split(separator: "/").map(String.init)
                for (index, component) in components.enumerated() {
                    current += "/" + component
                    var info = stat()
                    guard lstat(current, &info) == 0 else { break }
                    let type = info.st_mode & S_IFMT
                    if type == S_IFLNK {
                        problems.append(Problem(path: path, reason: "goes through the symlink '\(current)'"))
                        break
                    }
                    let isLast = index == components.count - 1
                    if !isLast && type != S_IFDIR {
                        problems.append(Problem(path: path, reason: "'\(current)' exists and is not a directory"))
                        break
                    }
                    if isLast && type != S_IFREG {
                        problems.append(Problem(path: path, reason: "'\(current)' exists and is not a regular file"))
                    }
                }
            }
        }
        return problems
    }

    /// The files whose content on disk differs (or that are missing), in the generator's order.
    public func differences() -> [Difference] {
        files.compactMap { file in
            let target = outputDirectory + "/" + file.path
            guard let data = FileManager.default.contents(atPath: target) else { return .missing(file.path) }
            return data == Data(file.contents.utf8) ? nil : .changed(file.path)
        }
    }

    /// Writes every file (after `problems()` is empty). Returns the paths that changed.
    @discardableResult
    public func write() throws(Problem) -> [String] {
        if let problem = problems().first { throw problem }
        let changed = differences().map { difference -> String in
            switch difference {
            case .missing(let path), .changed(let path): path
            }
        }
        let changedSet = Set(changed)
        var staged: [(temporary: String, target: String)] = []
        func discard() { for (temporary, _) in staged { unlink(temporary) } }
        for file in files where changedSet.contains(file.path) {
            let target = outputDirectory + "/" + file.path
            let parent = (target as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                discard()
                throw Problem(path: file.path, reason: "cannot create its directory: \(error.localizedDescription)")
            }
            let temporary = parent + "/.\((target as NSString).lastPathComponent).tipcat-\(getpid())-\(staged.count)"
            guard FileManager.default.createFile(atPath: temporary, contents: Data(file.contents.utf8)) else {
                discard()
                throw Problem(path: file.path, reason: "cannot be written (permissions or disk space)")
            }
            staged.append((temporary, target))
        }
        for (temporary, target) in staged where rename(temporary, target) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw Problem(path: target, reason: "cannot be moved into place: \(reason)")
        }
        return changed
    }

    /// Why the output directory cannot be used, if it cannot (a symlink, or a file).
    static func directoryProblem(_ path: String, allowMissing: Bool) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return allowMissing ? nil : "does not exist" }
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK {
            var target = stat()
            guard stat(path, &target) == 0, (target.st_mode & S_IFMT) == S_IFDIR else { return "is a symlink to something that is not a directory" }
            return nil  // An output directory that is itself a link is the user's choice; paths below it are checked.
        }
        return type == S_IFDIR ? nil : "exists and is not a directory"
    }
}
