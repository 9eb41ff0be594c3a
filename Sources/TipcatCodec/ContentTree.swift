public import TipcatCatalog
import TipcatCore
public import TipcatJSON

/// What a stored object is.
public enum ObjectKind: String, Sendable, Hashable, CaseIterable {
    /// The root of a version: the hashes of settings, parameters, events, groups and the tips tree.
    case catalog
    case settings
    case parameters
    case events
    case groups
    /// An inner node of the tips tree: `{"node": {"0": hash, …, "f": hash}}`.
    case node
    /// A leaf of the tips tree: `{"leaf": {TipID: {"tip": hash, "strings": hash, "republish": policy}}}`.
    case leaf
    /// One tip's definition.
    case tip
    /// One tip's translations.
    case strings
}

/// One content-addressed object: canonical JSON bytes, their SHA-256, and the objects it refers to.
public struct ContentObject: Sendable, Hashable {
    /// What the object is.
    public var kind: ObjectKind
    /// Its canonical JSON bytes.
    public var bytes: [UInt8]
    /// The SHA-256 of `bytes`: the object's address.
    public var digest: SHA256Digest
    /// The digests this object names (for tree objects), so a subtree can be stored or skipped as a whole.
    public var children: [SHA256Digest]

    /// An object holding `value`'s canonical bytes.
    public init(kind: ObjectKind, value: JSONValue, children: [SHA256Digest] = []) {
        self.init(kind: kind, bytes: value.canonicalBytes, children: children)
    }

    /// An object holding `bytes`.
    public init(kind: ObjectKind, bytes: [UInt8], children: [SHA256Digest] = []) {
        self.kind = kind
        self.bytes = bytes
        self.digest = SHA256.hash(bytes)
        self.children = children
    }
}

/// A catalog as a Merkle tree of content-addressed objects, git style.
///
/// The root (`catalog`) names the settings, parameters, events and groups pieces and the root of the tips
/// tree. The tips tree is a trie over the SHA-256 of each tip id: a leaf holds up to `leafCapacity` tips;
/// a fuller one splits into up to 16 children by the next hex digit of that hash. The shape depends only
/// on the set of tip ids, so equal catalogs give equal trees, and editing one tip changes one tip object,
/// one leaf and the nodes above it — a few kilobytes, however large the catalog.
///
/// The root's digest is the catalog's **content hash**.
public struct ContentTree: Sendable {
    /// The most tips a leaf holds before it splits.
    public static let leafCapacity = 32

    /// The root object's digest: the content hash.
    public var root: SHA256Digest
    /// Every object of the tree by digest.
    public var objects: [SHA256Digest: ContentObject]

    /// The tree of `catalog`; pieces are encoded and hashed on every core.
    public init(catalog: Catalog) {
        let owners = ContentTree.ownersByTipKeys(catalog) ?? ContentTree.ownersByGrouping(catalog)
        let pieces = CatalogPieces(
            settings: CatalogCodec.encode(catalog.settings), parameters: .array(catalog.parameters.map(CatalogCodec.encode)),
            events: .array(catalog.events.map(CatalogCodec.encode)), groups: .array(catalog.groups.map(CatalogCodec.encode)),
            owners: [:])
        self.init(pieces: pieces, owners: owners)
    }

    /// The usual case, fully parallel: every translation key is one a tip names (`<TipID>.title`, `.message`,
    /// `.customID`, `.action.<id>`), so each tip finds its own keys. Nil when some key belongs to no tip's
    /// list, so the slower grouping below must place it.
    static func ownersByTipKeys(_ catalog: Catalog) -> [OwnerObjects]? {
        let tips = catalog.tips
        let entries = catalog.localizations.entries
        guard Set(tips.map(\.id)).count == tips.count else { return nil }
        let chunks = concurrentChunks(count: tips.count, chunkSize: 64) { range in
            var claimed = 0
            let owners = range.map { index -> OwnerObjects in
                let tip = tips[index]
                let id = tip.id.rawValue
                var keys = tip.localizableTexts.map(\.key)
                keys.append(id + ".customID")
                var found: [(String, LocalizationTable.Entry)] = []
                for key in keys {
                    if let entry = entries[key] { found.append((key, entry)) }
                }
                claimed += found.count
                found.sort { $0.0.precedesCanonically($1.0) }
                return OwnerObjects(
                    name: id, tipBytes: CatalogCodec.tipBytes(tip), stringsBytes: found.isEmpty ? nil : CatalogCodec.stringsBytes(found),
                    republish: tip.republish.rawValue)
            }
            return (owners, claimed)
        }
        guard chunks.reduce(0, { $0 + $1.1 }) == entries.count else { return nil }
        return chunks.flatMap(\.0)
    }

