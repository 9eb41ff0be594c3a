import Foundation
import Synchronization
import TipcatArguments
import TipcatCatalog
import TipcatCore
import TipcatPlugin
import TipcatPlugins
import TipcatStore
import TipcatCodec

/// `tipcat publish`: validate, run pre-publish hooks, canonicalize, store content-addressed, create a version,
/// move the channel, run post-publish hooks.
struct PublishCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let access = StoreAccess(arguments: arguments, context: context)
        _ = try access.location()
        let channel = try access.channel()
        let expected = try access.number("expect-version")
        let force = arguments.flag("force")
        let dryRun = arguments.flag("dry-run")
        let progress = ProgressLine(output: context.stderr)

        PhaseTrace.mark("publish: start")
        // Who publishes, asked of git on a thread of its own while the catalog loads: the same process started once
        // the load holds hundreds of megabytes took 70 ms longer at 20,000 tips.
        let author = BackgroundResult<String>()
        author.start { [access] in access.author }
        progress.show("loading and validating \(access.catalogDirectory)…")
        let checked: CatalogCheck.Outcome
        // Read as the catalog loads; written only once the publish succeeds (or finds its content published).
        let stringsCache = access.stringsCache
        // The owners memo's records do not depend on the catalog's content: read while it loads.
        let catalogDirectory = access.catalogDirectory
        let ownerRecords = stringsCache.map { cache in BackgroundValue { cache.ownerRecords(for: catalogDirectory) } }
        // After a small edit the memo knows nearly every tip: the tree is then made while the catalog is checked, on
        // its own thread (otherwise in the write transaction, storing each tip's objects as they are made).
        let early = BackgroundResult<EarlyTree>()
        let whenDecoded = ownerRecords.map { records in PublishCommand.makeTreeEarly(into: early, records: records, cache: stringsCache) }
        do {
            checked = try access.checkedCatalog(
                purpose: "nothing was published", lintPlugins: true, stringsCache: stringsCache, whenDecoded: whenDecoded)
        } catch {
            progress.clear()
            throw error
        }
        // What loading made and dropped on every core goes back before the tree is made.
        FreeMemory.giveBack()
        PhaseTrace.mark("publish: loaded and validated")
        // What the load kept is written beside its places while the publish goes on (taking them only if it succeeds).
        let loadWrites = stringsCache?.startWrites()
        var cacheCommitted = false
        let made = MadeTree()
        defer {
            if !cacheCommitted {
                loadWrites?.discard()
                made.memoWrites.withLock { $0 }?.discard()
            }
        }
        let catalog = checked.result.catalog
        let hooks = PluginHost(registry: checked.registry, catalogDirectory: access.catalogDirectory)
        progress.show("encoding and hashing \(catalog.tips.count) \(plural(catalog.tips.count, "tip"))…")
        let madeEarly = early.started ? early.wait() : EarlyTree()
        let memo = madeEarly.memo
        PhaseTrace.mark("publish: owners memo read")
        let preHooks = !checked.registry.external(.prePublish).isEmpty
        // A dry run and pre-publish hooks see the tree before anything is written: it is made here (unless it was
        // made while the catalog was checked). Otherwise the publish makes it once it holds the channel, storing each
        // tip's objects as they are made.
        let prebuilt = madeEarly.tree ?? (dryRun || preHooks ? ContentTree(catalog: catalog, memo: memo) : nil)
        if prebuilt != nil { PhaseTrace.mark("publish: content tree made") }
        // What the publish would do, for a dry run and pre-publish hooks (a publish diffs in its write transaction).
        if let tree = prebuilt, dryRun || preHooks {
            let pending = try pendingPublish(tree: tree, channel: channel, access: access)
            progress.clear()
            if dryRun { printPreview(pending, channel: channel) }
            if let pending, preHooks {
                try runPrePublish(hooks, catalog: catalog, event: event(for: pending, tree: tree, channel: channel, author: author.wait(), dryRun: dryRun))
            }
            if dryRun {
                if let pending {
                    context.stdout.line(
                        "Dry run: would publish version \(pending.next) to \(channel) (\(arguments.value("message") ?? pending.diff.summary)); nothing was written.")
                }
                return
            }
        }
        // The memo of each tip's objects is written beside its place as soon as the tree is made, while the store
        // finishes (encoded as it is written, unless it was with the tree while the catalog was checked); it takes
        // its place only once the publish succeeded.
        let stageMemo: @Sendable (ContentTree) -> Void = { tree in
            guard let stringsCache, let memo = tree.memo else { return }
            if let encoded = madeEarly.encodedMemo {
                stringsCache.keep(encoded, for: catalogDirectory)
            } else {
                stringsCache.keep(memo, for: catalogDirectory)
            }
            made.memoWrites.withLock { $0 = stringsCache.startWrites() }
        }
        if let prebuilt { stageMemo(prebuilt) }
        let content: PublishRequest.Content = prebuilt.map { .tree($0) } ?? .made { store in
            let tree = try ContentTree(catalog: catalog, memo: memo, storing: store)
            made.tree.withLock { $0 = tree }
            stageMemo(tree)
            // The batches' buffers, freed on every thread, go back before the publish's diff allocates.
            FreeMemory.giveBack()
            return tree
        }
        let request = PublishRequest(
            channel: channel, content: content, message: arguments.value("message"), author: author.wait(), time: try access.now(),
            tipcatVersion: tipcatVersion, expectedVersion: expected, force: force)
        progress.show("writing to \(access.storeDescription)…")
        let outcome: PublishOutcome
        do {
            outcome = try access.open(.readWrite).publish(request)
        } catch {
            progress.clear()
            throw error
        }
        PhaseTrace.mark("publish: store written")
        // A first version's diff lists every tip and key: not freed just before the exit (10 ms at 20,000 tips).
        ProcessLifetime.keepUntilExit(outcome)
        progress.clear()
        // The caches take their places only once the publish succeeded: what the load kept, then the memo of each
        // tip's objects (both written meanwhile).
        let tree = prebuilt ?? made.tree.withLock { $0 }
        let cacheWrites = made.memoWrites.withLock { $0 }
        loadWrites?.commit()
        cacheWrites?.commit()
        PhaseTrace.mark("publish: caches committed")
        cacheCommitted = true
        // The tree and the caches' staged files (with the decodings they hold) are not freed just before the exit.
        if let tree { ProcessLifetime.keepUntilExit(tree) }
        if let loadWrites { ProcessLifetime.keepUntilExit(loadWrites) }
        if let cacheWrites { ProcessLifetime.keepUntilExit(cacheWrites) }
        // What the cache keeps for catalogs no publish has used for 30 days goes (other checkouts, old paths).
        stringsCache?.prune(now: Date().timeIntervalSince1970)
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
            if !checked.registry.external(.postPublish).isEmpty {
                let event = PublishEvent(
                    channel: channel.rawValue, version: record.number, contentHash: record.contentHash.hex, author: record.author,
                    message: record.message, previousVersion: record.parent, diff: PublishCommand.summary(of: diff), dryRun: false)
                let findings = hooks.postPublish(catalog, event: event)
                if !findings.isEmpty {
                    context.stderr.write(DiagnosticFormat.text.render(findings.sortedForOutput()))
                    context.stderr.line("warning: post-publish hooks reported problems; version \(record.number) stays published")
                }
            }
        }
    }

    /// The memo of each tip's objects from earlier publishes (`ContentTree(catalog:memo:)`): a tip's key is a
    /// digest of its file, the String Catalog and the context it was decoded in, and the set of tip ids —
    /// everything its objects are made from; `records` are those kept (`StringsCacheDirectory.ownerRecords`). Nil
    /// when the load has no fingerprint for every tip.
    static func ownersMemo(tips: [Tip], fingerprints: LoadFingerprints, records: [ByteKey: OwnerObjectsMemo.Record]) -> OwnerObjectsMemo? {
        guard fingerprints.tips.count == tips.count else { return nil }
        var hasher = SHA256()
        hasher.update(Array("tipcat owner objects 1\n".utf8))
        hasher.update(fingerprints.shared)
        for id in tips.map(\.id.rawValue).sorted() { hasher.update(Array("\n\(id)".utf8)) }
        let shared = hasher.finalize().bytes
        // A key per tip, on every core (each hashes 64 bytes).
        let files = fingerprints.tips
        let keys = concurrentArray(count: tips.count, chunkSize: 1024) { (range, emit: (ByteKey) -> Void) -> Bool in
            for index in range {
                var key = SHA256()
                key.update(shared)
                key.update(files[index])
                emit(ByteKey(key.finalize().bytes))
            }
            return true
        }
        return keys.map { OwnerObjectsMemo(keys: $0, records: records) }
    }

    /// The owners memo, and the content tree when the memo knows nearly every tip (a publish after a small edit).
    struct EarlyTree: Sendable {
        var memo: OwnerObjectsMemo?
        var tree: ContentTree?
        /// The memo the tree makes for the next publish, encoded for the cache (with a tree and a cache).
        var encodedMemo: StringsCacheDirectory.EncodedMemo?
    }

    /// What `CatalogLoader.whenDecoded` runs: `early` starts making the memo from `records` and, when the memo knows
    /// nearly every tip, the tree, while the catalog is checked. A tree made whole keeps every object it makes until
    /// it is stored: otherwise it is made in the write transaction, storing each tip's objects as they are made.
    static func makeTreeEarly(
        into early: BackgroundResult<EarlyTree>, records: BackgroundValue<[ByteKey: OwnerObjectsMemo.Record]>, cache: StringsCacheDirectory?
    ) -> @Sendable (Catalog, LoadFingerprints?) -> Void {
        { catalog, fingerprints in
            early.start {
                guard let fingerprints, let memo = ownersMemo(tips: catalog.tips, fingerprints: fingerprints, records: records.value)
                else { return EarlyTree() }
                let unknown = memo.keys.reduce(0) { count, key in memo.records[key] == nil ? count + 1 : count }
                guard unknown <= max(256, memo.keys.count / 16) else { return EarlyTree(memo: memo) }
                let tree = ContentTree(catalog: catalog, memo: memo)
                PhaseTrace.mark("publish: content tree made while the catalog is checked")
                return EarlyTree(memo: memo, tree: tree, encodedMemo: cache.flatMap { cache in tree.memo.map(cache.encoded) })
            }
        }
    }

    /// What a publish would do now: the channel's head, the diff against it and the next version number; nil when
    /// the content is already the head's (and --force is not given).
    struct Pending {
        var head: VersionRecord?
        var diff: CatalogDiff
        var next: Int
    }

    private func pendingPublish(tree: ContentTree, channel: ChannelName, access: StoreAccess) throws -> Pending? {
        let store = try access.existingStore()
        let head: VersionRecord?
        head = try store?.head(of: channel)
        if let head, head.contentHash == tree.root, !arguments.flag("force") {
            if arguments.flag("dry-run") {
                context.stdout.line("Nothing to publish: \(channel) is at version \(head.number), which has this content.")
            }
            return nil
        }
        let sources: [any ObjectSource] = [tree] + (store.map { [$0] } ?? [])
        let diff: CatalogDiff
        diff = try CatalogDiff(from: head?.contentHash, to: tree.root, reader: TreeReader(LayeredObjectSource(sources)))
        let next = ((try? store?.versions().last?.number) ?? nil).map { $0 + 1 } ?? 1
        return Pending(head: head, diff: diff, next: next)
    }

    /// `--dry-run`: the diff against the channel's head.
    private func printPreview(_ pending: Pending?, channel: ChannelName) {
        guard let pending else { return }
        if pending.diff.isInitial {
            context.stdout.line("\(pending.diff.summary) (first version of \(channel))")
        } else {
            context.stdout.write(DiffPrinter.text(pending.diff))
        }
    }

    private func event(for pending: Pending, tree: ContentTree, channel: ChannelName, author: String, dryRun: Bool) -> PublishEvent {
        PublishEvent(
            channel: channel.rawValue, version: pending.next, contentHash: tree.root.hex, author: author,
            message: arguments.value("message") ?? pending.diff.summary, previousVersion: pending.head?.number,
            diff: PublishCommand.summary(of: pending.diff), dryRun: dryRun)
    }

    /// Runs the pre-publish hooks; an error finding or a failed hook stops the publish before anything is stored.
    private func runPrePublish(_ hooks: PluginHost, catalog: Catalog, event: PublishEvent) throws {
        let findings = hooks.prePublish(catalog, event: event).sortedForOutput()
        guard !findings.isEmpty else { return }
        context.stderr.write(DiagnosticFormat.text.render(findings))
        let errors = findings.filter { $0.severity == .error }.count
        if errors > 0 {
            context.stderr.line("error: a pre-publish hook vetoed the publish (\(errors) \(plural(errors, "error"))); nothing was published")
            throw CommandError.exit(.failure)
        }
    }

    /// The diff as hooks see it.
    static func summary(of diff: CatalogDiff) -> PublishEvent.DiffSummary {
        func tips(_ kind: CatalogChange.Kind) -> [String] {
            var seen = Set<String>()
            return diff.changes.filter { $0.area == .tip && $0.kind == kind && $0.field == nil }
                .map(\.subject).filter { seen.insert($0).inserted }
        }
        let added = tips(.added)
        let removed = tips(.removed)
        let whole = Set(added).union(removed)
        return PublishEvent.DiffSummary(
            summary: diff.summary, tipsAdded: added, tipsRemoved: removed, tipsChanged: diff.changedTips.filter { !whole.contains($0) })
    }
}

/// The tree a publish made in its transaction, for the caches afterwards.
private final class MadeTree: Sendable {
    let tree = Mutex<ContentTree?>(nil)
    /// The memo's file, being written beside its place.
    let memoWrites = Mutex<StringsCacheDirectory.PendingWrites?>(nil)
}
