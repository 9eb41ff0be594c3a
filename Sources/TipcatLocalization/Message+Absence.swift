extension Message {
    /// The paths this message gives a text for when they have no value: those of selects with a `nil` case.
    public var pathsWithAbsentCase: Set<String> {
        // Only a select has a `nil` case: most messages have none, and are not walked.
        guard placeholders.contains(where: { $0.kind == .select }) else { return [] }
        var paths = Set<String>()
        func walk(_ parts: [MessagePart]) {
            for part in parts {
                switch part {
                case .select(let path, let cases):
                    if cases.contains(where: { $0.selector == Message.absentSelector }) { paths.insert(path) }
                    for messageCase in cases { walk(messageCase.parts) }
                case .plural(_, _, let cases):
                    for messageCase in cases { walk(messageCase.parts) }
                default:
                    break
                }
            }
        }
        walk(parts)
        return paths
    }

    /// The arguments that would have nothing to print when the paths for which `mayBeAbsent` is true have no
    /// value, in source order.
    ///
    /// An argument at path `p` handles its absence when it is a select with a `nil` case, or when it sits in a
    /// case other than `nil` of such a select on `p` itself or on every prefix of `p` that may be absent
    /// (`trail` for `trail.name`): there the value is known to be present.
    public func placeholdersWithoutAbsentCase(mayBeAbsent: (String) -> Bool) -> [Placeholder] {
        var found: [Placeholder] = []
        var index = 0
        let aligned = argumentCount(parts) == placeholders.count
        func placeholder(_ path: String) -> Placeholder {
            if aligned, index < placeholders.count { return placeholders[index] }
            return placeholders.first { $0.path == path } ?? Placeholder(path: path, kind: .value, offset: 0, length: 0)
        }
        func check(_ path: String, handlesAbsence: Bool, guarded: Set<String>) {
            defer { index += 1 }
            guard !handlesAbsence, !guarded.contains(path) else { return }
            let open = Message.prefixes(of: path).filter { mayBeAbsent($0) && !guarded.contains($0) }
            if !open.isEmpty { found.append(placeholder(path)) }
        }
        func walk(_ parts: [MessagePart], guarded: Set<String>) {
            for part in parts {
                switch part {
                case .placeholder(let path), .number(let path, _, _):
                    check(path, handlesAbsence: false, guarded: guarded)
                case .plural(let path, _, let cases):
                    check(path, handlesAbsence: false, guarded: guarded)
                    for messageCase in cases { walk(messageCase.parts, guarded: guarded) }
                case .select(let path, let cases):
                    let handles = cases.contains { $0.selector == Message.absentSelector }
                    check(path, handlesAbsence: handles, guarded: guarded)
                    for messageCase in cases {
                        let present = handles && messageCase.selector != Message.absentSelector
                        walk(messageCase.parts, guarded: present ? guarded.union([path]) : guarded)
                    }
                case .text, .pound:
                    break
                }
            }
        }
        walk(parts, guarded: [])
        return found
    }

    /// `trail`, `trail.name` for `trail.name`.
    public static func prefixesOfPath(_ path: String) -> [String] { prefixes(of: path) }

    static func prefixes(of path: String) -> [String] {
        var result: [String] = []
        var current = ""
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            current = current.isEmpty ? String(part) : current + "." + part
            result.append(current)
        }
        return result
    }

    private func argumentCount(_ parts: [MessagePart]) -> Int {
        parts.reduce(0) { total, part in
            switch part {
            case .placeholder, .number: total + 1
            case .plural(_, _, let cases), .select(_, let cases): total + 1 + cases.reduce(0) { $0 + argumentCount($1.parts) }
            case .text, .pound: total
            }
        }
    }
}
