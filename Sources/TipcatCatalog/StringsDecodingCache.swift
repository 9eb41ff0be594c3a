public import TipcatCore

/// What decoding a String Catalog produced, entry by entry: what a `StringsDecodingCache` keeps so that the next
/// load of the same bytes decodes again only the entries whose tip changed.
///
/// An entry's findings and decoded form depend on its bytes, the catalog's settings and declarations (the cache's
/// context) and the tip file whose text it translates (`checkedAgainst`); nothing else.
public struct StringsDecoding: Sendable, Hashable {
    /// One member of `strings`, in file order.
    public struct Entry: Sendable, Hashable {
        public var key: String
        /// Where the key's opening quote is in the file, and its line and column there.
        public var keyOffset: Int
        public var keyLine: Int
        public var keyColumn: Int
        /// Where the entry's value starts and ends (just past its last byte); `valueEnd` is -1 for a value that
        /// cannot be decoded alone (not an object or array: the file is then decoded whole).
        public var valueOffset: Int
        public var valueEnd: Int
        /// The fingerprint of the tip file the entry was checked against (`StringsDecodingCache.fingerprint`);
        /// empty when no tip used the key.
        public var checkedAgainst: [UInt8]
        /// The entry's own findings, in the order they were reported.
        public var findings: [Diagnostic]
        /// The decoded entry; nil when it was not an object.
        public var entry: LocalizationTable.Entry?

        public init(
            key: String, keyOffset: Int, keyLine: Int, keyColumn: Int, valueOffset: Int, valueEnd: Int, checkedAgainst: [UInt8],
            findings: [Diagnostic], entry: LocalizationTable.Entry?
        ) {
            self.key = key
            self.keyOffset = keyOffset
            self.keyLine = keyLine
            self.keyColumn = keyColumn
            self.valueOffset = valueOffset
            self.valueEnd = valueEnd
            self.checkedAgainst = checkedAgainst
            self.findings = findings
            self.entry = entry
        }
    }

    /// A key written twice in one object of the file: reported unless the entry's own checks already did.
    public struct Duplicate: Sendable, Hashable {
        public var key: String
        public var location: SourceLocation
        public var first: SourceLocation

        public init(key: String, location: SourceLocation, first: SourceLocation) {
            self.key = key
            self.location = location
            self.first = first
        }
    }

    /// The findings about the file as a whole (its root object), reported before the entries'.
    public var leadingFindings: [Diagnostic]
    public var entries: [Entry]
    /// Every duplicate key of the file, inside entries or not, in source order.
    public var duplicates: [Duplicate]

    public init(leadingFindings: [Diagnostic], entries: [Entry], duplicates: [Duplicate]) {
        self.leadingFindings = leadingFindings
        self.entries = entries
        self.duplicates = duplicates
    }
}

/// What decoding one tip file produced (its tip and findings): what a `StringsDecodingCache` keeps so that the
/// next load parses and decodes only the tip files whose bytes changed.
public struct TipDecoding: Sendable, Hashable {
    /// `StringsDecodingCache.fingerprint` of the file's path and bytes.
    public var fingerprint: [UInt8]
    /// The file's `id` member as written, if it is a string: the catalog's set of tip IDs is part of every
    /// tip's context (rules may name other tips).
    public var id: String?
    /// The decoded tip; nil when the file does not decode to one (its findings say why).
    public var tip: Tip?
    /// The file's findings, in the order they were reported.
    public var findings: [Diagnostic]

    public init(fingerprint: [UInt8], id: String?, tip: Tip?, findings: [Diagnostic]) {
        self.fingerprint = fingerprint
        self.id = id
        self.tip = tip
        self.findings = findings
    }
}

/// Every tip file's `TipDecoding` of one catalog, by path, and the tip IDs they were decoded with.
public struct TipDecodings: Sendable, Hashable {
    /// `StringsDecodingCache.fingerprint` of the catalog's tip IDs (sorted, each ended by a zero byte).
    public var tipIDs: [UInt8]
    public var byPath: [String: TipDecoding]

