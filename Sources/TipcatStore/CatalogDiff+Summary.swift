extension CatalogDiff {
    /// The diff in one line, used as the default publish message:
    /// `NewTrailTip: message`, `3 tips changed (A, B, C); 2 translations`, `initial version: 16 tips, 2 groups`.
    public var summary: String {
        if changes.isEmpty { return "no changes" }
        func names(_ list: [String]) -> String {
            list.count <= 3 ? list.joined(separator: ", ") : list.prefix(3).joined(separator: ", ") + ", …"
        }
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        // Each subject once, in order. The changes are sorted by area and subject, so a subject repeats only right
        // after itself (no set to hash a first version's hundred thousand subjects into); changes that come out of
        // order (a diff made by hand) are told apart with a set from the first that does.
        func subjects(_ area: CatalogChange.Area, _ kind: CatalogChange.Kind? = nil, wholeOnly: Bool = false) -> [String] {
            var ordered: [String] = []
            var inOrder = true
            var seen = Set<String>()
            // By index: a change is read in place, not copied (which retains each of its strings).
            for index in changes.indices
            where changes[index].area == area && (kind == nil || changes[index].kind == kind) && (!wholeOnly || changes[index].field == nil) {
                let subject = changes[index].subject
                if inOrder, let last = ordered.last {
                    if subject == last { continue }
                    if subject < last {
                        inOrder = false
                        seen = Set(ordered)
                    }
                }
                if !inOrder, !seen.insert(subject).inserted { continue }
                ordered.append(subject)
            }
            return ordered
        }
        if isInitial {
            var parts = [count(subjects(.tip, .added).count, "tip")]
            for (area, noun) in [(CatalogChange.Area.group, "group"), (.event, "event"), (.parameter, "parameter")] {
                let number = subjects(area, .added).count
                if number > 0 { parts.append(count(number, noun)) }
            }
            let keys = subjects(.translation, .added).count
            if keys > 0 { parts.append(count(keys, "translated text")) }
            return "initial version: " + parts.joined(separator: ", ")
        }
        var parts: [String] = []
        let added = subjects(.tip, .added, wholeOnly: true)
        let removed = subjects(.tip, .removed, wholeOnly: true)
        let whole = Set(added).union(removed)
        let changed = subjects(.tip).filter { !whole.contains($0) }
        if changed.count == 1, let tip = changed.first {
            var fields: [String] = []
            for change in changes where change.area == .tip && change.subject == tip {
                let field = topLevel(change.field ?? "")
                if !fields.contains(field) { fields.append(field) }
            }
            parts.append("\(tip): \(fields.joined(separator: ", "))")
        } else if !changed.isEmpty {
            parts.append("\(count(changed.count, "tip")) changed (\(names(changed)))")
        }
        if !added.isEmpty { parts.append(added.count == 1 ? "added \(added[0])" : "added \(count(added.count, "tip")) (\(names(added)))") }
        if !removed.isEmpty {
            parts.append(removed.count == 1 ? "removed \(removed[0])" : "removed \(count(removed.count, "tip")) (\(names(removed)))")
        }
        let translations = changes.filter { $0.area == .translation }
        if !translations.isEmpty {
            let locales = Set(translations.compactMap(\.locale)).sorted()
            parts.append(count(translations.count, "translation change") + (locales.isEmpty ? "" : " (\(names(locales)))"))
        }
        if changes.contains(where: { $0.area == .settings }) {
            let fields = Set(changes.filter { $0.area == .settings }.map { topLevel($0.field ?? "") }).sorted()
            parts.append("settings: \(fields.joined(separator: ", "))")
        }
        for (area, noun) in [(CatalogChange.Area.parameter, "parameter"), (.event, "event"), (.group, "group")] {
            let touched = subjects(area)
            guard !touched.isEmpty else { continue }
            let addedHere = Set(subjects(area, .added, wholeOnly: true))
            let removedHere = Set(subjects(area, .removed, wholeOnly: true))
            let marked = touched.map { subject -> String in
                addedHere.contains(subject) ? "+" + subject : removedHere.contains(subject) ? "-" + subject : subject
            }
            parts.append("\(noun)\(touched.count == 1 ? "" : "s") \(names(marked))")
        }
        return parts.joined(separator: "; ")
    }

    /// `options` for `options.maxDisplayCount`, `actions` for `actions[go].title`.
    private func topLevel(_ field: String) -> String {
        String(field.prefix { $0 != "." && $0 != "[" })
    }
}
