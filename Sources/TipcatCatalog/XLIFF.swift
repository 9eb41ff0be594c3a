public import TipcatJSON
public import TipcatLocalization

/// One XLIFF 1.2 `<trans-unit>`: one String Catalog string of one tip text, as Xcode's `.xcloc` export writes it.
///
/// A plain string has the key as its id; a variation has `KEY|==|PATH`, where `PATH` names the variation as
/// Xcode does: `plural.one`, `device.mac`, `device.mac.plural.one`.
public struct XLIFFUnit: Sendable, Hashable {
    /// The String Catalog key.
    public var key: String
    /// The variation path (`plural.one`, `device.mac`), empty for the plain string.
    public var path: String
    /// The `<source>` text: the source-language string.
    public var source: String
    /// The `<target>` text, nil when the unit has none.
    public var target: String?
    /// The XLIFF `state` of `target`.
    public var state: String?
    /// The `<note>` text: the tip's comment.
    public var note: String?

    /// A unit; `path` empty for a plain string.
    public init(key: String, path: String = "", source: String, target: String? = nil, state: String? = nil, note: String? = nil) {
        self.key = key
        self.path = path
        self.source = source
        self.target = target
        self.state = state
        self.note = note
    }

    /// The separator Xcode puts between a key and its variation path in a trans-unit id.
    public static let pathSeparator = "|==|"

    /// `KEY`, or `KEY|==|PATH` for a variation.
    public var id: String { path.isEmpty ? key : key + Self.pathSeparator + path }

    /// The key and path of a trans-unit id (the path empty when there is no `|==|`).
    public static func split(id: String) -> (key: String, path: String) {
        let bytes = Array(id.utf8), separator = Array(pathSeparator.utf8)
        guard bytes.count >= separator.count else { return (id, "") }
        for start in stride(from: bytes.count - separator.count, through: 0, by: -1)
        where bytes[start..<start + separator.count].elementsEqual(separator) {
            return (String(decoding: bytes[..<start], as: UTF8.self), String(decoding: bytes[(start + separator.count)...], as: UTF8.self))
        }
        return (id, "")
    }
}

/// Reads String Catalog translations into XLIFF 1.2 units and merges units back (`tipcat strings export`,
/// `tipcat strings import`).
public enum XLIFF {
    /// The XLIFF 1.2 namespace.
    public static let namespace = "urn:oasis:names:tc:xliff:document:1.2"

    /// The XLIFF state of a String Catalog state: `translated` → `translated`, `needs_review` →
    /// `needs-review-translation`, `new` → `new`, `stale` → `x-stale` (XLIFF 1.2 has no such state).
    public static func xliffState(_ state: String?) -> String {
        switch state {
        case "needs_review": "needs-review-translation"
        case "new": "new"
        case "stale": "x-stale"
        default: "translated"
        }
    }

    /// The String Catalog state of an imported target: any `needs-review-…` state → `needs_review`, `new` →
    /// `new`, `x-stale` → `stale`, everything else (`translated`, `final`, `signed-off`, none) → `translated`.
    public static func catalogState(_ state: String?) -> String {
        guard let state else { return "translated" }
        if state.hasPrefix("needs-review") { return "needs_review" }
        switch state {
        case "new": return "new"
        case "x-stale": return "stale"
        default: return "translated"
        }
    }

    /// Every string unit inside one localization, by variation path (`""`, `plural.one`, `device.mac.plural.one`,
    /// and a substitution's forms as `substitutions.<name>.plural.one`, the way Xcode names them).
    static func forms(_ node: JSONNode?, prefix: String = "") -> [(path: String, unit: JSONObject)] {
        guard let object = node?.value.objectValue else { return [] }
        var result: [(path: String, unit: JSONObject)] = []
        if let unit = object["stringUnit"]?.value.objectValue { result.append((prefix, unit)) }
        if let substitutions = object["substitutions"]?.value.objectValue {
            for member in substitutions.members {
                let step = "substitutions." + member.key
                result += forms(member.value, prefix: prefix.isEmpty ? step : prefix + "." + step)
            }
        }
        if let variations = object["variations"]?.value.objectValue {
            for kind in ["device", "plural"] {
                guard let group = variations[kind]?.value.objectValue else { continue }
                for member in group.members {
                    let step = kind + "." + member.key
                    result += forms(member.value, prefix: prefix.isEmpty ? step : prefix + "." + step)
                }
            }
        }
        return result
    }