    public init(tipIDs: [UInt8], byPath: [String: TipDecoding]) {
        self.tipIDs = tipIDs
        self.byPath = byPath
    }
}

/// Keeps `StringsDecoding`s between loads, keyed by content: the String Catalog's bytes and a context (the
/// catalog's settings and declarations as bytes, the file's path); and the tip files' `TipDecodings`, keyed by
/// each file's bytes, the same context and the catalog's tip IDs. `CatalogLoader.stringsCache` uses one; a
/// cache that cannot trust what it holds returns nil, and the file is decoded as if there were none.
public protocol StringsDecodingCache: Sendable {
    /// A content hash of `bytes` (a tip file's, the String Catalog's): equal hashes mean equal bytes.
    func fingerprint(_ bytes: UnsafeRawBufferPointer) -> [UInt8]
    /// `fingerprint(_:)`, telling `afterPiece` each range of `bytes` once it is hashed (so that a mapped file's
    /// pages are given back as they are: a String Catalog of a hundred megabytes is hashed on every publish, and
    /// mostly not read again).
    func fingerprint(_ bytes: UnsafeRawBufferPointer, afterPiece: (Range<Int>) -> Void) -> [UInt8]
    /// What decoding the String Catalog at `path` with `fingerprint` under `context` produced, when kept.
    func decoding(ofFile path: String, fingerprint: [UInt8], context: [UInt8]) -> StringsDecoding?
    /// False when the cache certainly keeps nothing for the String Catalog at `path`, whatever its fingerprint
    /// (a first publish): the loader then parses the file while it is fingerprinted, not after.
    func mayHaveDecoding(ofFile path: String) -> Bool
    /// Keeps `decoding` for the String Catalog at `path` with `fingerprint` under `context` (best effort:
    /// failures are silent). With `changed`, `decoding` is the one this cache gave for the same file and context
    /// in this process, and `changed` the entries decoded again since, by index, which replace its own (so that
    /// a cache can write just those, and nobody copies tens of thousands of entries to replace a few); nil:
    /// `decoding` is new throughout.
    func keep(_ decoding: StringsDecoding, ofFile path: String, fingerprint: [UInt8], context: [UInt8], changed: [Int: StringsDecoding.Entry]?)
    /// What decoding the tip files of the catalog at `directory` produced under `context` (the catalog's settings
    /// and declarations, as for the String Catalog), when kept.
    func tipDecodings(ofCatalog directory: String, context: [UInt8]) -> TipDecodings?
    /// Keeps `decodings` for the catalog at `directory` under `context` (best effort: failures are silent).
    func keep(_ decodings: TipDecodings, ofCatalog directory: String, context: [UInt8])
}

extension StringsDecodingCache {
    /// `fingerprint(_:)` of an array's bytes.
    public func fingerprint(_ bytes: [UInt8]) -> [UInt8] { bytes.withUnsafeBytes { fingerprint($0) } }
    /// The bytes hashed whole, then `afterPiece` told.
    public func fingerprint(_ bytes: UnsafeRawBufferPointer, afterPiece: (Range<Int>) -> Void) -> [UInt8] {
        let fingerprint = fingerprint(bytes)
        afterPiece(0..<bytes.count)
        return fingerprint
    }

    /// `fingerprint(_:)` of a file's bytes, a mapped file's pages given back as they are hashed.
    package func fingerprint(_ file: FileBytes) -> [UInt8] {
        fingerprint(file.buffer, afterPiece: { file.releasePages(in: $0) })
    }
    /// Unknown: asked by fingerprint.
    public func mayHaveDecoding(ofFile path: String) -> Bool { true }
    /// A cache that keeps no tips: every tip file is decoded.
    public func tipDecodings(ofCatalog directory: String, context: [UInt8]) -> TipDecodings? { nil }
    public func keep(_ decodings: TipDecodings, ofCatalog directory: String, context: [UInt8]) {}
}
