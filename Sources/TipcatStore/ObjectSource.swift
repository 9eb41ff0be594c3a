import TipcatCore
public import TipcatJSON
public import TipcatCodec

/// Where content-addressed objects can be read: a store, a freshly built tree, a bundle.
public protocol ObjectSource {
    /// The bytes stored under `digest`, or nil when there is no such object. Readers check the hash.
    func bytes(of digest: SHA256Digest) throws(StoreError) -> [UInt8]?
    /// The bytes of several objects (the missing ones left out). Sources that reach their objects over a
    /// network fetch them in a few round trips; the default reads them one by one.
    func bytes(of digests: [SHA256Digest]) throws(StoreError) -> [SHA256Digest: [UInt8]]
    /// What a diff shows of the object `digest` added or removed whole, when the source knows it without reading
    /// the object (a tree made from a catalog); nil otherwise, the default.
    func outline(of digest: SHA256Digest) -> ObjectOutline?
}

extension ObjectSource {
    public func bytes(of digests: [SHA256Digest]) throws(StoreError) -> [SHA256Digest: [UInt8]] {
        var found: [SHA256Digest: [UInt8]] = [:]
        found.reserveCapacity(digests.count)
        for digest in digests where found[digest] == nil {
            if let bytes = try bytes(of: digest) { found[digest] = bytes }
        }
        return found
    }

    public func outline(of digest: SHA256Digest) -> ObjectOutline? { nil }
}

extension ContentTree: ObjectSource {
    public func bytes(of digest: SHA256Digest) throws(StoreError) -> [UInt8]? { object(digest)?.bytes }
    public func outline(of digest: SHA256Digest) -> ObjectOutline? { outline(digest) }
}

/// Objects from a built tree first, then from a store: the working catalog next to published versions.
public struct LayeredObjectSource: ObjectSource {
    /// The sources, asked in order.
    public var layers: [any ObjectSource]
    /// A source that asks `layers` in order.
    public init(_ layers: [any ObjectSource]) { self.layers = layers }
    public func bytes(of digest: SHA256Digest) throws(StoreError) -> [UInt8]? {
        for layer in layers {
            if let bytes = try layer.bytes(of: digest) { return bytes }
        }
        return nil
    }

    public func outline(of digest: SHA256Digest) -> ObjectOutline? {
        for layer in layers {
            if let outline = layer.outline(of: digest) { return outline }
        }
        return nil
    }

    /// Each layer asked once, in order, for the objects the layers before it lacked, with its own batch read (a
    /// store over a network answers thousands of them in a few round trips, not one each).
    public func bytes(of digests: [SHA256Digest]) throws(StoreError) -> [SHA256Digest: [UInt8]] {
        var found: [SHA256Digest: [UInt8]] = [:]
        found.reserveCapacity(digests.count)
        var missing = digests
        for layer in layers where !missing.isEmpty {
            for (digest, bytes) in try layer.bytes(of: missing) where found[digest] == nil { found[digest] = bytes }
            missing.removeAll { found[$0] != nil }
        }
        return found
    }
}

/// The digests a version's root object names.
public struct RootManifest: Sendable, Hashable {
    /// The settings piece.
    public var settings: SHA256Digest
    /// The parameters piece.
    public var parameters: SHA256Digest
    /// The events piece.
    public var events: SHA256Digest
    /// The groups piece.
    public var groups: SHA256Digest
    /// The root of the tips tree.
    public var tips: SHA256Digest
}

/// Reads trees from an object source, checking every object against its hash.
public struct TreeReader {
    public let source: any ObjectSource

    public init(_ source: any ObjectSource) {
        self.source = source
    }

    /// The verified bytes of an object; a missing object or a hash mismatch is `StoreError.damagedObject`.
    public func bytes(_ digest: SHA256Digest) throws(StoreError) -> [UInt8] {
        try TreeReader.checked(digest, try source.bytes(of: digest))
    }

    /// `bytes` when they hash to `digest`; a missing object (nil) or a mismatch is `StoreError.damagedObject`.
    static func checked(_ digest: SHA256Digest, _ bytes: [UInt8]?) throws(StoreError) -> [UInt8] {
        guard let bytes else {
            throw StoreError.damagedObject(digest: digest.hex, reason: "it is missing")
        }
        let actual = SHA256.hash(bytes)
        guard actual == digest else {
            throw StoreError.damagedObject(digest: digest.hex, reason: "its content hashes to \(actual.hex)")
        }
        return bytes
    }