    /// The units of every tip text for `locale`, sorted by id (byte order). `root` is the parsed
    /// `Localizable.xcstrings` (nil when there is none). A text's source strings are its source-language
    /// localization's (the tip's text when it has none); a variation only the target has takes the source's
    /// `other` form of the same place as its source. The note is the tip's comment, else the key's.
    public static func units(root: JSONNode?, tips: [Tip], sourceLanguage: LocaleID, locale: LocaleID) -> [XLIFFUnit] {
        Export(root: root, tips: tips, sourceLanguage: sourceLanguage).units(locale: locale)
    }

    /// The tip texts of a catalog with their String Catalog entries, source strings and notes, read once for
    /// exporting any number of locales (`units(locale:)` is `XLIFF.units(root:tips:sourceLanguage:locale:)`).
    public struct Export: Sendable {
        /// One tip text (each key once, in tip order).
        struct Text: Sendable {
            var key: String
            var note: String?
            /// The entry's `localizations`, nil when the key has no entry or none.
            var localizations: JSONObject?
            /// The source strings by variation path, in the order found (each path once).
            var sources: [(path: String, value: String)]
            /// The text as written in the tip file.
            var written: String
            /// The source paths in byte order, each with where its unit's opening (`<trans-unit>` and `<source>`
            /// lines) is in `Export.rendered`, and where the closing all the text's units share (`<note>`,
            /// `</trans-unit>`) is.
            var openings: [(path: String, bytes: Range<Int>)] = []
            var closing: Range<Int> = 0..<0
        }

        let texts: [Text]
        let sourceLanguage: LocaleID
        /// The indices of `texts`, keys in byte order.
        let keyOrder: [Int]
        /// The parts of the XLIFF units every locale shares, escaped once (`Text.openings`, `Text.closing`).
        let rendered: [UInt8]

        /// The texts of `tips` with their entries in `root` (the parsed `Localizable.xcstrings`, nil when there is none).
        public init(root: JSONNode?, tips: [Tip], sourceLanguage: LocaleID) {
            // One index of the String Catalog's keys: looking each tip text up in the object's member list would be
            // quadratic (20,000 keys at 5,000 tips).
            var strings: [String: JSONNode] = [:]
            for member in root?.value.objectValue?["strings"]?.value.objectValue?.members ?? [] where strings[member.key] == nil {
                strings[member.key] = member.value
            }
            var seen = Set<String>()
            self.sourceLanguage = sourceLanguage
            var texts: [Text] = []
            for tip in tips {
                for text in tip.localizableTexts where seen.insert(text.key).inserted {
                    let entry = strings[text.key]?.value.objectValue
                    let localizations = entry?["localizations"]?.value.objectValue
                    var sources: [(path: String, value: String)] = []
                    for (path, unit) in forms(localizations?[sourceLanguage.identifier]) {
                        guard let value = unit["value"]?.value.stringValue, !sources.contains(where: { $0.path == path }) else { continue }
                        sources.append((path, value))
                    }
                    if sources.isEmpty { sources.append(("", text.source)) }
                    texts.append(Text(key: text.key, note: tip.comment ?? entry?["comment"]?.value.stringValue,
                                      localizations: localizations, sources: sources, written: text.source))
                }
            }
            keyOrder = IDBytes(texts.map(\.key)).sortedIndices()
            var rendered = XMLBytes()
            for index in texts.indices {
                let text = texts[index]
                var openings: [(path: String, bytes: Range<Int>)] = []
                for (path, value) in text.sources {
                    let start = rendered.bytes.count
                    rendered.opening(key: text.key, path: path, source: value)
                    openings.append((path, start..<rendered.bytes.count))
                }
                openings.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
                texts[index].openings = openings
                let start = rendered.bytes.count
                rendered.closing(note: text.note)
                texts[index].closing = start..<rendered.bytes.count
            }
            self.texts = texts
            self.rendered = rendered.bytes
        }

