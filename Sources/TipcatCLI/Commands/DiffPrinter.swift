import TipcatJSON
import TipcatStore

/// Prints a `CatalogDiff` for people (grouped, with + - ~ markers) or as JSON.
enum DiffPrinter {
    static func symbol(_ kind: CatalogChange.Kind) -> String {
        switch kind {
        case .added: "+"
        case .removed: "-"
        case .changed: "~"
        }
    }

    static func subjectLabel(_ change: CatalogChange) -> String {
        change.area == .settings ? "settings" : "\(change.area.rawValue) \(change.subject)"
    }

    /// ```
    /// ~ tip NewTrailTip
    ///     ~ message: "To see key trail info…" → "For key trail info…"
    /// + tip FooTip: "Its title"
    /// ~ translation NewTrailTip.message
    ///     ~ fr: "…" → "…"
    /// ```
    static func text(_ diff: CatalogDiff) -> String {
        var out = ""
        var index = 0
        let changes = diff.changes
        while index < changes.count {
            let first = changes[index]
            var end = index
            while end < changes.count, changes[end].area == first.area, changes[end].subject == first.subject { end += 1 }
            let group = changes[index..<end]
            if group.count == 1, first.field == nil, first.locale == nil {
                let detail = first.kind == .removed ? first.old : first.new
                out += "\(symbol(first.kind)) \(subjectLabel(first))" + (detail.map { ": \($0)" } ?? "") + "\n"
            } else {
                out += "~ \(subjectLabel(first))\n"
                for change in group {
                    let name = change.locale ?? change.field ?? "(whole)"
                    switch change.kind {
                    case .added: out += "    + \(name): \(change.new ?? "")\n"
                    case .removed: out += "    - \(name): \(change.old ?? "")\n"
                    case .changed: out += "    ~ \(name): \(change.old ?? "") → \(change.new ?? "")\n"
                    }
                }
            }
            index = end
        }
        return out
    }

    static func json(_ change: CatalogChange) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("change", .string(change.kind.rawValue)), ("area", .string(change.area.rawValue)), ("id", .string(change.subject)),
        ]
        if let field = change.field { pairs.append(("field", .string(field))) }
        if let locale = change.locale { pairs.append(("locale", .string(locale))) }
        if let old = change.old { pairs.append(("old", .string(old))) }
        if let new = change.new { pairs.append(("new", .string(new))) }
        return .object(pairs)
    }

    static func json(_ diff: CatalogDiff) -> [(String, JSONValue)] {
        [
            ("summary", .string(diff.summary)),
            ("changes", .array(diff.changes.map(json))),
            ("changedTips", .array(diff.changedTips.map { .string($0) })),
            ("resets", .array(diff.resets.map { .string($0) })),
        ]
    }
}

extension VersionRecord {
    /// The record as JSON, for `versions --json` and `show-version --json`.
    func json(heads: [String]) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("number", .int(number)), ("channel", .string(channel)),
            ("parent", parent.map { .int($0) } ?? .null), ("source", source.map { .int($0) } ?? .null),
            ("type", .string(type.rawValue)), ("author", .string(author)), ("time", .string(createdAt)),
            ("message", .string(message)), ("contentHash", .string(contentHash.hex)),
            ("tipcatVersion", .string(tipcatVersion)), ("tipsChanged", .int(tipsChanged)),
        ]
        pairs.append(("heads", .array(heads.map { .string($0) })))
        return .object(pairs)
    }
}
