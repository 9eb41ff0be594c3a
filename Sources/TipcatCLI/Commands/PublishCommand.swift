import Foundation
import TipcatArguments
import TipcatCatalog
import TipcatCore
import TipcatStore
import TipcatCodec

/// `tipcat publish`: validate, canonicalize, store content-addressed, create a version, move the channel.
struct PublishCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let access = StoreAccess(arguments: arguments, context: context)
        let channel = try access.channel()
        let expected = try access.number("expect-version")
        let force = arguments.flag("force")
        let dryRun = arguments.flag("dry-run")
        let progress = ProgressLine(output: context.stderr)

        progress.show("loading and validating \(access.catalogDirectory)…")
        let catalog: Catalog
        do {
            catalog = try access.workingCatalog(purpose: "nothing was published")
        } catch {
            progress.clear()
            throw error
        }
        progress.show("encoding and hashing \(catalog.tips.count) \(plural(catalog.tips.count, "tip"))…")
        let tree = ContentTree(catalog: catalog)

        if dryRun {
            progress.clear()
            try preview(tree: tree, channel: channel, access: access)
            return
        }
        let request = PublishRequest(
            channel: channel, tree: tree, message: arguments.value("message"), author: access.author, time: try access.now(),
            tipcatVersion: tipcatVersion, expectedVersion: expected, force: force)
        progress.show("writing to \(access.storePath)…")
        let outcome: PublishOutcome
        do {
            outcome = try access.open(.readWrite).publish(request)
        } catch {
            progress.clear()
            throw error
        }
        progress.clear()
        switch outcome {
        case .unchanged(let head):
            context.stdout.line(
                "Nothing to publish: \(channel) is at version \(head.number), which has this content (\(head.contentHash.shortHex())).")
        case .published(let record, let diff):
            let tips = "\(record.tipsChanged) \(plural(record.tipsChanged, "tip")) changed"
            context.stdout.line("Published version \(record.number) to \(channel)\(record.type == .forced ? " (forced)" : ""): \(record.message)")
            context.stdout.line("  content \(record.contentHash.hex), \(tips)\(record.parent.map { ", parent \($0)" } ?? "")")
            if !diff.resets.isEmpty {
                context.stdout.line("  devices reset their state for: \(diff.resets.joined(separator: ", ")) (republish: reset)")
            }
        }
    }

    /// `--dry-run`: the diff against the channel's head; nothing is opened for writing.
    private func preview(tree: ContentTree, channel: ChannelName, access: StoreAccess) throws {
        let store = try access.existingStore()
        let head: VersionRecord?
        head = try store?.head(of: channel)
        if let head, head.contentHash == tree.root, !arguments.flag("force") {
            context.stdout.line("Nothing to publish: \(channel) is at version \(head.number), which has this content.")
            return
        }
        let sources: [any ObjectSource] = [tree] + (store.map { [$0] } ?? [])
        let diff: CatalogDiff
        diff = try CatalogDiff(from: head?.contentHash, to: tree.root, reader: TreeReader(LayeredObjectSource(sources)))
        if diff.isInitial {
            context.stdout.line("\(diff.summary) (first version of \(channel))")
        } else {
            context.stdout.write(DiffPrinter.text(diff))
        }
        let next = ((try? store?.versions().last?.number) ?? nil).map { $0 + 1 } ?? 1
        context.stdout.line(
            "Dry run: would publish version \(next) to \(channel) (\(arguments.value("message") ?? diff.summary)); nothing was written.")
    }
}
