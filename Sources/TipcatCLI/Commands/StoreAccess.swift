import Foundation
import TipcatArguments
import TipcatCatalog
import TipcatCore
import TipcatStore
import TipcatCodec
import TipcatText

/// What the publishing commands share: where the store is, opening it, reading versions, channels and the
/// working catalog, who is publishing and when — all from the arguments and the injected environment.
struct StoreAccess {
    let arguments: ParsedArguments
    let context: CommandContext

    var command: [String] { arguments.commandPath }

    var catalogDirectory: String { arguments.value("catalog") ?? "Catalog" }

    /// `--store` > `TIPCAT_STORE` > `.tipcat/store.sqlite` in the directory that contains the catalog directory:
    /// a path or a store URL, as given (see `location()`).
    var storePath: String {
        StoreAccess.storePath(arguments: arguments, environment: context.environment, catalog: catalogDirectory)
    }

    /// The store every command uses: `--store` > `TIPCAT_STORE` > `.tipcat/store.sqlite` beside `catalog`
    /// (commands without `--catalog` pass the default, `Catalog`, which gives `.tipcat/store.sqlite`).
    static func storePath(arguments: ParsedArguments, environment: [String: String], catalog: String = "Catalog") -> String {
        if let path = arguments.optionValues["store"]?.last { return path }
        if let path = environment["TIPCAT_STORE"], !path.isEmpty { return path }
        return defaultStorePath(catalog: catalog)
    }

    /// `Catalog` → `.tipcat/store.sqlite`; `app/Catalog/` → `app/.tipcat/store.sqlite`; `.` → `../.tipcat/store.sqlite`.
    static func defaultStorePath(catalog: String) -> String {
        tipcatDirectory(catalog: catalog) + "/store.sqlite"
    }

    /// `.tipcat` in the directory that contains the catalog directory: `Catalog` → `.tipcat`; `app/Catalog/` →
    /// `app/.tipcat`; `.` → `../.tipcat`.
    static func tipcatDirectory(catalog: String) -> String {
        var directory = catalog
        while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
        let last = directory.split(separator: "/").last.map(String.init) ?? directory
        let parent: String
        if last == "." || last == ".." {
            parent = directory + "/.."
        } else if let slash = directory.lastIndex(of: "/") {
            parent = slash == directory.startIndex ? "/" : String(directory[..<slash])
        } else {
            parent = ""
        }
        if parent.isEmpty { return ".tipcat" }
        return parent.hasSuffix("/") ? parent + ".tipcat" : parent + "/.tipcat"
    }

    /// The String Catalog cache `publish` keeps (see `StringsCacheDirectory`), written only once the publish
    /// succeeds: `TIPCAT_CACHE_DIR`; else beside an SQLite store, `<store>-cache/` (as SQLite keeps `<store>-wal`);
    /// else `$XDG_CACHE_HOME/tipcat` or `~/.cache/tipcat`. Nil with `--no-cache` (or no place to keep it).
    var stringsCache: StringsCacheDirectory? {
        guard !arguments.flag("no-cache") else { return nil }
        let environment = context.environment
        let directory: String
        if let given = environment["TIPCAT_CACHE_DIR"], !given.isEmpty {
            directory = given
        } else if case .sqlite(let path)? = try? location() {
            directory = path + "-cache"
        } else if let home = environment["XDG_CACHE_HOME"], home.hasPrefix("/") {
            directory = home + "/tipcat"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            directory = home + "/.cache/tipcat"
        } else {
            return nil
        }
        return StringsCacheDirectory(directory: directory, build: StoreAccess.buildIdentity, writesWhenAsked: true)
    }

    /// This tipcat: its version and its executable's size and modification time (a rebuilt tipcat may decode
    /// differently, so its caches are its own).
    static let buildIdentity: [UInt8] = {
        var identity = "tipcat \(tipcatVersion)"
        var info = stat()
        let executable = stat("/proc/self/exe", &info) == 0 || CommandLine.arguments.first.map { stat($0, &info) == 0 } == true
        if executable { identity += " \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_ino)" }
        return Array(identity.utf8)
    }()

    /// Where the store is: an SQLite file, or a PostgreSQL database (`postgresql://…`); any other URL scheme
    /// is a usage error.
    func location() throws -> StoreLocation {
        try StoreLocation(storePath)
    }

    /// The store for messages: the path, or the URL without its password.
    var storeDescription: String {
        (try? location().description) ?? storePath
    }

    func open(_ mode: StoreOpenMode) throws -> any CatalogStore {
        try location().open(mode)
    }


    func channel(_ option: String = "channel") throws -> ChannelName {
        return try ChannelName(arguments.value(option) ?? "production")
    }

