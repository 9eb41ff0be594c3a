public import TipcatCore
public import TipcatCatalog
import TipcatJSON
import Foundation

/// Turns a plugin's `file` + JSON pointer (or line/column) into `file:line:col`, reading each file once.
///
/// Files are relative to the catalog directory and must stay inside it: an absolute path or `..` is refused.
public final class PointerResolver: @unchecked Sendable {
    private let catalogDirectory: String
    private let fileSystem: any CatalogFileSystem
    private var documents: [String: Result<JSONDocument, ResolveError>] = [:]

    /// Why a location could not be resolved, in words for the plugin's author.
    public struct ResolveError: Error, Sendable, Hashable {
        public var reason: String
    }

    public init(catalogDirectory: String, fileSystem: any CatalogFileSystem = DiskFileSystem()) {
        self.catalogDirectory = catalogDirectory
        self.fileSystem = fileSystem
    }

    /// The path tipcat prints for a catalog-relative file (`Catalog/tips/A.json`).
    public func displayPath(_ file: String) -> String {
        catalogDirectory.isEmpty || catalogDirectory == "." ? file
            : (catalogDirectory.hasSuffix("/") ? catalogDirectory : catalogDirectory + "/") + file
    }

    /// The location of `pointer` in `file`, or of `line`:`column`; with neither, the file's first line.
    public func resolve(file: String, pointer: String?, line: Int?, column: Int?) -> Result<SourceLocation, ResolveError> {
        guard isSafeRelativePath(file) else {
            return .failure(ResolveError(reason: "file '\(file)' is not a path inside the catalog"))
        }
        let document: JSONDocument
        switch load(file) {
        case .failure(let error): return .failure(error)
        case .success(let loaded): document = loaded
        }
        if let pointer {
            return locate(pointer: pointer, in: document).map { document.location(of: $0) }
        }
        if let line {
            let lines = document.source.lineCount
            guard line >= 1, line <= lines else {
                return .failure(ResolveError(reason: "'\(file)' has \(lines) line\(lines == 1 ? "" : "s"); there is no line \(line)"))
            }
            let column = column ?? 1
            let length = document.source.lineText(line)?.utf8.count ?? 0
            guard column >= 1, column <= length + 1 else {
                return .failure(ResolveError(reason: "line \(line) of '\(file)' has \(length) columns; there is no column \(column)"))
            }
            return .success(SourceLocation(file: displayPath(file), line: line, column: column))
        }
        return .success(SourceLocation(file: displayPath(file), line: 1, column: 1))
    }

    private func load(_ file: String) -> Result<JSONDocument, ResolveError> {
        if let cached = documents[file] { return cached }
        let path = displayPath(file)
        let result: Result<JSONDocument, ResolveError>
        do {
            let bytes = try fileSystem.read(path)
            do {
                result = .success(try JSONDocument.parse(SourceFile(path: path, bytes: bytes), maxDepth: JSONDocument.depthLimit))
            } catch {
                result = .failure(ResolveError(reason: "'\(file)' is not JSON, so a pointer cannot point into it"))
            }
        } catch {
            result = .failure(ResolveError(reason: "there is no file '\(file)' in the catalog"))
        }
        documents[file] = result
        return result
    }

    private func locate(pointer: String, in document: JSONDocument) -> Result<JSONNode, ResolveError> {
        var node = document.root
        guard !pointer.isEmpty else { return .success(node) }
        guard pointer.hasPrefix("/") else {
            return .failure(ResolveError(reason: "'\(pointer)' is not a JSON pointer (it must be empty or start with '/')"))
        }
        for rawToken in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = String(rawToken).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch node.value {
            case .object(let object):
                guard let next = object[token] else {
                    return .failure(ResolveError(reason: "pointer '\(pointer)' names '\(token)', which is not a key there"))
                }
                node = next
            case .array(let elements):
                guard let index = Int(token), index >= 0, index < elements.count, String(index) == token else {
                    return .failure(ResolveError(reason: "pointer '\(pointer)': '\(token)' is not an index of an array of \(elements.count)"))
                }
                node = elements[index]
            default:
                return .failure(ResolveError(reason: "pointer '\(pointer)' goes past a \(node.value.kindName) at '\(token)'"))
            }
        }
        return .success(node)
    }
}

/// A relative path that stays inside its base: not empty, not absolute, no `..` or empty components, no control
/// characters (NUL, newlines, escapes) and no backslash.
public func isSafeRelativePath(_ path: String) -> Bool {
    guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"),
          !path.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return false }
    for component in path.split(separator: "/", omittingEmptySubsequences: false) {
        if component.isEmpty || component == ".." || component == "." { return false }
    }
    return true
}