    /// Any catalog: translations grouped by owner first.
    static func ownersByGrouping(_ catalog: Catalog) -> [OwnerObjects] {
        let strings = CatalogCodec.stringsByOwner(catalog.localizations)
        var tipIndex: [String: Int] = [:]
        tipIndex.reserveCapacity(catalog.tips.count)
        for (index, tip) in catalog.tips.enumerated() where tipIndex[tip.id.rawValue] == nil { tipIndex[tip.id.rawValue] = index }
        let names = Set(tipIndex.keys).union(strings.keys).sorted()
        let tips = catalog.tips
        return concurrentChunks(count: names.count, chunkSize: 64) { [tipIndex] range in
            range.map { index -> OwnerObjects in
                let name = names[index]
                let tip = tipIndex[name].map { tips[$0] }
                return OwnerObjects(
                    name: name, tipBytes: tip.map(CatalogCodec.tipBytes), stringsBytes: strings[name].map(CatalogCodec.stringsBytes),
                    republish: tip?.republish.rawValue)
            }
        }.flatMap { $0 }
    }

    /// The tree of a catalog given as pieces (a decoded bundle), to check its content hash.
    public init(pieces: CatalogPieces) {
        let names = pieces.owners.keys.sorted()
        let owners = concurrentChunks(count: names.count, chunkSize: 64) { range in
            range.map { index -> OwnerObjects in
                let owner = pieces.owners[names[index]] ?? CatalogPieces.Owner()
                return OwnerObjects(name: names[index], tip: owner.tip, strings: owner.strings, republish: owner.republish)
            }
        }.flatMap { $0 }
        self.init(pieces: pieces, owners: owners)
    }

    private init(pieces: CatalogPieces, owners: [OwnerObjects]) {
        var objects: [SHA256Digest: ContentObject] = [:]
        objects.reserveCapacity(owners.count * 2 + 64)
        func add(_ object: ContentObject) -> SHA256Digest {
            objects[object.digest] = object
            return object.digest
        }
        let settings = add(ContentObject(kind: .settings, value: pieces.settings))
        let parameters = add(ContentObject(kind: .parameters, value: pieces.parameters))
        let events = add(ContentObject(kind: .events, value: pieces.events))
        let groups = add(ContentObject(kind: .groups, value: pieces.groups))
        for owner in owners {
            if let tip = owner.tipObject { _ = add(tip) }
            if let strings = owner.stringsObject { _ = add(strings) }
        }
        let tips = ContentTree.trie(owners, depth: 0, add: add)
        let root = ContentObject(
            kind: .catalog,
            value: .object([
                ("events", .string(events.hex)),
                ("format", .string(CatalogPieces.formatName)),
                ("formatVersion", .int(CatalogPieces.formatVersion)),
                ("groups", .string(groups.hex)),
                ("parameters", .string(parameters.hex)),
                ("settings", .string(settings.hex)),
                ("tips", .string(tips.hex)),
            ]),
            children: [settings, parameters, events, groups, tips])
        self.root = add(root)
        self.objects = objects
    }

    private static func trie(_ owners: [OwnerObjects], depth: Int, add: (ContentObject) -> SHA256Digest) -> SHA256Digest {
        if owners.count <= leafCapacity || depth >= 64 {
            var children: [SHA256Digest] = []
            let entries: [(String, JSONValue)] = owners.map { owner in
                children.append(contentsOf: [owner.tipObject?.digest, owner.stringsObject?.digest].compactMap { $0 })
                return (owner.name, owner.entry)
            }
            return add(ContentObject(kind: .leaf, value: .object([("leaf", .object(entries))]), children: children))
        }
        var buckets: [[OwnerObjects]] = Array(repeating: [], count: 16)
        for owner in owners { buckets[owner.nameHash.nibble(depth)].append(owner) }
        var members: [(String, JSONValue)] = []
        var children: [SHA256Digest] = []
        for (nibble, bucket) in buckets.enumerated() where !bucket.isEmpty {
            let child = trie(bucket, depth: depth + 1, add: add)
            members.append((String(nibble, radix: 16), .string(child.hex)))
            children.append(child)
        }
        return add(ContentObject(kind: .node, value: .object([("node", .object(members))]), children: children))
    }
}

/// One owner's objects and its leaf entry.
struct OwnerObjects: Sendable {
    var name: String
    var nameHash: SHA256Digest
    var tipObject: ContentObject?
    var stringsObject: ContentObject?
    var republish: String?

    init(name: String, tip: JSONValue?, strings: JSONValue?, republish: String?) {
        self.init(name: name, tipBytes: tip?.canonicalBytes, stringsBytes: strings?.canonicalBytes, republish: republish)
    }

    init(name: String, tipBytes: [UInt8]?, stringsBytes: [UInt8]?, republish: String?) {
        self.name = name
        self.nameHash = SHA256.hash(name)
        self.tipObject = tipBytes.map { ContentObject(kind: .tip, bytes: $0) }
        self.stringsObject = stringsBytes.map { ContentObject(kind: .strings, bytes: $0) }
        self.republish = republish
    }

    /// `{"republish": …, "strings": hash, "tip": hash}`, absent parts left out.
    var entry: JSONValue {
        var pairs: [(String, JSONValue)] = []
        if let republish { pairs.append(("republish", .string(republish))) }
        if let stringsObject { pairs.append(("strings", .string(stringsObject.digest.hex))) }
        if let tipObject { pairs.append(("tip", .string(tipObject.digest.hex))) }
        return .object(pairs)
    }
}
