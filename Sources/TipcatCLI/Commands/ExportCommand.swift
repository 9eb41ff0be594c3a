import Foundation
import TipcatArguments
import TipcatStore
import TipcatCodec

/// `tipcat export --channel C -o bundle.json`: the channel's head as one canonical JSON bundle.
/// `tipcat export --channel C --static DIR`: the files an app or a CDN serves (see `StaticExport`).
struct ExportCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let access = StoreAccess(arguments: arguments, context: context)
        let staticDirectory = arguments.value("static")
        let output = arguments.value("output")
        if staticDirectory != nil && output != nil {
            throw CommandError.usage("use -o FILE or --static DIR, not both", command: access.command)
        }
        guard staticDirectory != nil || output != nil else {
            throw CommandError.usage("export needs -o FILE (a bundle) or --static DIR (files for a CDN)", command: access.command)
        }
        let channel = try access.channel()
        let store = try access.open(.readOnly)
        let bundle: CatalogBundle
        let head: VersionRecord
        head = try store.requireHead(of: channel)
        bundle = try store.bundle(of: head, channel: channel.rawValue)
        let bytes = bundle.fileBytes
        let tips = bundle.pieces.owners.values.filter { $0.tip != nil }.count
        let summary = "version \(head.number) of \(channel) (\(tips) \(plural(tips, "tip")), content \(head.contentHash.shortHex()), \(bytes.count) bytes)"
        if let staticDirectory {
            try exportStatic(bytes, head: head, channel: channel, directory: staticDirectory, summary: summary)
            return
        }
        let path = output ?? "-"
        if path == "-" {
            // The exact bytes (a bundle's hash covers them), except on a terminal, which sees them filtered.
            (context.stdout.isTerminal ? context.stdout : context.stdout.unfiltered).write(String(decoding: bytes, as: UTF8.self))
            context.stderr.line("Exported \(summary).")
            return
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandError.failure("cannot write '\(path)': \(error.localizedDescription)")
        }
        context.stdout.line("Exported \(summary) to \(path).")
    }

    /// Writes the bundle as `versions/<sha256>.json`, then the channel file, each with its `.etag`; files whose
    /// bytes are already right are left alone. Each write is atomic (a temporary file renamed into place) and
    /// the channel file comes last, so a reader never finds it naming a missing bundle.
    private func exportStatic(_ bytes: [UInt8], head: VersionRecord, channel: ChannelName, directory: String, summary: String) throws {
        let sha256 = SHA256.hash(bytes)
        let pointer = StaticExport.ChannelPointer(
            channel: channel.rawValue, version: head.number, contentHash: head.contentHash, publishedAt: head.createdAt, sha256: sha256)
        let channelBytes = pointer.fileBytes
        let channelPath = StaticExport.channelPath(channel.rawValue)
        let files: [(String, [UInt8])] = [
            (pointer.file, bytes),
            (StaticExport.etagPath(pointer.file), StaticExport.etagBytes(of: bytes)),
            (StaticExport.etagPath(channelPath), StaticExport.etagBytes(of: channelBytes)),
            (channelPath, channelBytes),
        ]
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        var written = 0
        for (relative, content) in files {
            let path = base + "/" + relative
            if let existing = FileManager.default.contents(atPath: path), [UInt8](existing) == content { continue }
            try ExportCommand.writeAtomically(content, to: path)
            written += 1
        }
        context.stdout.line("Exported \(summary) to \(base)/: \(channelPath) → \(pointer.file)")
        context.stdout.line("  \(written) \(plural(written, "file")) written, \(files.count - written) unchanged (ETags in .etag files)")
    }

    /// Creates the missing directories above `path`, writes `bytes` to a temporary file beside it and renames
    /// that into place, so readers see the old file or the new one, never a part.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        func failure(_ what: String) -> CommandError {
            CommandError.failure("cannot write '\(path)': \(what): \(String(cString: strerror(errno)))")
        }
        let components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        for (index, component) in components.enumerated() where !component.isEmpty && component != "." {
            let directory = components.prefix(index + 1).joined(separator: "/")
            if mkdir(directory, 0o755) != 0 && errno != EEXIST { throw failure("cannot create '\(directory)'") }
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = "\(folder).\(name).tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("cannot create a temporary file") }
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress.map { $0 + offset }, bytes.count - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let error = failure("cannot write the temporary file")
                close(descriptor)
                unlink(temporary)
                throw error
            }
            offset += count
        }
        guard fsync(descriptor) == 0, close(descriptor) == 0 else {
            let error = failure("cannot write the temporary file")
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot rename the temporary file into place")
            unlink(temporary)
            throw error
        }
    }
}
