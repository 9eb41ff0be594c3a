public import TipcatCatalog
public import TipcatCore
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
    /// The objects of the tree by digest, except those `object(_:)` makes when asked (see `init(catalog:memo:)`).
    public var objects: [SHA256Digest: ContentObject]
    /// Objects known by digest from a memo, by the index of the tip whose objects they are in `catalog`.
    private var deferred: [SHA256Digest: Int] = [:]
    private var catalog: Catalog?
    /// What a diff shows of the objects made from the catalog, by digest (not those known from a memo).
    private var outlines: [SHA256Digest: ObjectOutline] = [:]
    /// The objects given to `store` as they were made (`init(catalog:memo:storing:)`).
    private var stored: Set<SHA256Digest> = []
    /// What a later `init(catalog:memo:)` may reuse: each tip's objects by its key (nil without keys).
    public private(set) var memo: OwnerObjectsMemo?

    /// The tree of `catalog`; pieces are encoded and hashed on every core.
    ///
    /// With `memo` (its `keys` one per tip, in `catalog.tips` order: a digest of everything a tip's objects
    /// are made from), a tip whose key the memo's `records` hold is not encoded again: its objects are known by
    /// digest, and made from the catalog only when `object(_:)` is asked for them (a store that lacks them).
    public init(catalog: Catalog, memo: OwnerObjectsMemo? = nil) {
        let owners = ContentTree.ownersByTipKeys(catalog, memo: memo) ?? ContentTree.ownersByGrouping(catalog)
        self.init(catalog: catalog, memo: memo, owners: owners)
    }

    /// `init(catalog:memo:)`, each tip's objects given to `store` as they are made (a batch at a time, the next
    /// batch made on every core meanwhile) and then kept by digest only: a catalog's tips and translations never
    /// all wait in memory. `store` must keep them: `object(_:)` cannot make them again (a memo's are, as above).
    public init(catalog: Catalog, memo: OwnerObjectsMemo? = nil, storing store: ([ContentObject]) throws -> Void) throws {
        try self.init(catalog: catalog, memo: memo, batch: 128 * onlineCores, storing: store)
    }

    /// `init(catalog:memo:storing:)`, `batch` tips at a time. Each batch is made on every core while the one before
    /// is stored on another thread; `store` is called once at a time, in order, never while another call runs.
    init(catalog: Catalog, memo: OwnerObjectsMemo?, batch: Int, storing store: ([ContentObject]) throws -> Void) throws {
        let maker = ContentTree.ownerMaker(catalog, memo: memo)
        var owners: [OwnerObjects] = []
        owners.reserveCapacity(maker.count)
        let batch = max(1, batch)
        try withoutActuallyEscaping(store) { escapable in try withUnsafePointer(to: escapable) { pointer in
            // Called from one other thread at a time, each call waited for before the next starts or this returns. The
            // work reaches the closure through a pointer: no block that outlives a call holds on to it.
            nonisolated(unsafe) let store = pointer
            var storing: BackgroundValue<(any Error)?>?
            var start = 0
            while start < maker.count {
                let (first, end) = (start, min(start + batch, maker.count))
                var made = concurrentChunks(count: end - first, chunkSize: 32) { chunk in chunk.map { maker.make(first + $0) } }
                    .joinedArrays()
                if let error = storing?.value { throw error }
                let objects = made.flatMap { [$0.tipObject, $0.stringsObject].compactMap(\.self) }
                storing = BackgroundValue {
                    do {
                        try store.pointee(objects)
                        return nil
                    } catch {
                        return error
                    }
                }
                for index in made.indices { made[index].keepDigestsOnly() }
                owners += made
                start = end
            }
            if let error = storing?.value { throw error }
        } }
        self.init(catalog: catalog, memo: memo, owners: owners)
        stored.reserveCapacity(2 * owners.count)
        for owner in owners where owner.isStored {
            if let tip = owner.tip { stored.insert(tip) }
            if let strings = owner.strings { stored.insert(strings) }
        }
    }

    /// Whether the object `digest` was given to `store` as the tree was made (`init(catalog:memo:storing:)`): a
    /// store that kept them has it, without being asked.
    public func wasStored(_ digest: SHA256Digest) -> Bool { stored.contains(digest) }

    private init(catalog: Catalog, memo: OwnerObjectsMemo?, owners: [OwnerObjects]) {
        let pieces = CatalogPieces(
            settings: CatalogCodec.encode(catalog.settings), parameters: .array(catalog.parameters.map(CatalogCodec.encode)),
            events: .array(catalog.events.map(CatalogCodec.encode)), groups: .array(catalog.groups.map(CatalogCodec.encode)),
            owners: [:])
        self.init(pieces: pieces, owners: owners)
        if let memo, owners.count == memo.keys.count, owners.allSatisfy({ $0.tipIndex != nil }) {
            var records: [ByteKey: OwnerObjectsMemo.Record] = [:]
            records.reserveCapacity(owners.count)
            deferred.reserveCapacity(2 * owners.count)
            for owner in owners {
                guard let index = owner.tipIndex else { continue }
                records[memo.keys[index]] = OwnerObjectsMemo.Record(
                    name: owner.name, tip: owner.tip, strings: owner.strings, republish: owner.republish, keysFound: owner.keysFound)
                // Known from the memo: made again if asked for. Stored as they were made: the store has them.
                guard !owner.isStored else { continue }
                if let tip = owner.knownTip { deferred[tip] = index }
                if let strings = owner.knownStrings { deferred[strings] = index }
            }
            self.memo = OwnerObjectsMemo(keys: memo.keys, records: records)
            if !deferred.isEmpty { self.catalog = catalog }
        }
    }

    /// The object with `digest`: from `objects`, or made again from the catalog for a tip the memo knew. Nil when
    /// the tree has no such object (or a memo named a digest its tip no longer makes: never trusted).
    public func object(_ digest: SHA256Digest) -> ContentObject? {
        if let object = objects[digest] { return object }
        guard let index = deferred[digest], let catalog else { return nil }
        let owner = ContentTree.owner(catalog, index: index, entries: catalog.localizations.entries).owner
        return [owner.tipObject, owner.stringsObject].compactMap { $0 }.first { $0.digest == digest }
    }

    /// What a diff shows of the object `digest` when it is added whole: known for the objects made from the catalog
    /// (stored or not), nil for others (a memo's, a bundle's, the tree's own nodes).
    public func outline(_ digest: SHA256Digest) -> ObjectOutline? { outlines[digest] }

    /// How to make each owner of `catalog` by index, and how many there are: by tip when every translation key is
    /// one a tip names (`ownersByTipKeys`), else grouped by key (`ownersByGrouping`); which is found first, without
    /// encoding anything.
    struct OwnerMaker: Sendable {
        var count: Int
        var make: @Sendable (Int) -> OwnerObjects
    }

    static func ownerMaker(_ catalog: Catalog, memo: OwnerObjectsMemo?) -> OwnerMaker {
        let tips = catalog.tips
        let entries = catalog.localizations.entries
        let memo = memo.flatMap { $0.keys.count == tips.count ? $0 : nil }
        if tipsNameDistinctKeys(tips) {
            let claimed = concurrentChunks(count: tips.count, chunkSize: 256) { range in
                range.reduce(0) { total, index in
                    if let memo, let record = memo.records[memo.keys[index]], record.name == tips[index].id.rawValue {
                        return total + record.keysFound
                    }
                    var found = 0
                    // Looked up without reading the entry out (a copy, retaining all it holds, for each key).
                    forEachKey(of: tips[index]) { key in if entries.index(forKey: key) != nil { found += 1 } }
                    return total + found
                }
            }.reduce(0, +)
            if claimed == entries.count {
                return OwnerMaker(count: tips.count) { index in tipOwner(catalog, index: index, entries: entries, memo: memo).owner }
            }
        }
        var tipIndex: [String: Int] = [:]
        tipIndex.reserveCapacity(tips.count)
        for (index, tip) in tips.enumerated() where tipIndex[tip.id.rawValue] == nil { tipIndex[tip.id.rawValue] = index }
        let strings = CatalogCodec.stringsByOwner(catalog.localizations, tipIDs: Set(tipIndex.keys))
        let names = Set(tipIndex.keys).union(strings.keys).sorted()
        return OwnerMaker(count: names.count) { [tipIndex] index in
            let name = names[index]
            return OwnerObjects(name: name, tip: tipIndex[name].map { tips[$0] }, strings: strings[name])
        }
    }

    /// Whether no two tips can name one translation key, so that counting each tip's keys the String Catalog has
    /// counts each entry once (the tips claim every entry when the counts add up to the entries'). A tip's keys are
    /// its id, a dot and a suffix (`title`, `action.<id>`, `mac.title`…), so two tips can share one only when their
    /// ids are equal or one is the other's up to a dot: `NewTrailTip`'s action `title` and the tip
    /// `NewTrailTip.action`'s title are both `NewTrailTip.action.title`. Such catalogs (ids are rarely dotted) take
    /// the grouping by key, where every entry has exactly one owner.
    static func tipsNameDistinctKeys(_ tips: [Tip]) -> Bool {
        let ids = Set(tips.map(\.id.rawValue))
        return ids.count == tips.count && !ids.contains { IdentifierSyntax.startsWithDottedPrefix($0, in: ids) }
    }

    /// A tip's translation keys: its texts' and its custom ID's.
    static func forEachKey(of tip: Tip, _ body: (String) -> Void) {
        tip.forEachLocalizableKey(body)
        body(tip.id.rawValue + ".customID")
    }

    /// The owner of the tip at `index`: known from the memo (neither encoded nor its keys looked up again), or
    /// made; with how many translation keys it has.
    static func tipOwner(
        _ catalog: Catalog, index: Int, entries: [String: LocalizationTable.Entry], memo: OwnerObjectsMemo?
    ) -> (owner: OwnerObjects, claimed: Int) {
        let tips = catalog.tips
        if let memo, let record = memo.records[memo.keys[index]], record.name == tips[index].id.rawValue {
            var owner = OwnerObjects(name: record.name, knownTip: record.tip, knownStrings: record.strings, republish: record.republish)
            owner.tipIndex = index
            owner.keysFound = record.keysFound
            return (owner, record.keysFound)
        }
        return owner(catalog, index: index, entries: entries)
    }

    /// The usual case, fully parallel: every translation key is one a tip names (`<TipID>.title`, `.message`,
    /// `.customID`, `.action.<id>`), so each tip finds its own keys. Nil when some key belongs to no tip's
    /// list, so the slower grouping below must place it.
    static func ownersByTipKeys(_ catalog: Catalog, memo: OwnerObjectsMemo? = nil) -> [OwnerObjects]? {
        let tips = catalog.tips
        let entries = catalog.localizations.entries
        guard tipsNameDistinctKeys(tips) else { return nil }
        let memo = memo.flatMap { $0.keys.count == tips.count ? $0 : nil }
        let chunks = concurrentChunks(count: tips.count, chunkSize: 64) { range in
            var claimed = 0
            let owners = range.map { index -> OwnerObjects in
                let (owner, found) = tipOwner(catalog, index: index, entries: entries, memo: memo)
                claimed += found
                return owner
            }
            return (owners, claimed)
        }
        guard chunks.reduce(0, { $0 + $1.1 }) == entries.count else { return nil }
        return chunks.map(\.0).joinedArrays()
    }

    /// The objects of the tip at `index`, and how many translation keys it has.
    static func owner(_ catalog: Catalog, index: Int, entries: [String: LocalizationTable.Entry]) -> (owner: OwnerObjects, claimed: Int) {
        let tip = catalog.tips[index]
        let id = tip.id.rawValue
        var found: [(String, LocalizationTable.Entry)] = []
        forEachKey(of: tip) { key in if let entry = entries[key] { found.append((key, entry)) } }
        found.sort { $0.0.precedesCanonically($1.0) }
        var owner = OwnerObjects(name: id, tip: tip, strings: found.isEmpty ? nil : found)
        owner.tipIndex = index
        owner.keysFound = found.count
        return (owner, found.count)
    }

    /// Any catalog: translations grouped by owner first.
    static func ownersByGrouping(_ catalog: Catalog) -> [OwnerObjects] {
        let maker = ownerMaker(catalog, memo: nil)
        return concurrentChunks(count: maker.count, chunkSize: 64) { range in range.map(maker.make) }.joinedArrays()
    }

    /// The tree of a catalog given as pieces (a decoded bundle), to check its content hash.
    public init(pieces: CatalogPieces) {
        let names = pieces.owners.keys.sorted()
        let owners = concurrentChunks(count: names.count, chunkSize: 64) { range in
            range.map { index -> OwnerObjects in
                let owner = pieces.owners[names[index]] ?? CatalogPieces.Owner()
                return OwnerObjects(name: names[index], tip: owner.tip, strings: owner.strings, republish: owner.republish)
            }
        }.joinedArrays()
        self.init(pieces: pieces, owners: owners)
    }

    private init(pieces: CatalogPieces, owners: [OwnerObjects]) {
        var objects: [SHA256Digest: ContentObject] = [:]
        objects.reserveCapacity(owners.count * 2 + 64)
        var outlines: [SHA256Digest: ObjectOutline] = [:]
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
            if let tip = owner.tip, let outline = owner.tipOutline { outlines[tip] = outline }
            if let strings = owner.strings, let outline = owner.stringsOutline { outlines[strings] = outline }
        }
        // The tips tree's nodes and leaves are outlined too: a diff against an empty side reads them back otherwise.
        let tips = ContentTree.trie(owners, depth: 0) { object, outline in
            outlines[object.digest] = outline
            return add(object)
        }
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
        self.outlines = outlines
    }

    /// The tips trie over `owners`, each object made given to `add`. `spreads`: the top node's subtrees are made
    /// on every core (the same objects and digests as made one after another).
    static func trie(
        _ owners: [OwnerObjects], depth: Int, spreads: Bool = true, add: (ContentObject, ObjectOutline) -> SHA256Digest
    ) -> SHA256Digest {
        if owners.count <= leafCapacity || depth >= 64 {
            var children: [SHA256Digest] = []
            children.reserveCapacity(owners.count * 2)
            for owner in owners { children.append(contentsOf: [owner.tip, owner.strings].compactMap { $0 }) }
            let (bytes, outline) = leaf(owners)
            return add(ContentObject(kind: .leaf, bytes: bytes, children: children), outline)
        }
        var buckets: [[OwnerObjects]] = Array(repeating: [], count: 16)
        for owner in owners { buckets[owner.nameHash.nibble(depth)].append(owner) }
        var subtrees: [(nibble: Int, digest: SHA256Digest)] = []
        if spreads && depth == 0 && owners.count > 16 * leafCapacity {
            // The top node's sixteen subtrees are made on every core, each keeping its objects, added after.
            let filled = buckets
            let made = concurrentChunks(count: 16, chunkSize: 1) { range in
                range.map { nibble -> (digest: SHA256Digest, objects: [(ContentObject, ObjectOutline)])? in
                    guard !filled[nibble].isEmpty else { return nil }
                    var objects: [(ContentObject, ObjectOutline)] = []
                    let digest = trie(filled[nibble], depth: depth + 1) { object, outline in
                        objects.append((object, outline))
                        return object.digest
                    }
                    return (digest, objects)
                }
            }.joinedArrays()
            for (nibble, subtree) in made.enumerated() {
                guard let subtree else { continue }
                for (object, outline) in subtree.objects { _ = add(object, outline) }
                subtrees.append((nibble, subtree.digest))
            }
        } else {
            for (nibble, bucket) in buckets.enumerated() where !bucket.isEmpty {
                subtrees.append((nibble, trie(bucket, depth: depth + 1, spreads: spreads, add: add)))
            }
        }
        var children: [Int: SHA256Digest] = [:]
        for subtree in subtrees { children[subtree.nibble] = subtree.digest }
        return add(ContentObject(kind: .node, bytes: nodeBytes(subtrees), children: subtrees.map(\.digest)), .node(children))
    }

    /// `{"leaf":{name: {"republish": …, "strings": hash, "tip": hash}, …}}` (absent parts left out) in canonical form
    /// (the entries in their names' UTF-8 order, equal names in the owners' order), written directly, without making
    /// JSON values and their texts for each of a catalog's tens of thousands of tips on every publish; and the leaf's
    /// outline: its entries as a reader of those bytes finds them.
    static func leaf(_ owners: [OwnerObjects]) -> (bytes: [UInt8], outline: ObjectOutline) {
        let order = JSONValue.canonicalOrder(count: owners.count) { owners[$0].name }
        var w = CanonicalWriter(capacity: 16 + owners.count * 180)
        var items: [String: LeafEntry] = [:]
        items.reserveCapacity(owners.count)
        w.raw("{\"leaf\":{")
        for (position, index) in order.enumerated() {
            let owner = owners[index]
            items[owner.name] = LeafEntry(tip: owner.tip, strings: owner.strings, republish: owner.republish)
            w.key(owner.name, first: position == 0)
            w.byte(UInt8(ascii: "{"))
            var members = CanonicalWriter.Members()
            if let republish = owner.republish {
                members.key("republish", in: &w)
                w.string(republish)
            }
            if let strings = owner.strings {
                members.key("strings", in: &w)
                w.hexString(strings)
            }
            if let tip = owner.tip {
                members.key("tip", in: &w)
                w.hexString(tip)
            }
            w.byte(UInt8(ascii: "}"))
        }
        w.raw("}}")
        return (w.bytes, .leaf(items))
    }

    /// `{"node":{nibble: digest, …}}` in canonical form (`subtrees` in nibble order: `0`…`9` before `a`…`f`).
    static func nodeBytes(_ subtrees: [(nibble: Int, digest: SHA256Digest)]) -> [UInt8] {
        var w = CanonicalWriter(capacity: 16 + subtrees.count * 72)
        w.raw("{\"node\":{")
        for (position, subtree) in subtrees.enumerated() {
            if position > 0 { w.byte(UInt8(ascii: ",")) }
            w.byte(UInt8(ascii: "\""))
            w.byte(SHA256Digest.hexDigit(subtree.nibble))
            w.raw("\":")
            w.hexString(subtree.digest)
        }
        w.raw("}}")
        return w.bytes
    }
}

