import TipcatCodec
import TipcatJSON

/// Turns pairs of canonical JSON pieces into field-level changes.
enum DiffBuilder {
    /// Values under these keys are shown whole (a type, a default value) rather than field by field.
    static let atomicKeys: Set<String> = ["type", "default"]

    /// Leaves of a piece: path → JSON text.
    static func flatten(_ value: JSONValue, prefix: String = "", into leaves: inout [String: String]) {
        func join(_ key: String) -> String { prefix.isEmpty ? key : prefix + "." + key }
        switch value {
        case .object(let object):
            for member in object.members {
                if atomicKeys.contains(member.key) {
                    leaves[join(member.key)] = render(member.value.value)
                } else {
                    flatten(member.value.value, prefix: join(member.key), into: &leaves)
                }
            }
        case .array(let elements):
            if let key = identifyingKey(elements) {
                for element in elements {
                    guard case .object(let object) = element.value, let id = object[key]?.value.stringValue else { continue }
                    var rest = object
                    rest.members.removeAll { $0.key == key }
                    flatten(.object(rest), prefix: "\(prefix)[\(id)]", into: &leaves)
                }
            } else if elements.isEmpty {
                leaves[prefix] = "[]"
            } else {
                for (index, element) in elements.enumerated() {
                    flatten(element.value, prefix: "\(prefix)[\(index)]", into: &leaves)
                }
            }
        default:
            leaves[prefix] = render(value)
        }
    }

    /// `id` or `name` when every element is an object with a distinct string under it.
    static func identifyingKey(_ elements: [JSONNode]) -> String? {
        guard !elements.isEmpty else { return nil }
        for key in ["id", "name"] {
            var seen = Set<String>()
            let all = elements.allSatisfy { element in
                guard case .object(let object) = element.value, let id = object[key]?.value.stringValue else { return false }
                return seen.insert(id).inserted
            }
            if all { return key }
        }
        return nil
    }

    static func render(_ value: JSONValue) -> String { value.serialized(sortedKeys: true) }

    /// Field changes of one subject; a subject present on one side only is one added/removed change.
    static func subject(
        _ old: JSONValue?, _ new: JSONValue?, area: CatalogChange.Area, subject: String, dropping key: String? = nil
    ) -> [CatalogChange] {
        switch (old, new) {
        case (nil, nil): return []
        case (nil, let value?): return [CatalogChange(.added, area, subject: subject, new: headline(title(value)))]
        case (let value?, nil): return [CatalogChange(.removed, area, subject: subject, old: headline(title(value)))]
        case (let before?, let after?):
            return fields(strip(before, key), strip(after, key), area: area, subject: subject)
        }
    }

    /// The title a piece is shown with when added or removed whole: its `title` when that is a string.
    static func title(_ value: JSONValue) -> String? {
        guard case .object(let object) = value, case .string(let title)? = object["title"]?.value else { return nil }
        return title
    }

    /// What an added or removed subject is shown with: its title, else nothing.
    static func headline(_ title: String?) -> String? { title.map { render(.string($0)) } }

    static func strip(_ value: JSONValue, _ key: String?) -> JSONValue {
        guard let key, case .object(var object) = value else { return value }
        object.members.removeAll { $0.key == key }
        return .object(object)
    }

    /// Field-by-field changes between two versions of one piece.
    static func fields(_ old: JSONValue?, _ new: JSONValue?, area: CatalogChange.Area, subject: String) -> [CatalogChange] {
        if old == nil, new != nil { return [CatalogChange(.added, area, subject: subject)] }
        if old != nil, new == nil { return [CatalogChange(.removed, area, subject: subject)] }
        var before: [String: String] = [:]
        var after: [String: String] = [:]
        if let old { flatten(old, into: &before) }
        if let new { flatten(new, into: &after) }
        var changes: [CatalogChange] = []
        for path in Set(before.keys).union(after.keys).sorted() {
            let field = path.isEmpty ? nil : path
            switch (before[path], after[path]) {
            case (nil, let value?): changes.append(CatalogChange(.added, area, subject: subject, field: field, new: value))
            case (let value?, nil): changes.append(CatalogChange(.removed, area, subject: subject, field: field, old: value))
            case (let a?, let b?) where a != b:
                changes.append(CatalogChange(.changed, area, subject: subject, field: field, old: a, new: b))
            default: break
            }
        }
        return changes
    }