    /// An object parsed as JSON.
    public func json(_ digest: SHA256Digest) throws(StoreError) -> JSONValue {
        try TreeReader.json(digest, try source.bytes(of: digest))
    }

    /// The bytes read for `digest` (nil: missing), checked against it and parsed as JSON.
    static func json(_ digest: SHA256Digest, _ bytes: [UInt8]?) throws(StoreError) -> JSONValue {
        try parse(digest, try checked(digest, bytes))
    }

    /// The checked bytes of the object `digest` parsed as JSON.
    static func parse(_ digest: SHA256Digest, _ data: [UInt8]) throws(StoreError) -> JSONValue {
        do {
            return try JSONDocument.parse(SourceFile(path: digest.hex, bytes: data), maxDepth: 1024).root.value
        } catch {
            throw StoreError.damagedObject(digest: digest.hex, reason: "it is not JSON (\(error.message))")
        }
    }

    private func digest(_ value: JSONValue?, in object: SHA256Digest, key: String) throws(StoreError) -> SHA256Digest {
        guard case .string(let hex)? = value, let digest = SHA256Digest(hex: hex) else {
            throw StoreError.damagedObject(digest: object.hex, reason: "'\(key)' is not a SHA-256 hash")
        }
        return digest
    }

    /// The root object of a version.
    public func manifest(_ root: SHA256Digest) throws(StoreError) -> RootManifest {
        guard case .object(let object) = try json(root) else {
            throw StoreError.damagedObject(digest: root.hex, reason: "it is not a catalog root")
        }
        if case .number(let version)? = object["formatVersion"]?.value, let number = version.intValue,
           number > CatalogPieces.formatVersion {
            throw StoreError.damagedObject(
                digest: root.hex, reason: "it uses catalog format \(number), newer than this tipcat reads; upgrade tipcat")
        }
        return RootManifest(
            settings: try digest(object["settings"]?.value, in: root, key: "settings"),
            parameters: try digest(object["parameters"]?.value, in: root, key: "parameters"),
            events: try digest(object["events"]?.value, in: root, key: "events"),
            groups: try digest(object["groups"]?.value, in: root, key: "groups"),
            tips: try digest(object["tips"]?.value, in: root, key: "tips"))
    }

    /// A node of the tips tree: its children by hex digit, or its entries when it is a leaf.
    enum TrieNode {
        /// Children by the hex digit (0–15) of the tip-id hash at this depth.
        case node([Int: SHA256Digest])
        case leaf([String: LeafEntry])
    }

    func trieNode(_ digest: SHA256Digest) throws(StoreError) -> TrieNode {
        // A tree just made from the catalog outlines its nodes and leaves: read as they were made.
        switch source.outline(of: digest) {
        case .node(let children)?: return .node(children)
        case .leaf(let entries)?: return .leaf(entries)
        default: break
        }
        guard case .object(let object) = try json(digest), object.count == 1, let member = object.members.first,
              case .object(let body) = member.value.value
        else { throw StoreError.damagedObject(digest: digest.hex, reason: "it is not a node of the tips tree") }
        switch member.key {
        case "node":
            var children: [Int: SHA256Digest] = [:]
            for child in body.members {
                guard let nibble = Int(child.key, radix: 16), (0..<16).contains(nibble), child.key.count == 1 else {
                    throw StoreError.damagedObject(digest: digest.hex, reason: "'\(child.key)' is not a hex digit")
                }
                children[nibble] = try self.digest(child.value.value, in: digest, key: child.key)
            }
            return .node(children)
        case "leaf":
            var entries: [String: LeafEntry] = [:]
            for item in body.members {
                guard case .object(let entry) = item.value.value else {
                    throw StoreError.damagedObject(digest: digest.hex, reason: "entry '\(item.key)' is not an object")
                }
                entries[item.key] = LeafEntry(
                    tip: try entry["tip"].map { (node) throws(StoreError) in try self.digest(node.value, in: digest, key: "tip") },
                    strings: try entry["strings"].map { (node) throws(StoreError) in try self.digest(node.value, in: digest, key: "strings") },
                    republish: entry["republish"]?.value.stringValue)
            }
            return .leaf(entries)
        default:
            throw StoreError.damagedObject(digest: digest.hex, reason: "unknown tree object '\(member.key)'")
        }
    }