        /// `XLIFF.documentBytes(units(locale: locale), …)`, with the number of units and of units with a target.
        ///
        /// Written straight from the texts: the parts all locales share were escaped once, units come in key and path
        /// order (in the rare case that is not id order, the units are made and sorted first).
        public func document(locale: LocaleID, toolVersion: String) -> (bytes: [UInt8], units: Int, translated: Int) {
            if let document = orderedDocument(locale: locale, toolVersion: toolVersion) { return document }
            let units = self.units(locale: locale)
            return (documentBytes(units, sourceLanguage: sourceLanguage, locale: locale, toolVersion: toolVersion),
                    units.count, units.filter { $0.target != nil }.count)
        }

        /// The document with texts in key order and each text's units in path order; nil when a text's first id does
        /// not come after the one before it.
        private func orderedDocument(locale: LocaleID, toolVersion: String) -> (bytes: [UInt8], units: Int, translated: Int)? {
            var out = XMLBytes()
            out.bytes.reserveCapacity(rendered.count + rendered.count / 2 + 512)
            out.header(sourceLanguage: sourceLanguage, locale: locale, toolVersion: toolVersion)
            var count = 0, translated = 0
            var last: [UInt8] = [], first: [UInt8] = []
            for index in keyOrder {
                let text = texts[index]
                var targets: [(path: String, value: String, state: String?)] = []
                for (path, unit) in forms(text.localizations?[locale.identifier]) {
                    guard let value = unit["value"]?.value.stringValue, !targets.contains(where: { $0.path == path }) else { continue }
                    targets.append((path, value, unit["state"]?.value.stringValue))
                }
                // The paths in byte order, each with its shared opening (nil for a variation only the target has).
                var paths = text.openings.map { (path: $0.path, opening: Optional($0.bytes)) }
                for target in targets where !text.openings.contains(where: { $0.path == target.path }) {
                    paths.append((target.path, nil))
                    var place = paths.count - 1
                    while place > 0, paths[place].path.utf8.lexicographicallyPrecedes(paths[place - 1].path.utf8) {
                        paths.swapAt(place, place - 1)
                        place -= 1
                    }
                }
                // Ids rise within a text (a key, then `KEY|==|PATH` in path order); between texts, compare.
                first.removeAll(keepingCapacity: true)
                first.append(contentsOf: text.key.utf8)
                if let path = paths.first?.path, !path.isEmpty {
                    first.append(contentsOf: XLIFFUnit.pathSeparator.utf8)
                    first.append(contentsOf: path.utf8)
                }
                if count > 0, !last.lexicographicallyPrecedes(first) { return nil }
                for (path, opening) in paths {
                    if let opening {
                        out.bytes.append(contentsOf: rendered[opening])
                    } else {
                        func source(_ path: String) -> String? { text.sources.first { $0.path == path }?.value }
                        out.opening(key: text.key, path: path, source: source(otherForm(path)) ?? source("") ?? text.written)
                    }
                    if let target = targets.first(where: { $0.path == path }) {
                        out.target(value: target.value, state: xliffState(target.state))
                        translated += 1
                    }
                    out.bytes.append(contentsOf: rendered[text.closing])
                    count += 1
                }
                last.removeAll(keepingCapacity: true)
                last.append(contentsOf: text.key.utf8)
                if let path = paths.last?.path, !path.isEmpty {
                    last.append(contentsOf: XLIFFUnit.pathSeparator.utf8)
                    last.append(contentsOf: path.utf8)
                }
            }
            out.footer()
            return (out.bytes, count, translated)
        }

        /// The units of every text for `locale`, sorted by id (byte order).
        ///
        /// Made with the texts in key order and each text's units in path order, they are already sorted unless a
        /// key is a prefix of another one such that `KEY|==|PATH` falls between them; only then are they sorted.
        public func units(locale: LocaleID) -> [XLIFFUnit] {
            let units = units(locale: locale, order: keyOrder, sortingPaths: true)
            if IDBytes(units).isStrictlyIncreasing() { return units }
            return sortedByID(self.units(locale: locale, order: Array(texts.indices), sortingPaths: false))
        }