/// One owner's objects and its leaf entry.
struct OwnerObjects: Sendable {
    var name: String
    var nameHash: SHA256Digest
    var tipObject: ContentObject?
    var stringsObject: ContentObject?
    /// The objects' digests when a memo knows them and they are not made.
    var knownTip: SHA256Digest?
    var knownStrings: SHA256Digest?
    var republish: String?
    /// What a diff shows of the objects, when they were made from the catalog (kept once they are stored).
    var tipOutline: ObjectOutline?
    var stringsOutline: ObjectOutline?
    /// The index of the owner's tip in the catalog, for a tip's own objects (not a grouping's).
    var tipIndex: Int?
    /// How many of its tip's translation keys the String Catalog has (a tip's own objects).
    var keysFound = 0

    /// An owner known from a memo: digests only.
    init(name: String, knownTip: SHA256Digest?, knownStrings: SHA256Digest?, republish: String?) {
        self.name = name
        self.nameHash = SHA256.hash(name)
        self.knownTip = knownTip
        self.knownStrings = knownStrings
        self.republish = republish
    }

    /// Whether the objects were made and stored (`keepDigestsOnly()`).
    private(set) var isStored = false

    /// The objects, once stored, kept by digest only (as a memo's are). Nothing for an owner known from a memo,
    /// whose objects were not made (nor stored).
    mutating func keepDigestsOnly() {
        guard tipObject != nil || stringsObject != nil else { return }
        knownTip = tip
        knownStrings = strings
        tipObject = nil
        stringsObject = nil
        isStored = true
    }