    /// Every entry under a node of the tips tree.
    public func entries(_ digest: SHA256Digest) throws(StoreError) -> [String: LeafEntry] {
        var result: [String: LeafEntry] = [:]
        var stack = [digest]
        while let next = stack.popLast() {
            switch try trieNode(next) {
            case .node(let children): stack.append(contentsOf: children.values)
            case .leaf(let entries): result.merge(entries) { first, _ in first }
            }
        }
        return result
    }

    /// The whole catalog of a root, as pieces (every object read and checked).
    public func pieces(_ root: SHA256Digest) throws(StoreError) -> CatalogPieces {
        try pieces(root, parsingStrings: true).pieces
    }

    /// An owner's objects as the store holds them: canonical JSON (`JSONValue.canonicalBytes`), checked
    /// against their hashes.
    public struct StoredOwner: Sendable {
        public var tip: [UInt8]?
        public var strings: [UInt8]?
    }

    /// The whole catalog of a root, as pieces, with each owner's objects as stored (every object read and
    /// checked). Without `parsingStrings`, the owners' translations are left as bytes (the pieces have none):
    /// for a reader that needs them for few tips, or only as bytes.
    public func pieces(_ root: SHA256Digest, parsingStrings: Bool) throws(StoreError) -> (pieces: CatalogPieces, stored: [String: StoredOwner]) {
        let manifest = try manifest(root)
        // The owners' objects are read one after another (a source may be one database connection), then
        // checked against their hashes and parsed on every core, in the order of their names.
        let entries = try entries(manifest.tips).sorted { $0.key < $1.key }
        let fetched = try source.bytes(of: entries.flatMap { [$0.value.tip, $0.value.strings].compactMap { $0 } })
        let read: [(tip: (SHA256Digest, [UInt8]?)?, strings: (SHA256Digest, [UInt8]?)?)] = entries.map { _, entry in
            (entry.tip.map { ($0, fetched[$0]) }, entry.strings.map { ($0, fetched[$0]) })
        }
        let objects = read
        let checked = concurrentChunks(count: objects.count, chunkSize: 128) { range in
            range.map { index -> Result<(JSONValue?, JSONValue?, StoredOwner), StoreError> in
                Result { () throws(StoreError) in
                    let (tip, strings) = objects[index]
                    let stored = StoredOwner(
                        tip: try tip.map { (object) throws(StoreError) in try TreeReader.checked(object.0, object.1) },
                        strings: try strings.map { (object) throws(StoreError) in try TreeReader.checked(object.0, object.1) })
                    func parsed(_ object: (SHA256Digest, [UInt8]?)?, _ bytes: [UInt8]?) throws(StoreError) -> JSONValue? {
                        guard let object, let bytes else { return nil }
                        return try TreeReader.parse(object.0, bytes)
                    }
                    return (try parsed(tip, stored.tip), parsingStrings ? try parsed(strings, stored.strings) : nil, stored)
                }
            }
        }.joinedArrays()
        var owners: [String: CatalogPieces.Owner] = [:]
        var stored: [String: StoredOwner] = [:]
        owners.reserveCapacity(entries.count)
        stored.reserveCapacity(entries.count)
        for ((name, entry), result) in zip(entries, checked) {
            let (tip, strings, bytes) = try result.get()
            owners[name] = CatalogPieces.Owner(tip: tip, strings: strings, republish: entry.republish)
            stored[name] = bytes
        }
        let pieces = CatalogPieces(
            settings: try json(manifest.settings), parameters: try json(manifest.parameters), events: try json(manifest.events),
            groups: try json(manifest.groups), owners: owners)
        return (pieces, stored)
    }

    /// Reads every object of a root, checks each hash, and returns how many objects there are.
    public func verify(_ root: SHA256Digest) throws(StoreError) -> Int {
        var seen = Set<SHA256Digest>()
        let manifest = try manifest(root)
        seen.insert(root)
        for piece in [manifest.settings, manifest.parameters, manifest.events, manifest.groups] where seen.insert(piece).inserted {
            _ = try bytes(piece)
        }
        var stack = [manifest.tips]
        while let next = stack.popLast() {
            guard seen.insert(next).inserted else { continue }
            switch try trieNode(next) {
            case .node(let children): stack.append(contentsOf: children.values)
            case .leaf(let entries):
                for entry in entries.values {
                    for digest in [entry.tip, entry.strings].compactMap({ $0 }) where seen.insert(digest).inserted {
                        _ = try json(digest)
                    }
                }
            }
        }
        return seen.count
    }
}