        /// The units of the texts at `order`, each text's units in the order found or, with `sortingPaths`, in
        /// path byte order.
        private func units(locale: LocaleID, order: [Int], sortingPaths: Bool) -> [XLIFFUnit] {
            var units: [XLIFFUnit] = []
            units.reserveCapacity(texts.count)
            for index in order {
                let text = texts[index]
                let first = units.count
                var targets: [(path: String, value: String, state: String?)] = []
                for (path, unit) in forms(text.localizations?[locale.identifier]) {
                    guard let value = unit["value"]?.value.stringValue, !targets.contains(where: { $0.path == path }) else { continue }
                    targets.append((path, value, unit["state"]?.value.stringValue))
                }
                func source(_ path: String) -> String? { text.sources.first { $0.path == path }?.value }
                func unit(_ path: String, source: String) -> XLIFFUnit {
                    let target = targets.first { $0.path == path }
                    return XLIFFUnit(key: text.key, path: path, source: source, target: target?.value,
                                     state: target.map { xliffState($0.state) }, note: text.note)
                }
                for (path, value) in text.sources { units.append(unit(path, source: value)) }
                for target in targets where source(target.path) == nil {
                    units.append(unit(target.path, source: source(otherForm(target.path)) ?? source("") ?? text.written))
                }
                guard sortingPaths else { continue }
                // Insertion sort: a text has a few units, often in order already.
                for next in (first + 1)..<max(first + 1, units.count) {
                    var place = next
                    while place > first, units[place].path.utf8.lexicographicallyPrecedes(units[place - 1].path.utf8) {
                        units.swapAt(place, place - 1)
                        place -= 1
                    }
                }
            }
            return units
        }
    }

    /// `units` sorted by id in byte order, units with equal ids in their given order (what a stable sort comparing
    /// `id.utf8` gives): each id is laid out once and compared bytewise.
    public static func sortedByID(_ units: [XLIFFUnit]) -> [XLIFFUnit] {
        IDBytes(units).sortedIndices().map { units[$0] }
    }

    /// Strings (ids, keys) laid out once as UTF-8, end to end, for comparing in byte order without building them.
    struct IDBytes {
        private var bytes: [UInt8] = []
        /// Where each string starts, then where the last one ends.
        private var starts: [Int] = [0]

        init(_ units: [XLIFFUnit]) {
            starts.reserveCapacity(units.count + 1)
            for unit in units {
                bytes.append(contentsOf: unit.key.utf8)
                if !unit.path.isEmpty {
                    bytes.append(contentsOf: XLIFFUnit.pathSeparator.utf8)
                    bytes.append(contentsOf: unit.path.utf8)
                }
                starts.append(bytes.count)
            }
        }

        init(_ strings: [String]) {
            starts.reserveCapacity(strings.count + 1)
            for string in strings {
                bytes.append(contentsOf: string.utf8)
                starts.append(bytes.count)
            }
        }

        /// Whether string `a` comes before string `b` in byte order (a proper prefix first).
        private static func precedes(_ a: Int, _ b: Int, _ all: UnsafeBufferPointer<UInt8>, _ starts: UnsafeBufferPointer<Int>) -> Bool? {
            var i = starts[a], j = starts[b]
            let endA = starts[a + 1], endB = starts[b + 1]
            while i < endA, j < endB {
                if all[i] != all[j] { return all[i] < all[j] }
                i += 1
                j += 1
            }
            if i == endA, j == endB { return nil }
            return i == endA
        }

        /// The indices in byte order of their strings, equal strings in index order.
        func sortedIndices() -> [Int] {
            var order = Array(0..<(starts.count - 1))
            bytes.withUnsafeBufferPointer { all in
                starts.withUnsafeBufferPointer { starts in
                    order.sort { a, b in Self.precedes(a, b, all, starts) ?? (a < b) }
                }
            }
            return order
        }

        /// Whether each string comes strictly after the one before it.
        func isStrictlyIncreasing() -> Bool {
            bytes.withUnsafeBufferPointer { all in
                starts.withUnsafeBufferPointer { starts in
                    (0..<max(0, starts.count - 2)).allSatisfy { Self.precedes($0, $0 + 1, all, starts) == true }
                }
            }
        }
    }

    /// `path` with its last plural category replaced by `other`.
    private static func otherForm(_ path: String) -> String {
        var parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, parts[parts.count - 2] == "plural" else { return path }
        parts[parts.count - 1] = "other"
        return parts.joined(separator: ".")
    }

