import TipcatCore
import TipcatJSON
public import TipcatCodec

/// One difference between two catalog versions: per tip, per field, per locale.
public struct CatalogChange: Sendable, Hashable {
    /// Added, removed or changed.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case added, removed, changed
    }

    /// What part of the catalog changed, in the order diffs are printed.
    public enum Area: String, Sendable, Hashable, CaseIterable, Comparable {
        case settings, parameter, event, group, tip, translation

        public static func < (lhs: Area, rhs: Area) -> Bool { lhs.rank < rhs.rank }

        /// The area's place in `allCases` (the order areas are listed in).
        var rank: Int {
            switch self {
            case .settings: 0
            case .parameter: 1
            case .event: 2
            case .group: 3
            case .tip: 4
            case .translation: 5
            }
        }
    }

    /// Added, removed or changed.
    public var kind: Kind
    /// The part of the catalog.
    public var area: Area
    /// The tip id, parameter name, event id, group id or String Catalog key; empty for settings.
    public var subject: String
    /// The field that changed (`message`, `options.maxDisplayCount`, `actions[go-there].title`); nil when the
    /// whole subject was added or removed, or for a translation's text.
    public var field: String?
    /// For translations: the locale.
    public var locale: String?
    /// The old value as JSON text (strings quoted), nil when added.
    public var old: String?
    /// The new value as JSON text, nil when removed.
    public var new: String?

    /// A change; `field`, `locale`, `old` and `new` as they apply.
    public init(
        _ kind: Kind, _ area: Area, subject: String, field: String? = nil, locale: String? = nil, old: String? = nil,
        new: String? = nil
    ) {
        self.kind = kind
        self.area = area
        self.subject = subject
        self.field = field
        self.locale = locale
        self.old = old
        self.new = new
    }
}

/// Every difference between two catalog versions, in print order.
public struct CatalogDiff: Sendable, Hashable {
    /// The changes, sorted by area, subject and field.
    public var changes: [CatalogChange]
    /// Tips added, removed or changed (definition, translations or republish policy).
    public var changedTips: [String]
    /// Tips whose definition changed with republish policy `reset`.
    public var resets: [String]
    /// Whether the old side is the empty catalog (a first version).
    public var isInitial: Bool

    /// Whether the two versions have the same content.
    public var isEmpty: Bool { changes.isEmpty }

    /// The differences between two roots of `reader`'s objects (nil: before the first version).
    public init(from oldRoot: SHA256Digest?, to newRoot: SHA256Digest?, reader: TreeReader) throws(StoreError) {
        let tree = try TreeDiff(from: oldRoot, to: newRoot, reader: reader)
        var changes: [CatalogChange] = []
        let old = tree.old
        let new = tree.new
        func pieceJSON(_ digest: SHA256Digest?) throws(StoreError) -> JSONValue? {
            try digest.map { (digest) throws(StoreError) in try reader.json(digest) }
        }
        if old?.settings != new?.settings {
            changes += DiffBuilder.fields(try pieceJSON(old?.settings), try pieceJSON(new?.settings), area: .settings, subject: "")
        }
        let keyed: [(KeyPath<RootManifest, SHA256Digest>, CatalogChange.Area, String)] = [
            (\.parameters, .parameter, "name"), (\.events, .event, "id"), (\.groups, .group, "id"),
        ]
        for (path, area, key) in keyed where old?[keyPath: path] != new?[keyPath: path] {
            changes += DiffBuilder.keyedList(
                try pieceJSON(old?[keyPath: path]), try pieceJSON(new?[keyPath: path]), area: area, key: key)
        }
        var owned = try CatalogDiff.ownerChanges(tree.owners, reader: reader)
        changes.appendMoving(&owned)
        CatalogDiff.sort(&changes)
        self.changes = changes
        self.changedTips = tree.changedTips
        self.resets = tree.resets
        self.isInitial = oldRoot == nil
    }

    /// The changes of each owner whose entry differs: its objects read a batch of owners at a time (a source may
    /// be one database connection, and a first version's objects are the whole catalog's), then checked, parsed
    /// and compared on every core. Batches are small: a first version's owners are all added, and a batch's
    /// objects and their parsed forms are what the diff holds at once.
    static func ownerChanges(_ owners: [TreeDiff.OwnerChange], reader: TreeReader) throws(StoreError) -> [CatalogChange] {
        // Each chunk's changes, joined once at the end (a first version's are a hundred thousand).
        var parts: [[CatalogChange]] = []
        var start = 0
        while start < owners.count {
            let batch = Array(owners[start..<min(owners.count, start + 128)])
            // Only the objects that differ are read: a tip or a translations object the two sides share is not, nor
            // those of an owner added whole that the source outlines (a tree just made from the catalog), whose
            // changes are made from the outlines on every core.
            var outlined: [Int: AddedOutline] = [:]
            var wanted: [SHA256Digest] = []
            for (index, owner) in batch.enumerated() {
                if let outline = addedOutline(owner, source: reader.source) {
                    outlined[index] = outline
                    continue
                }
                if owner.old?.tip != owner.new?.tip { wanted += [owner.old?.tip, owner.new?.tip].compactMap(\.self) }
                if owner.old?.strings != owner.new?.strings { wanted += [owner.old?.strings, owner.new?.strings].compactMap(\.self) }
            }
            let fetched = try reader.source.bytes(of: wanted)
            let known = outlined
            let results = concurrentChunks(count: batch.count, chunkSize: 32) { range in
                Result { () throws(StoreError) -> [CatalogChange] in
                    var changes: [CatalogChange] = []
                    for index in range {
                        if let outline = known[index] {
                            addedChanges(batch[index].name, outline, into: &changes)
                        } else {
                            changes += try ownerChanges(batch[index], fetched: fetched)
                        }
                    }
                    return changes
                }
            }
            for result in results { parts.append(try result.get()) }
            start += batch.count
        }
        return parts.joinedArrays()
    }

