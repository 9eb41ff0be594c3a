import TipcatCore
import TipcatCodec

/// Copies a store's whole history into another store, of the same backend or another one
/// (`tipcat store migrate --from A --to B`).
///
/// The target must be empty or hold a beginning of the source's history (what an earlier copy wrote): the
/// versions and channel moves it lacks are added, with every object they need, read from the source and
/// checked against its hash, in one transaction that verifies each added version's content hash before it
/// commits. Copying again when the target is up to date writes nothing.
public enum StoreMigration {
    /// What a copy did.
    public struct Report: Sendable, Hashable {
        /// Versions added to the target.
        public var versions: Int
        /// Channel moves added.
        public var moves: Int
        /// Channels created or moved.
        public var channels: Int
        /// Objects sent to the target (those it already had are kept).
        public var objects: Int
        /// The source's versions and channels, all now in the target.
        public var totalVersions: Int
        public var totalChannels: Int

        /// Nothing needed copying.
        public var isNoOp: Bool { versions == 0 && moves == 0 && channels == 0 }
    }

    /// Copies what `target` lacks of `source`'s history.
    public static func copy(from source: any CatalogStore, to target: any CatalogStore) throws(StoreError) -> Report {
        let context = "cannot copy '\(source.location)' into '\(target.location)'"
        let sourceVersions = try source.versions()
        let targetVersions = try target.versions()
        let sourceMoves = try source.channelMoves()
        let targetMoves = try target.channelMoves()
        let sourceChannels = try source.channels()
        let targetChannels = try target.channels()

        for (index, existing) in targetVersions.enumerated() {
            guard index < sourceVersions.count else {
                throw StoreError.database(
                    context: context, message: "the target has version \(existing.number), which the source does not; copy into an empty store")
            }
            let wanted = sourceVersions[index]
            guard existing == wanted else {
                throw StoreError.database(
                    context: context,
                    message: "the target's version \(existing.number) (content \(existing.contentHash.shortHex())) differs from the source's version \(wanted.number) (content \(wanted.contentHash.shortHex())); copy into an empty store")
            }
        }
        guard targetMoves.count <= sourceMoves.count, Array(sourceMoves.prefix(targetMoves.count)) == targetMoves else {
            throw StoreError.database(context: context, message: "the target's channel history differs from the source's; copy into an empty store")
        }

        let newVersions = Array(sourceVersions.dropFirst(targetVersions.count))
        let newMoves = Array(sourceMoves.dropFirst(targetMoves.count))
        let channelsChanged = Set(sourceChannels.map { "\($0.name)@\($0.version)" }).subtracting(targetChannels.map { "\($0.name)@\($0.version)" }).count
        var report = Report(
            versions: newVersions.count, moves: newMoves.count, channels: channelsChanged, objects: 0,
            totalVersions: sourceVersions.count, totalChannels: sourceChannels.count)
        if report.isNoOp && sourceChannels == targetChannels { return report }

        var objects: [SHA256Digest: ContentObject] = [:]
        let reader = source.reader
        for record in newVersions {
            try collect(record.contentHash, reader: reader, into: &objects)
        }
        var resets: [Int: [String]] = [:]
        for record in newVersions {
            let tips = try source.resets(of: record.number)
            if !tips.isEmpty { resets[record.number] = tips }
        }
        report.objects = objects.count
        try target.importHistory(StoreHistory(
            objects: Array(objects.values), versions: newVersions, resets: resets, moves: newMoves, channels: sourceChannels))
        return report
    }

    /// Every object of a version's tree not collected yet, read from the source (each checked against its
    /// hash), with its kind.
    static func collect(_ root: SHA256Digest, reader: TreeReader, into objects: inout [SHA256Digest: ContentObject]) throws(StoreError) {
        guard objects[root] == nil else { return }
        let manifest = try reader.manifest(root)
        objects[root] = ContentObject(
            kind: .catalog, bytes: try reader.bytes(root),
            children: [manifest.settings, manifest.parameters, manifest.events, manifest.groups, manifest.tips])
        for (digest, kind) in [(manifest.settings, ObjectKind.settings), (manifest.parameters, .parameters), (manifest.events, .events), (manifest.groups, .groups)]
        where objects[digest] == nil {
            objects[digest] = ContentObject(kind: kind, bytes: try reader.bytes(digest))
        }
        var stack = [manifest.tips]
        while let next = stack.popLast() {
            guard objects[next] == nil else { continue }
            switch try reader.trieNode(next) {
            case .node(let children):
                objects[next] = ContentObject(kind: .node, bytes: try reader.bytes(next), children: children.keys.sorted().compactMap { children[$0] })
                stack.append(contentsOf: children.values)
            case .leaf(let entries):
                let named = entries.values.flatMap { [$0.tip, $0.strings].compactMap { $0 } }
                objects[next] = ContentObject(kind: .leaf, bytes: try reader.bytes(next), children: named)
                for entry in entries.values {
                    if let tip = entry.tip, objects[tip] == nil { objects[tip] = ContentObject(kind: .tip, bytes: try reader.bytes(tip)) }
                    if let strings = entry.strings, objects[strings] == nil {
                        objects[strings] = ContentObject(kind: .strings, bytes: try reader.bytes(strings))
                    }
                }
            }
        }
    }
}