    /// The XLIFF 1.2 document for `units`, as Xcode lays it out: one `<file>` for `Localizable.xcstrings`.
    public static func document(_ units: [XLIFFUnit], sourceLanguage: LocaleID, locale: LocaleID, toolVersion: String) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<xliff xmlns=\"\(namespace)\" version=\"1.2\">\n"
        out += "  <file original=\"Localizable.xcstrings\" source-language=\"\(escape(sourceLanguage.identifier))\" "
            + "target-language=\"\(escape(locale.identifier))\" datatype=\"plaintext\">\n"
        out += "    <header>\n"
        out += "      <tool tool-id=\"tipcat\" tool-name=\"tipcat\" tool-version=\"\(escape(toolVersion))\"/>\n"
        out += "    </header>\n"
        out += "    <body>\n"
        for unit in units {
            out += "      <trans-unit id=\"\(escape(unit.id))\" xml:space=\"preserve\">\n"
            out += "        <source>\(escape(unit.source))</source>\n"
            if let target = unit.target {
                out += "        <target state=\"\(escape(unit.state ?? "translated"))\">\(escape(target))</target>\n"
            }
            if let note = unit.note {
                out += "        <note>\(escape(note))</note>\n"
            }
            out += "      </trans-unit>\n"
        }
        out += "    </body>\n"
        out += "  </file>\n"
        out += "</xliff>\n"
        return out
    }

    /// `document(units, sourceLanguage:locale:toolVersion:)` as UTF-8, written straight into one buffer.
    public static func documentBytes(_ units: [XLIFFUnit], sourceLanguage: LocaleID, locale: LocaleID, toolVersion: String) -> [UInt8] {
        var out = XMLBytes()
        out.bytes.reserveCapacity(512 + units.reduce(0) { size, unit in
            size + 120 + 2 * (unit.key.utf8.count + unit.path.utf8.count) + unit.source.utf8.count
                + (unit.target?.utf8.count ?? 0) + (unit.note?.utf8.count ?? 0)
        })
        out.header(sourceLanguage: sourceLanguage, locale: locale, toolVersion: toolVersion)
        for unit in units {
            out.opening(key: unit.key, path: unit.path, source: unit.source)
            if let target = unit.target { out.target(value: target, state: unit.state ?? "translated") }
            out.closing(note: unit.note)
        }
        out.footer()
        return out.bytes
    }

    /// `escape(text)` as UTF-8, made as `documentBytes` escapes.
    public static func escapedBytes(_ text: String) -> [UInt8] {
        var out = XMLBytes()
        out.escaped(text)
        return out.bytes
    }

    /// A UTF-8 buffer that XML text is appended to, escaped as `escape(_:)` does, byte by byte.
    struct XMLBytes {
        var bytes: [UInt8] = []

        /// From the XML declaration to `<body>`.
        mutating func header(sourceLanguage: LocaleID, locale: LocaleID, toolVersion: String) {
            raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
            raw("<xliff xmlns=\"\(namespace)\" version=\"1.2\">\n")
            raw("  <file original=\"Localizable.xcstrings\" source-language=\"")
            escaped(sourceLanguage.identifier)
            raw("\" target-language=\"")
            escaped(locale.identifier)
            raw("\" datatype=\"plaintext\">\n")
            raw("    <header>\n")
            raw("      <tool tool-id=\"tipcat\" tool-name=\"tipcat\" tool-version=\"")
            escaped(toolVersion)
            raw("\"/>\n")
            raw("    </header>\n")
            raw("    <body>\n")
        }

        /// A unit's `<trans-unit>` and `<source>` lines.
        mutating func opening(key: String, path: String, source: String) {
            raw("      <trans-unit id=\"")
            escaped(key)
            if !path.isEmpty {
                raw(XLIFFUnit.pathSeparator)
                escaped(path)
            }
            raw("\" xml:space=\"preserve\">\n")
            raw("        <source>")
            escaped(source)
            raw("</source>\n")
        }

        /// A unit's `<target>` line.
        mutating func target(value: String, state: String) {
            raw("        <target state=\"")
            escaped(state)
            raw("\">")
            escaped(value)
            raw("</target>\n")
        }

        /// A unit's `<note>` line, if any, and `</trans-unit>`.
        mutating func closing(note: String?) {
            if let note {
                raw("        <note>")
                escaped(note)
                raw("</note>\n")
            }
            raw("      </trans-unit>\n")
        }

        /// From `</body>` to the end.
        mutating func footer() {
            raw("    </body>\n")
            raw("  </file>\n")
            raw("</xliff>\n")
        }

        /// `text` as it is.
        mutating func raw(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }

        /// `text` escaped: runs that need no escaping are copied whole. A Swift string is valid UTF-8, so a byte
        /// below 0x80 is always a whole character, and U+FFFE and U+FFFF are the only characters starting EF BF BE
        /// and EF BF BF.
        mutating func escaped(_ text: String) {
            var text = text
            text.withUTF8 { input in
                var run = 0, index = 0
                while index < input.count {
                    let byte = input[index]
                    let replacement: StaticString
                    var length = 1
                    switch byte {
                    case UInt8(ascii: "&"): replacement = "&amp;"
                    case UInt8(ascii: "<"): replacement = "&lt;"
                    case UInt8(ascii: ">"): replacement = "&gt;"
                    case UInt8(ascii: "\""): replacement = "&quot;"
                    case UInt8(ascii: "'"): replacement = "&apos;"
                    case UInt8(ascii: "\r"): replacement = "&#13;"
                    case UInt8(ascii: "\t"), UInt8(ascii: "\n"):
                        index += 1
                        continue
                    case 0..<0x20: replacement = "\u{FFFD}"
                    case 0xEF where index + 2 < input.count && input[index + 1] == 0xBF && input[index + 2] >= 0xBE:
                        replacement = "\u{FFFD}"
                        length = 3
                    default:
                        index += 1
                        continue
                    }
                    if run < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[run..<index])) }
                    replacement.withUTF8Buffer { bytes.append(contentsOf: $0) }
                    index += length
                    run = index
                }
                if run < input.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[run...])) }
            }
        }
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` as entity references, a carriage return as `&#13;` (so it survives
    /// line-end normalisation), and the characters XML 1.0 cannot hold (other control characters, U+FFFE, U+FFFF)
    /// as U+FFFD.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\r": out += "&#13;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// What importing one locale did.
    public struct MergeCounts: Sendable, Equatable {
        /// Strings the locale did not have.
        public var added = 0
        /// Strings whose value or state changed.
        public var changed = 0
        /// Strings already as imported.
        public var unchanged = 0
        /// No strings counted yet.
        public init() {}
    }

    /// Whether `path` names a variation the String Catalog has (`plural.C`, `device.D`, `device.D.plural.C`,
    /// `substitutions.NAME.plural.C`, `device.D.substitutions.NAME.plural.C`).
    public static func isValidPath(_ path: String) -> Bool {
        if path.isEmpty { return true }
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if let index = parts.firstIndex(of: "substitutions") {
            let plurals = PluralCategory.allCases.map(\.rawValue)
            let head = parts[..<index].joined(separator: ".")
            return (index == 0 || (index == 2 && isValidPath(head) && parts[0] == "device")) && parts.count == index + 4
                && IdentifierSyntax.isKebabIdentifier(parts[index + 1]) && parts[index + 2] == "plural" && plurals.contains(parts[index + 3])
        }
        guard parts.count == 2 || parts.count == 4 else { return false }
        let plurals = PluralCategory.allCases.map(\.rawValue)
        if parts.count == 2 {
            return (parts[0] == "plural" && plurals.contains(parts[1]))
                || (parts[0] == "device" && StringCatalogDecoder.devices.contains(parts[1]))
        }
        return parts[0] == "device" && StringCatalogDecoder.devices.contains(parts[1]) && parts[2] == "plural" && plurals.contains(parts[3])
    }

    /// `root` with each unit's target (units without one are skipped) set as `locale`'s string at the unit's key
    /// and path; the state is `catalogState(unit.state)`. A string whose value and state are already those is not
    /// touched, so the writer copies it byte for byte. Keys must exist in `strings` (checked by the caller).
    public static func merge(_ units: [XLIFFUnit], into root: JSONNode, locale: LocaleID) -> (root: JSONNode, counts: MergeCounts) {
        var counts = MergeCounts()
        guard var file = root.value.objectValue, let stringsNode = file["strings"], var strings = stringsNode.value.objectValue else {
            return (root, counts)
        }
        var positions: [String: Int] = [:]
        for (position, member) in strings.members.enumerated() where positions[member.key] == nil { positions[member.key] = position }
        var touched = false
        for unit in units {
            guard let target = unit.target, let index = positions[unit.key],
                  var entry = strings.members[index].value.value.objectValue else { continue }
            var localizations = entry["localizations"]?.value.objectValue ?? JSONObject()
            let steps = unit.path.isEmpty ? [] : unit.path.split(separator: ".").map(String.init)
            let (node, outcome) = setting(localizations[locale.identifier], steps[...], value: target, state: catalogState(unit.state),
                                          substitutionTemplate: { name in Self.substitutionTemplate(name, in: localizations) })
            switch outcome {
            case .unchanged:
                counts.unchanged += 1
                continue
            case .added: counts.added += 1
            case .changed: counts.changed += 1
            }
            touched = true
            localizations.set(locale.identifier, node.value)
            entry.set("localizations", .object(localizations))
            strings.members[index].value = JSONNode(.object(entry), offset: strings.members[index].value.offset)
        }
        guard touched else { return (root, counts) }
        file.set("strings", .object(strings))
        return (JSONNode(.object(file), offset: root.offset), counts)
    }

    private enum Outcome { case added, changed, unchanged }

    /// A substitution's `argNum` and `formatSpecifier` as another localization of the key has them, for a locale
    /// that gets its first form of that substitution.
    static func substitutionTemplate(_ name: String, in localizations: JSONObject) -> JSONObject {
        for member in localizations.members {
            guard let substitution = member.value.value.objectValue?["substitutions"]?.value.objectValue?[name]?.value.objectValue else { continue }
            return JSONObject(substitution.members.filter { $0.key == "argNum" || $0.key == "formatSpecifier" })
        }
        return JSONObject()
    }

    /// `node` (a localization or variation) with the string unit at `steps` (`plural`, `one`, …) set.
    private static func setting(
        _ node: JSONNode?, _ steps: ArraySlice<String>, value: String, state: String,
        substitutionTemplate: (String) -> JSONObject = { _ in JSONObject() }
    ) -> (JSONNode, Outcome) {
        var object = node?.value.objectValue ?? JSONObject()
        let outcome: Outcome
        if steps.count < 2 {
            let existing = object["stringUnit"]?.value.objectValue
            if let existing, existing["value"]?.value.stringValue == value, existing["state"]?.value.stringValue == state,
               let node {
                return (node, .unchanged)
            }
            var unit = existing ?? JSONObject()
            unit.set("state", .string(state), ifChanged: true)
            unit.set("value", .string(value), ifChanged: true)
            object.set("stringUnit", .object(unit))
            outcome = existing == nil ? .added : .changed
        } else if steps[steps.startIndex] == "substitutions" {
            let name = steps[steps.startIndex + 1]
            var substitutions = object["substitutions"]?.value.objectValue ?? JSONObject()
            let existing = substitutions[name]
            let start = existing ?? JSONNode(.object(substitutionTemplate(name)))
            let (child, inner) = setting(start, steps.dropFirst(2), value: value, state: state)
            if inner == .unchanged, let node { return (node, .unchanged) }
            substitutions.set(name, child.value)
            object.set("substitutions", .object(substitutions))
            outcome = inner
        } else {
            let kind = steps[steps.startIndex], name = steps[steps.startIndex + 1]
            var variations = object["variations"]?.value.objectValue ?? JSONObject()
            var group = variations[kind]?.value.objectValue ?? JSONObject()
            let (child, inner) = setting(group[name], steps.dropFirst(2), value: value, state: state, substitutionTemplate: substitutionTemplate)
            if inner == .unchanged, let node { return (node, .unchanged) }
            group.set(name, child.value)
            variations.set(kind, .object(group))
            object.set("variations", .object(variations))
            outcome = inner
        }
        return (JSONNode(.object(object), offset: node?.offset ?? -1), outcome)
    }
}