    /// The objects' digests, made or known.
    var tip: SHA256Digest? { tipObject?.digest ?? knownTip }
    var strings: SHA256Digest? { stringsObject?.digest ?? knownStrings }

    /// An owner made from the catalog: its tip's definition and its translations encoded, with their outlines.
    init(name: String, tip: Tip?, strings: [(String, LocalizationTable.Entry)]?) {
        self.init(
            name: name, tipBytes: tip.map(CatalogCodec.tipBytes), stringsBytes: strings.map(CatalogCodec.stringsBytes),
            republish: tip?.republish.rawValue)
        tipOutline = tip.map(ObjectOutline.tip)
        stringsOutline = strings.map(ObjectOutline.strings)
    }

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
}

/// What `ContentTree(catalog:memo:)` remembers of each tip's objects between publishes: for each tip (in the
/// catalog's order) a key — a digest of everything its objects are made from (its file, the String Catalog, the
/// settings and declarations, the set of tips) — and, by key, the objects' digests.
public struct OwnerObjectsMemo: Sendable, Hashable {
    public struct Record: Sendable, Hashable {
        public var name: String
        public var tip: SHA256Digest?
        public var strings: SHA256Digest?
        public var republish: String?
        /// How many of the tip's translation keys the String Catalog has (the same for as long as the record's key
        /// matches: the key covers the tip's file and the String Catalog).
        public var keysFound: Int

        public init(name: String, tip: SHA256Digest?, strings: SHA256Digest?, republish: String?, keysFound: Int) {
            self.name = name
            self.tip = tip
            self.strings = strings
            self.republish = republish
            self.keysFound = keysFound
        }
    }

    /// One per tip of the catalog the memo is used with, in order.
    public var keys: [ByteKey]
    /// What earlier trees made, by key.
    public var records: [ByteKey: Record]

    public init(keys: [ByteKey], records: [ByteKey: Record]) {
        self.keys = keys
        self.records = records
    }
}
