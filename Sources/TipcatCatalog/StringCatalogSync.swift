public import TipcatJSON
public import TipcatLocalization

/// Brings a parsed `Localizable.xcstrings` up to date with the tips (`tipcat strings sync`).
///
/// - A tip text with no entry gets one: the tip's comment, `"extractionState" : "manual"` and the source text as
///   the source-language `stringUnit` (state `translated`), with no translations.
/// - The source-language `stringUnit` records the text the translations were made from. When it differs from the
///   tip's text, it takes the new text and every translation of the key in other locales (plural and substitution
///   forms included) that was `translated` turns `needs_review`. An entry with no source-language localization
///   cannot tell whether its text changed: it gets the tip's text recorded, so that the next change is detected.
///   A source-language localization with variations or substitutions, or whose string is a printf format
///   (`%lld trails`, written in Xcode rather than from the tip), is left alone.
/// - A used key marked `stale` becomes `manual` again.
/// - A key no tip uses but shaped like a tip's (as for `orphan-translation`) is marked `stale`, or removed with
///   `prune`. The app's own keys are never touched.
///
/// New members go to their sorted place (byte order); existing members keep their order.
public struct StringCatalogSync {
    /// What the sync changed, by key.
    public struct Changes: Sendable, Equatable {
        public var added: [String] = []
        /// Keys whose source text changed (their translations now need review).
        public var needsReview: [String] = []
        /// Keys whose source text was not recorded and now is.
        public var recorded: [String] = []
        /// Used keys that were marked stale and are not any more.
        public var revived: [String] = []
        public var stale: [String] = []
        public var pruned: [String] = []

        public init() {}

        public var isEmpty: Bool {
            added.isEmpty && needsReview.isEmpty && recorded.isEmpty && revived.isEmpty && stale.isEmpty && pruned.isEmpty
        }

        /// `3 added, 1 needs_review, …` (only the non-empty kinds), or `no changes`.
        public var summary: String {
            let parts = [("added", added), ("needs_review", needsReview), ("source recorded", recorded),
                         ("no longer stale", revived), ("stale", stale), ("pruned", pruned)]
                .filter { !$0.1.isEmpty }.map { "\($0.1.count) \($0.0)" }
            return parts.isEmpty ? "no changes" : parts.joined(separator: ", ")
        }

        /// One line per changed key: `added: A.title`.
        public var lines: [String] {
            let (added, needsReview, recorded, revived, stale, pruned) = (
                self.added.sorted(), self.needsReview.sorted(), self.recorded.sorted(), self.revived.sorted(),
                self.stale.sorted(), self.pruned.sorted())
            return added.map { "added: \($0)" } + needsReview.map { "needs_review: \($0)" }
                + recorded.map { "source recorded: \($0)" } + revived.map { "no longer stale: \($0)" }
                + stale.map { "stale: \($0)" } + pruned.map { "pruned: \($0)" }
        }
    }

    public let tips: [Tip]
    public let sourceLanguage: LocaleID
    public let prune: Bool

    public init(tips: [Tip], sourceLanguage: LocaleID, prune: Bool) {
        self.tips = tips
        self.sourceLanguage = sourceLanguage
        self.prune = prune
    }

