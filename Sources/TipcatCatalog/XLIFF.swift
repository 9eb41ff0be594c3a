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

    /// Every string unit inside one localization, by variation path (`""`, `plural.one`, `device.mac.plural.one`).
    static func forms(_ node: JSONNode?, prefix: String = "") -> [(path: String, unit: JSONObject)] {
        guard let object = node?.value.objectValue else { return [] }
        var result: [(path: String, unit: JSONObject)] = []
        if let unit = object["stringUnit"]?.value.objectValue { result.append((prefix, unit)) }
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
        // One index of the String Catalog's keys: looking each tip text up in the object's member list would be
        // quadratic (20,000 keys at 5,000 tips).
        var strings: [String: JSONNode] = [:]
        for member in root?.value.objectValue?["strings"]?.value.objectValue?.members ?? [] where strings[member.key] == nil {
            strings[member.key] = member.value
        }
        var seen = Set<String>()
        var units: [XLIFFUnit] = []
        for tip in tips {
            for text in tip.localizableTexts where seen.insert(text.key).inserted {
                let entry = strings[text.key]?.value.objectValue
                let note = tip.comment ?? entry?["comment"]?.value.stringValue
                let localizations = entry?["localizations"]?.value.objectValue
                var sources: [String: String] = [:]
                var order: [String] = []
                for (path, unit) in forms(localizations?[sourceLanguage.identifier]) {
                    guard let value = unit["value"]?.value.stringValue, sources[path] == nil else { continue }
                    sources[path] = value
                    order.append(path)
                }
                if order.isEmpty {
                    sources[""] = text.source
                    order.append("")
                }
                var targets: [String: (value: String, state: String?)] = [:]
                for (path, unit) in forms(localizations?[locale.identifier]) {
                    guard let value = unit["value"]?.value.stringValue, targets[path] == nil else { continue }
                    targets[path] = (value, unit["state"]?.value.stringValue)
                    if sources[path] == nil { order.append(path) }
                }
                for path in order {
                    let source = sources[path] ?? sources[otherForm(path)] ?? sources[""] ?? text.source
                    let target = targets[path]
                    units.append(XLIFFUnit(key: text.key, path: path, source: source, target: target?.value,
                                           state: target.map { xliffState($0.state) }, note: note))
                }
            }
        }
        return units.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
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

    /// Whether `path` names a variation the String Catalog has (`plural.C`, `device.D`, `device.D.plural.C`).
    public static func isValidPath(_ path: String) -> Bool {
        if path.isEmpty { return true }
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
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
            let (node, outcome) = setting(localizations[locale.identifier], steps[...], value: target, state: catalogState(unit.state))
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

    /// `node` (a localization or variation) with the string unit at `steps` (`plural`, `one`, …) set.
    private static func setting(_ node: JSONNode?, _ steps: ArraySlice<String>, value: String, state: String) -> (JSONNode, Outcome) {
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
        } else {
            let kind = steps[steps.startIndex], name = steps[steps.startIndex + 1]
            var variations = object["variations"]?.value.objectValue ?? JSONObject()
            var group = variations[kind]?.value.objectValue ?? JSONObject()
            let (child, inner) = setting(group[name], steps.dropFirst(2), value: value, state: state)
            if inner == .unchanged, let node { return (node, .unchanged) }
            group.set(name, child.value)
            variations.set(kind, .object(group))
            object.set("variations", .object(variations))
            outcome = inner
        }
        return (JSONNode(.object(object), offset: node?.offset ?? -1), outcome)
    }
}
