import TipcatCore

extension Value {
    /// The value in the canonical form for `type`, or nil when it does not conform: ints become doubles where
    /// a double is declared, lists become sets (duplicates removed, first occurrence kept) where a set is.
    func normalized(to type: ValueType) -> Value? {
        guard conforms(to: type) else { return nil }
        switch (self, type) {
        case (_, .optional(let wrapped)):
            return normalized(to: wrapped)
        case (.int(let int), .double):
            return .double(Double(int))
        case (.list(let values), .list(let element)):
            return .list(values.compactMap { $0.normalized(to: element) })
        case (.list(let values), .set(let element)), (.set(let values), .set(let element)):
            var seen = Set<Value>()
            var unique: [Value] = []
            for value in values {
                guard let normal = value.normalized(to: element) else { continue }
                if seen.insert(normal).inserted { unique.append(normal) }
            }
            return .set(unique)
        case (.record(let fields), .record(let declared)):
            var result: [String: Value] = [:]
            for field in declared {
                if let value = fields[field.name]?.normalized(to: field.type) { result[field.name] = value }
            }
            return .record(result)
        default:
            return self
        }
    }

    /// The value at a dotted path below this value (`id` of a record), for custom-ID templates.
    func value(atPath path: ArraySlice<Substring>) -> Value? {
        guard let first = path.first else { return self }
        guard case .record(let fields) = self, let child = fields[String(first)] else { return nil }
        return child.value(atPath: path.dropFirst())
    }
}
