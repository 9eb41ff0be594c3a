import TipcatCatalog
import TipcatLocalization

/// What a diff shows of a tip's object that was added (or removed) whole, known where the object is made from a
/// catalog: a diff against an empty side — a first publish — then need not read back, check and parse every object
/// it just stored. An outline belongs to an object's digest: the same bytes always have the same outline.
public enum ObjectOutline: Sendable, Hashable {
    /// A tip's definition: the source text of its `title`.
    case tip(title: String)
    /// A tip's translations: each key with its locales (`localeList`), in the object's order.
    case strings([Key])
    /// A node of the tips tree: its children's digests by hex digit (0–15).
    case node([Int: SHA256Digest])
    /// A leaf of the tips tree: its entries by owner name (for a name written twice, the last in the object).
    case leaf([String: LeafEntry])

    /// A translation key and the locales it has.
    public struct Key: Sendable, Hashable {
        public var key: String
        /// The locales, as `ObjectOutline.localeList` lists them.
        public var locales: String

        public init(key: String, locales: String) {
            self.key = key
            self.locales = locales
        }
    }

    /// Locale identifiers as a diff lists a key's: sorted, each once, joined by ", ".
    public static func localeList(_ identifiers: some Sequence<String>) -> String {
        Set(identifiers).sorted().joined(separator: ", ")
    }

    /// The outline of `CatalogCodec.tipBytes(tip)`.
    static func tip(_ tip: Tip) -> ObjectOutline { .tip(title: tip.title.source) }

    /// The outline of `CatalogCodec.stringsBytes(entries)`.
    static func strings(_ entries: [(String, LocalizationTable.Entry)]) -> ObjectOutline {
        // Entries mostly have the same locales (in one shared array): listed once for a run of them.
        var last: (locales: [LocaleID], list: String)?
        return .strings(entries.map { key, entry in
            let locales = entry.translations.keys
            if let last, last.locales == locales { return Key(key: key, locales: last.list) }
            let list = localeList(locales.map(\.identifier))
            last = (locales, list)
            return Key(key: key, locales: list)
        })
    }
}

/// One tip's entry in a leaf of the tips tree.
public struct LeafEntry: Sendable, Hashable {
    /// The tip's definition; nil for translations of no tip.
    public var tip: SHA256Digest?
    /// The tip's translations, if it has any.
    public var strings: SHA256Digest?
    /// `keep` or `reset`.
    public var republish: String?

    public init(tip: SHA256Digest?, strings: SHA256Digest?, republish: String?) {
        self.tip = tip
        self.strings = strings
        self.republish = republish
    }
}