    func channel(named name: String) throws -> ChannelName {
        return try ChannelName(name)
    }

    /// A non-negative integer option (`--expect-version`, `--to`), or nil when absent.
    func number(_ option: String) throws -> Int? {
        guard let text = arguments.value(option) else { return nil }
        guard let number = Int(text), number >= 0 else {
            throw CommandError.usage("--\(option) takes a version number (0, 1, 2…), not '\(text)'", command: command)
        }
        return number
    }

    /// The author: `--author`, else `git config user.name` (run in the catalog's directory), else `$USER`.
    var author: String {
        if let given = arguments.value("author"), !given.trimmingWhitespace().isEmpty { return given }
        if let name = gitUserName() { return name }
        if let user = context.environment["USER"], !user.isEmpty { return user }
        return "unknown"
    }

    private func gitUserName() -> String? {
        guard context.environment["PATH"] != nil else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let directory = FileManager.default.fileExists(atPath: catalogDirectory) ? catalogDirectory : "."
        process.arguments = ["git", "-C", directory, "config", "user.name"]
        process.environment = context.environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let name = String(decoding: data, as: UTF8.self).trimmingWhitespace()
        return name.isEmpty ? nil : name
    }

    /// Now, UTC to the second; `TIPCAT_NOW` (ISO 8601) overrides the clock for reproducible runs.
    func now() throws -> Timestamp {
        if let text = context.environment["TIPCAT_NOW"], !text.isEmpty {
            guard let stamp = Timestamp(iso8601: text) else {
                throw CommandError.failure("TIPCAT_NOW is '\(text)', which is not an ISO 8601 time such as 2026-03-01T09:30:00Z")
            }
            return stamp
        }
        return Timestamp(secondsSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    /// Loads and validates the catalog on disk; on errors prints them to stderr and exits 1.
    /// With `lintPlugins`, the external lint plugins run too (unless `--no-plugins`), as for `validate`.
    func workingCatalog(purpose: String, lintPlugins: Bool = false) throws -> Catalog {
        try checkedCatalog(purpose: purpose, lintPlugins: lintPlugins).result.catalog
    }

    func checkedCatalog(
        purpose: String, lintPlugins: Bool, stringsCache: (any StringsDecodingCache)? = nil,
        whenDecoded: (@Sendable (Catalog, LoadFingerprints?) -> Void)? = nil
    ) throws -> CatalogCheck.Outcome {
        var check = CatalogCheck(directory: catalogDirectory, context: context, externalPlugins: lintPlugins && !arguments.flag("no-plugins"))
        check.stringsCache = stringsCache
        check.whenDecoded = whenDecoded
        return try check.requireValid(purpose: purpose)
    }

    /// One side of a diff or a `show-version` argument.
    struct Side {
        /// How the user wrote it.
        var label: String
        /// The version, when it is one.
        var record: VersionRecord?
        /// The content hash (nil: no content, before the first version).
        var root: SHA256Digest?
        /// For `working`: the built tree.
        var tree: ContentTree?
    }

    /// Resolves `text`: a version number, `working`, or a channel name.
    func side(_ text: String, in store: (any CatalogStore)?) throws -> Side {
        if text == "working" {
            let tree = ContentTree(catalog: try workingCatalog(purpose: "fix them to compare it"))
            return Side(label: "working", record: nil, root: tree.root, tree: tree)
        }
        if let number = Int(text) {
            guard let store else { throw CommandError.failure("there is no version \(number) (no store at '\(storeDescription)')") }
            let record = try store.requireVersion(number)
            return Side(label: "version \(number)", record: record, root: record.contentHash, tree: nil)
        }
        let channel = try channel(named: text)
        guard let store else { throw CommandError.failure("there is no channel '\(text)' (no store at '\(storeDescription)')") }
        let record = try store.requireHead(of: channel)
        return Side(label: "\(text) (version \(record.number))", record: record, root: record.contentHash, tree: nil)
    }

    /// Opens the store read-only when it exists; nil when it does not (so `working` alone needs no store).
    /// A PostgreSQL store always exists once its server answers.
    func existingStore() throws -> (any CatalogStore)? {
        let location = try location()
        if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) { return nil }
        return try location.open(.readOnly)
    }
}

/// Writes transient progress lines on a terminal's stderr; silent otherwise.
struct ProgressLine {
    let output: any TextOutput

    func show(_ text: String) {
        guard output.isTerminal else { return }
        output.unfiltered.write("\r\u{1B}[K" + Sanitizer.terminalSafe(text))
    }

    func clear() {
        guard output.isTerminal else { return }
        output.unfiltered.write("\r\u{1B}[K")
    }
}