    /// The synced tree for `root` (nil: no file yet, a new one is made), and what changed.
    public func sync(_ root: JSONNode?) -> (root: JSONNode, changes: Changes) {
        var changes = Changes()
        if let root, root.value.objectValue == nil { return (root, changes) }  // not a String Catalog: left as is
        var file = root?.value.objectValue ?? JSONObject([
            JSONMember(key: "sourceLanguage", value: JSONNode(.string(sourceLanguage.identifier))),
            JSONMember(key: "strings", value: JSONNode(.object(JSONObject()))),
            JSONMember(key: "version", value: JSONNode(.string("1.0"))),
        ])
        guard let stringsNode = file["strings"], var strings = stringsNode.value.objectValue else {
            return (root ?? JSONNode(.object(file)), changes)
        }
        let language = sourceLanguage.identifier
        var used = Set<String>()
        // Each key's first member (catalogs have thousands of keys: no linear search per text).
        var positions: [String: Int] = [:]
        positions.reserveCapacity(strings.members.count)
        for (position, member) in strings.members.enumerated() where positions[member.key] == nil {
            positions[member.key] = position
        }
        var additions: [JSONMember] = []
        for tip in tips {
            for text in tip.localizableTexts where used.insert(text.key).inserted {
                guard let index = positions[text.key] else {
                    var entry = JSONObject()
                    if let comment = tip.comment { entry.set("comment", .string(comment)) }
                    entry.set("extractionState", .string("manual"))
                    entry.set("localizations", .object(JSONObject([
                        JSONMember(key: language, value: Self.sourceUnit(text.source)),
                    ])))
                    additions.append(JSONMember(key: text.key, value: JSONNode(.object(entry))))
                    changes.added.append(text.key)
                    continue
                }
                guard var entry = strings.members[index].value.value.objectValue else { continue }
                if entry["extractionState"]?.value.stringValue == "stale" {
                    entry.set("extractionState", .string("manual"))
                    changes.revived.append(text.key)
                }
                var localizations = entry["localizations"]?.value.objectValue ?? JSONObject()
                if let sourceLocalization = localizations[language] {
                    if var localization = sourceLocalization.value.objectValue, localization["substitutions"] == nil,
                       var unit = localization["stringUnit"]?.value.objectValue,
                       let recorded = unit["value"]?.value.stringValue, recorded != text.source,
                       PrintfFormat.parse(recorded, substitutions: true) == nil {
                        unit.set("value", .string(text.source))
                        if unit["state"]?.value.stringValue != "translated" { unit.set("state", .string("translated")) }
                        localization.set("stringUnit", .object(unit))
                        localizations.set(language, .object(localization))
                        for (position, member) in localizations.members.enumerated() where member.key != language {
                            localizations.members[position].value = Self.markedForReview(member.value)
                        }
                        changes.needsReview.append(text.key)
                    }
                } else {
                    localizations.set(language, Self.sourceUnit(text.source).value)
                    changes.recorded.append(text.key)
                }
                if entry["localizations"] != nil || !localizations.isEmpty {
                    entry.set("localizations", .object(localizations), ifChanged: true)
                }
                strings.members[index].value = JSONNode(.object(entry), offset: strings.members[index].value.offset)
            }
        }
        let tipIDs = Set(tips.map(\.id.rawValue))
        var kept: [JSONMember] = []
        for var member in strings.members {
            guard !used.contains(member.key), OrphanTranslationRule.isTipShaped(member.key, tipIDs: tipIDs) else {
                kept.append(member)
                continue
            }
            if prune {
                changes.pruned.append(member.key)
                continue
            }
            if var entry = member.value.value.objectValue, entry["extractionState"]?.value.stringValue != "stale" {
                entry.set("extractionState", .string("stale"))
                member.value = JSONNode(.object(entry), offset: member.value.offset)
                changes.stale.append(member.key)
            }
            kept.append(member)
        }
        strings.members = Self.merged(kept, additions)
        file.set("strings", .object(strings))
        return (JSONNode(.object(file), offset: root?.offset ?? -1), changes)
    }

    /// `members` with each of `additions` inserted before the first member whose key sorts after it (byte order),
    /// as `JSONObject.set` does one at a time.
    static func merged(_ members: [JSONMember], _ additions: [JSONMember]) -> [JSONMember] {
        guard !additions.isEmpty else { return members }
        let sorted = additions.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        var result: [JSONMember] = []
        result.reserveCapacity(members.count + sorted.count)
        var next = 0
        for member in members {
            while next < sorted.count, sorted[next].key.utf8.lexicographicallyPrecedes(member.key.utf8) {
                result.append(sorted[next])
                next += 1
            }
            result.append(member)
        }
        result.append(contentsOf: sorted[next...])
        return result
    }

    /// `{"stringUnit" : {"state" : "translated", "value" : text}}`.
    static func sourceUnit(_ text: String) -> JSONNode {
        JSONNode(.object(JSONObject([
            JSONMember(key: "stringUnit", value: JSONNode(.object(JSONObject([
                JSONMember(key: "state", value: JSONNode(.string("translated"))),
                JSONMember(key: "value", value: JSONNode(.string(text))),
            ])))),
        ])))
    }

    /// `node` with every `stringUnit` inside it whose state is `translated` (or absent) set to `needs_review`.
    static func markedForReview(_ node: JSONNode) -> JSONNode {
        guard var object = node.value.objectValue else { return node }
        for (index, member) in object.members.enumerated() {
            if member.key == "stringUnit", var unit = member.value.value.objectValue {
                let state = unit["state"]?.value.stringValue
                if state == nil || state == "translated" {
                    unit.set("state", .string("needs_review"))
                    object.members[index].value = JSONNode(.object(unit), offset: member.value.offset)
                }
            } else {
                object.members[index].value = markedForReview(member.value)
            }
        }
        return JSONNode(.object(object), offset: node.offset)
    }
}

extension JSONObject {
    /// Sets the first member named `key` (keeping its key bytes), or inserts one before the first member whose
    /// key sorts after it (byte order).
    mutating func set(_ key: String, _ value: JSONValue, ifChanged: Bool = false) {
        if let index = members.firstIndex(where: { $0.key == key }) {
            if ifChanged, members[index].value.value == value { return }
            members[index].value = JSONNode(value, offset: value.isContainer ? members[index].value.offset : -1)
            return
        }
        let position = members.firstIndex { $0.key.utf8.lexicographicallyPrecedes(key.utf8) == false && $0.key != key }
            ?? members.endIndex
        members.insert(JSONMember(key: key, value: JSONNode(value)), at: position)
    }
}

extension JSONValue {
    fileprivate var isContainer: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}
