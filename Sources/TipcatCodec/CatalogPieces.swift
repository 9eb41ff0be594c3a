public import TipcatJSON

/// A catalog cut into the pieces the store addresses by content, each as canonical JSON.
///
/// Settings, parameters, events and groups are one piece each. Every tip id is an *owner*: its tip definition
/// (everything but the republish policy), its translations (the String Catalog keys `<TipID>.…`) and its
/// republish policy (`owner(ofKey:tipIDs:)`: a dotted id such as `com.example.trails.plan-tomorrow` owns its keys
/// too). Translations whose key names no tip are owned by the key's first component, so nothing is lost. The pieces join into the canonical catalog document and split from it again.
public struct CatalogPieces: Sendable, Hashable {
    /// What one owner (a tip id) holds.
    public struct Owner: Sendable, Hashable {
        /// The tip's definition, without its republish policy; nil for translations of no tip.
        public var tip: JSONValue?
        /// `{key: entry}` for the owner's String Catalog keys; nil when it has none.
        public var strings: JSONValue?
        /// `keep` or `reset`, for tips.
        public var republish: String?

        /// An owner's pieces.
        public init(tip: JSONValue? = nil, strings: JSONValue? = nil, republish: String? = nil) {
            self.tip = tip
            self.strings = strings
            self.republish = republish
        }

        /// What a tip's revision hash is taken over (what `republish: reset` compares): its canonical
        /// definition, a zero byte, its canonical translations.
        public var revisionBytes: [UInt8] {
            Owner.revisionBytes(tip: tip?.canonicalBytes, strings: strings?.canonicalBytes)
        }

        /// `revisionBytes` from the two objects' canonical bytes (as a store holds them).
        public static func revisionBytes(tip: [UInt8]?, strings: [UInt8]?) -> [UInt8] {
            var bytes = tip ?? []
            bytes.append(0)
            bytes += strings ?? []
            return bytes
        }
    }

    /// `catalog.json`'s settings.
    public var settings: JSONValue
    /// The app parameters, in declaration order.
    public var parameters: JSONValue
    /// The events, in declaration order.
    public var events: JSONValue
    /// The tip groups, in declaration order.
    public var groups: JSONValue
    /// Owners by name (tip id).
    public var owners: [String: Owner]

    /// Pieces from their parts.
    public init(settings: JSONValue, parameters: JSONValue, events: JSONValue, groups: JSONValue, owners: [String: Owner]) {
        self.settings = settings
        self.parameters = parameters
        self.events = events
        self.groups = groups
        self.owners = owners
    }

    /// The owner of a String Catalog key: the longest tip id in `tipIDs` that the key continues with a `.`
    /// (`com.example.trails.plan-tomorrow.title` → the tip `com.example.trails.plan-tomorrow`), else the text before
    /// the key's first `.` (`NewTrailTip.title` → `NewTrailTip`; a key naming no tip, `Legacy.banner` → `Legacy`).
    ///
    /// A tip owns every key of its own (its id, a dot, a suffix), whatever dots its id holds: publishing, splitting a
    /// canonical document and checking a bundle's content hash all file a key under the same owner this way.
    public static func owner(ofKey key: String, tipIDs: Set<String>) -> String {
        let utf8 = key.utf8
        var end = utf8.endIndex
        // Longest first: each `.` from the right ends a candidate id.
        while let dot = utf8[..<end].lastIndex(of: UInt8(ascii: ".")) {
            let candidate = String(key[..<dot])
            if tipIDs.contains(candidate) { return candidate }
            end = dot
        }
        guard let dot = utf8.firstIndex(of: UInt8(ascii: ".")) else { return key }
        return String(key[..<dot])
    }

    /// The name of the canonical catalog format, written in every document.
    public static let formatName = "tipcat-catalog"
    /// The version of the canonical catalog format.
    public static let formatVersion = 1

    /// The canonical catalog document: tips sorted by id, translations by key, policies by tip.
    public var document: JSONValue {
        let names = owners.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var tips: [JSONValue] = []
        var republish: [(String, JSONValue)] = []
        var strings: [(String, JSONValue)] = []
        for name in names {
            guard let owner = owners[name] else { continue }
            if let tip = owner.tip { tips.append(tip) }
            if let policy = owner.republish { republish.append((name, .string(policy))) }
            if case .object(let entries)? = owner.strings {
                strings.append(contentsOf: entries.members.map { ($0.key, $0.value.value) })
            }
        }
        return .object([
            ("events", events),
            ("format", .string(CatalogPieces.formatName)),
            ("formatVersion", .int(CatalogPieces.formatVersion)),
            ("groups", groups),
            ("parameters", parameters),
            ("republish", .object(republish)),
            ("settings", settings),
            ("strings", .object(strings)),
            ("tips", .array(tips)),
        ])
    }

    /// Splits a canonical catalog document into pieces.
    public init(document: JSONValue) throws(CatalogDecodingError) {
        let root = JSONReader(document, path: "")
        let format = try root.member("format").string()
        guard format == CatalogPieces.formatName else {
            throw CatalogDecodingError("not a tipcat catalog (format '\(format)')", at: "format")
        }
        let version = try root.member("formatVersion").int()
        guard version <= CatalogPieces.formatVersion else {
            throw CatalogDecodingError(
                "catalog format version \(version) is newer than this tipcat reads (\(CatalogPieces.formatVersion)); upgrade tipcat",
                at: "formatVersion")
        }
        var owners: [String: Owner] = [:]
        for tip in try root.member("tips").elements() {
            let id = try tip.member("id").string()
            guard owners[id] == nil else { throw tip.fail("tip '\(id)' appears twice") }
            owners[id] = Owner(tip: tip.value, republish: "keep")
        }
        for (id, policy) in try root.member("republish").members() {
            guard owners[id] != nil else { throw policy.fail("republish policy for '\(id)', which is not a tip") }
            owners[id]?.republish = try policy.string()
        }
        var strings: [String: [(String, JSONValue)]] = [:]
        let tipIDs = Set(owners.keys)
        for (key, entry) in try root.member("strings").members() {
            strings[CatalogPieces.owner(ofKey: key, tipIDs: tipIDs), default: []].append((key, entry.value))
        }
        for (name, entries) in strings {
            owners[name, default: Owner()].strings = .object(entries.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) })
        }
        self.init(
            settings: try root.member("settings").value, parameters: try root.member("parameters").value,
            events: try root.member("events").value, groups: try root.member("groups").value, owners: owners)
    }
}

extension JSONValue {
    /// The canonical bytes: compact, keys sorted by code point. Equal values give equal bytes.
    public var canonicalBytes: [UInt8] { Array(serialized(sortedKeys: true).utf8) }
}
