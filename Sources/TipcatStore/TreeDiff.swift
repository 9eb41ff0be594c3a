public import TipcatCodec
/// Which pieces differ between two versions, found by walking both trees and skipping equal subtrees.
///
/// It reads only the objects on paths that changed, so comparing two adjacent versions of a large catalog
/// touches a handful of objects.
public struct TreeDiff: Sendable, Hashable {
    /// A tip id whose entry differs, with its entry before and after (nil when absent).
    public struct OwnerChange: Sendable, Hashable {
        public var name: String
        public var old: LeafEntry?
        public var new: LeafEntry?

        /// Whether this owner is a tip on either side (not only translations of no tip).
        public var isTip: Bool { old?.tip != nil || new?.tip != nil }
    }

    public var old: RootManifest?
    public var new: RootManifest?
    /// Owners whose entries differ, sorted by name.
    public var owners: [OwnerChange]

    /// Compares the trees at two roots (nil: the empty catalog before a first version).
    public init(from oldRoot: SHA256Digest?, to newRoot: SHA256Digest?, reader: TreeReader) throws(StoreError) {
        old = try oldRoot.map { (root) throws(StoreError) in try reader.manifest(root) }
        new = try newRoot.map { (root) throws(StoreError) in try reader.manifest(root) }
        var changes: [String: OwnerChange] = [:]
        if oldRoot != newRoot {
            try TreeDiff.walk(old?.tips, new?.tips, reader: reader, into: &changes)
        }
        owners = changes.values.sorted { $0.name < $1.name }
    }

    private static func walk(
        _ old: SHA256Digest?, _ new: SHA256Digest?, reader: TreeReader, into changes: inout [String: OwnerChange]
    ) throws(StoreError) {
        guard old != new else { return }
        let oldNode = try old.map { (digest) throws(StoreError) in try reader.trieNode(digest) }
        let newNode = try new.map { (digest) throws(StoreError) in try reader.trieNode(digest) }
        if case .node(let oldChildren)? = oldNode, case .node(let newChildren)? = newNode {
            // Both split at this depth: the same digit covers the same tip ids on both sides.
            for nibble in 0..<16 {
                try walk(oldChildren[nibble], newChildren[nibble], reader: reader, into: &changes)
            }
            return
        }
        let oldEntries = try old.map { (digest) throws(StoreError) in try reader.entries(digest) } ?? [:]
        let newEntries = try new.map { (digest) throws(StoreError) in try reader.entries(digest) } ?? [:]
        compare(oldEntries, newEntries, into: &changes)
    }

    private static func compare(_ old: [String: LeafEntry], _ new: [String: LeafEntry], into changes: inout [String: OwnerChange]) {
        for (name, entry) in old where new[name] != entry {
            changes[name] = OwnerChange(name: name, old: entry, new: new[name])
        }
        for (name, entry) in new where old[name] == nil {
            changes[name] = OwnerChange(name: name, old: nil, new: entry)
        }
    }

    /// Tips added, removed or changed (definition, translations or policy).
    public var changedTips: [String] { owners.filter(\.isTip).map(\.name) }

    /// Tips whose definition changed and whose new policy is `reset`: devices forget their state for them.
    public var resets: [String] {
        owners.filter { $0.old?.tip != nil && $0.new?.tip != nil && $0.old?.tip != $0.new?.tip && $0.new?.republish == "reset" }
            .map(\.name)
    }
}