    /// Changes of a list of declarations identified by `key` (parameters by name, events and groups by id).
    static func keyedList(_ old: JSONValue?, _ new: JSONValue?, area: CatalogChange.Area, key: String) -> [CatalogChange] {
        func byKey(_ value: JSONValue?) -> [String: JSONValue] {
            guard case .array(let elements)? = value else { return [:] }
            var result: [String: JSONValue] = [:]
            for element in elements {
                if case .object(let object) = element.value, let id = object[key]?.value.stringValue { result[id] = element.value }
            }
            return result
        }
        let before = byKey(old)
        let after = byKey(new)
        var changes: [CatalogChange] = []
        for id in Set(before.keys).union(after.keys).sorted() where before[id] != after[id] {
            changes += subject(before[id], after[id], area: area, subject: id, dropping: key)
        }
        return changes
    }

    /// Changes of one owner's translations: per key, per locale, old → new text; and translator comments.
    static func translations(_ old: JSONValue?, _ new: JSONValue?) -> [CatalogChange] {
        func entries(_ value: JSONValue?) -> [String: JSONObject] {
            guard case .object(let object)? = value else { return [:] }
            var result: [String: JSONObject] = [:]
            for member in object.members { if case .object(let entry) = member.value.value { result[member.key] = entry } }
            return result
        }
        func texts(_ entry: JSONObject?) -> [String: String] {
            guard case .object(let localizations)? = entry?["localizations"]?.value else { return [:] }
            var result: [String: String] = [:]
            for member in localizations.members { result[member.key] = translationText(member.value.value) }
            return result
        }
        // The locales alone, for a key added or removed whole (its texts are not shown).
        func localeNames(_ entry: JSONObject?) -> [String] {
            guard case .object(let localizations)? = entry?["localizations"]?.value else { return [] }
            return localizations.members.map(\.key)
        }
        let before = entries(old)
        let after = entries(new)
        var changes: [CatalogChange] = []
        for key in Set(before.keys).union(after.keys).sorted() {
            // A key that appears or disappears as a whole is one change listing its locales.
            if before[key] == nil || after[key] == nil {
                let locales = ObjectOutline.localeList(localeNames(before[key] ?? after[key]))
                changes.append(wholeKey(key, locales: locales, added: before[key] == nil))
                continue
            }
            let oldComment = before[key]?["comment"].map { render($0.value) }
            let newComment = after[key]?["comment"].map { render($0.value) }
            if oldComment != newComment {
                let kind: CatalogChange.Kind = oldComment == nil ? .added : newComment == nil ? .removed : .changed
                changes.append(CatalogChange(kind, .translation, subject: key, field: "comment", old: oldComment, new: newComment))
            }
            let oldTexts = texts(before[key])
            let newTexts = texts(after[key])
            for locale in Set(oldTexts.keys).union(newTexts.keys).sorted() where oldTexts[locale] != newTexts[locale] {
                let kind: CatalogChange.Kind = oldTexts[locale] == nil ? .added : newTexts[locale] == nil ? .removed : .changed
                changes.append(CatalogChange(
                    kind, .translation, subject: key, locale: locale, old: oldTexts[locale], new: newTexts[locale]))
            }
        }
        return changes
    }

    /// A translation key that appears or disappears as a whole: one change listing its locales (its texts are not
    /// shown).
    static func wholeKey(_ key: String, locales: String, added: Bool) -> CatalogChange {
        added
            ? CatalogChange(.added, .translation, subject: key, new: locales)
            : CatalogChange(.removed, .translation, subject: key, old: locales)
    }

    /// The changes of translation keys added whole, as `translations(nil, _)` makes them from their object.
    static func addedKeys(_ keys: [ObjectOutline.Key], into changes: inout [CatalogChange]) {
        for key in keys.sorted(by: { $0.key < $1.key }) { changes.append(wholeKey(key.key, locales: key.locales, added: true)) }
    }

    static let pluralOrder = ["zero", "one", "two", "few", "many", "other"]

    /// A translation as one line: the quoted message, or `one: "…", other: "…"` for plural variations; its
    /// state in brackets unless translated.
    static func translationText(_ value: JSONValue) -> String {
        guard case .object(let object) = value else { return render(value) }
        var text: String
        if let message = object["message"]?.value {
            text = render(message)
        } else if case .object(let plural)? = object["plural"]?.value, case .object(let forms)? = plural["forms"]?.value {
            let ordered = forms.members.sorted {
                (pluralOrder.firstIndex(of: $0.key) ?? 99, $0.key) < (pluralOrder.firstIndex(of: $1.key) ?? 99, $1.key)
            }
            text = ordered.map { "\($0.key): \(render($0.value.value))" }.joined(separator: ", ")
        } else {
            text = render(value)
        }
        if let state = object["state"]?.value.stringValue, state != "translated" { text += " [\(state)]" }
        return text
    }
}
