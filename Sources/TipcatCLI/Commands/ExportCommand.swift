import Foundation
import TipcatArguments
import TipcatStore
import TipcatCodec

/// `tipcat export --channel C -o bundle.json`: the channel's head as one canonical JSON bundle.
struct ExportCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let access = StoreAccess(arguments: arguments, context: context)
        let channel = try access.channel()
        let output = arguments.value("output") ?? "-"
        let store = try access.open(.readOnly)
        let bundle: CatalogBundle
        let head: VersionRecord
        head = try store.requireHead(of: channel)
        bundle = try store.bundle(of: head, channel: channel.rawValue)
        let bytes = bundle.fileBytes
        let tips = bundle.pieces.owners.values.filter { $0.tip != nil }.count
        let summary = "version \(head.number) of \(channel) (\(tips) \(plural(tips, "tip")), content \(head.contentHash.shortHex()), \(bytes.count) bytes)"
        if output == "-" {
            // The exact bytes (a bundle's hash covers them), except on a terminal, which sees them filtered.
            (context.stdout.isTerminal ? context.stdout : context.stdout.unfiltered).write(String(decoding: bytes, as: UTF8.self))
            context.stderr.line("Exported \(summary).")
            return
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CommandError.failure("cannot write '\(output)': \(error.localizedDescription)")
        }
        context.stdout.line("Exported \(summary) to \(output).")
    }
}