    /// What an owner added whole shows: its tip's title and its translations' keys, when it has them.
    struct AddedOutline: Sendable {
        var title: String?
        var keys: [ObjectOutline.Key]?
    }

    /// The outline of an owner added whole whose objects `source` outlines; nil for any other owner.
    static func addedOutline(_ owner: TreeDiff.OwnerChange, source: any ObjectSource) -> AddedOutline? {
        guard owner.old == nil, let new = owner.new else { return nil }
        var outline = AddedOutline()
        if let tip = new.tip {
            guard case .tip(let title)? = source.outline(of: tip) else { return nil }
            outline.title = title
        }
        if let strings = new.strings {
            guard case .strings(let keys)? = source.outline(of: strings) else { return nil }
            outline.keys = keys
        }
        return outline
    }

    /// Appends the changes of the owner `name` added whole to `changes`, from its outline, as
    /// `ownerChanges(_:fetched:)` makes them from the objects.
    static func addedChanges(_ name: String, _ outline: AddedOutline, into changes: inout [CatalogChange]) {
        if let title = outline.title { changes.append(CatalogChange(.added, .tip, subject: name, new: DiffBuilder.headline(title))) }
        if let keys = outline.keys { DiffBuilder.addedKeys(keys, into: &changes) }
    }

    /// One owner's changes, its objects among `fetched`.
    private static func ownerChanges(_ owner: TreeDiff.OwnerChange, fetched: [SHA256Digest: [UInt8]]) throws(StoreError) -> [CatalogChange] {
        func piece(_ digest: SHA256Digest?) throws(StoreError) -> JSONValue? {
            try digest.map { (digest) throws(StoreError) in try TreeReader.json(digest, fetched[digest]) }
        }
        var changes: [CatalogChange] = []
        if owner.old?.tip != owner.new?.tip {
            changes += DiffBuilder.subject(try piece(owner.old?.tip), try piece(owner.new?.tip), area: .tip, subject: owner.name, dropping: "id")
        }
        if owner.old?.tip != nil, owner.new?.tip != nil, owner.old?.republish != owner.new?.republish {
            changes.append(CatalogChange(
                .changed, .tip, subject: owner.name, field: "republish",
                old: owner.old?.republish.map { JSONValue.string($0).serialized() },
                new: owner.new?.republish.map { JSONValue.string($0).serialized() }))
        }
        if owner.old?.strings != owner.new?.strings {
            changes += DiffBuilder.translations(try piece(owner.old?.strings), try piece(owner.new?.strings))
        }
        return changes
    }

    /// Sorts `changes` by `order`: split by area first, keeping their order, then each area sorted in place. The
    /// owners' changes come by owner name and each owner's sorted, so an area's are mostly in order already, in long
    /// runs the sort merges in one pass (a first version's hundred thousand changes sorted whole, interleaved, took
    /// 0.2 s). The same order as sorting them whole: `order` compares the area first, and the sort is stable. The
    /// changes are moved between the arrays, never copied (a first version's are the whole catalog's keys: a copy
    /// of each, retaining its strings, and the release of the originals took more time than the sort).
    static func sort(_ changes: inout [CatalogChange]) {
        var areas = Array(repeating: [CatalogChange](), count: CatalogChange.Area.allCases.count)
        // Taken from the end, so each area's changes come last first: reversed back.
        while let change = changes.popLast() { areas[change.area.rank].append(change) }
        for index in areas.indices {
            areas[index].reverseMoving()
            areas[index].sort(by: order)
            changes.appendMoving(&areas[index])
        }
    }

    static func order(_ lhs: CatalogChange, _ rhs: CatalogChange) -> Bool {
        if lhs.area != rhs.area { return lhs.area < rhs.area }
        if lhs.subject != rhs.subject { return lhs.subject < rhs.subject }
        let left = (lhs.field == nil ? 0 : 1, lhs.field ?? "", lhs.locale ?? "")
        let right = (rhs.field == nil ? 0 : 1, rhs.field ?? "", rhs.locale ?? "")
        return left < right
    }
}
