public import TipcatLocalization

/// Values by locale, for the dozen or so locales of one String Catalog entry: the pairs in one small array, in
/// the locales' canonical order (their identifiers' UTF-8 bytes), found by a scan.
///
/// A catalog of thousands of tips has tens of thousands of entries; a dictionary for each costs a third more
/// memory than its pairs (its buckets are a power of two, a quarter of them at least left empty) and hashes every
/// locale it is asked for. Reads as a dictionary does: `map[locale]`, `keys`, `values`, and `(key, value)` pairs
/// when iterated, here always in canonical order.
public struct LocaleMap<Value>: RandomAccessCollection {
    public typealias Element = (key: LocaleID, value: Value)

    private var pairs: [Element]

    /// No values.
    public init() {
        pairs = []
    }

    /// The pairs of `dictionary`.
    public init(_ dictionary: [LocaleID: Value]) {
        pairs = dictionary.map { $0 }
        pairs.sort { LocaleMap.precedes($0.key, $1.key) }
    }

    public var startIndex: Int { pairs.startIndex }
    public var endIndex: Int { pairs.endIndex }
    public subscript(position: Int) -> Element { pairs[position] }

    /// The value for `locale`; setting nil removes it.
    public subscript(locale: LocaleID) -> Value? {
        get {
            for pair in pairs where pair.key == locale { return pair.value }
            return nil
        }
        set {
            if let index = pairs.firstIndex(where: { $0.key == locale }) {
                if let newValue { pairs[index].value = newValue } else { pairs.remove(at: index) }
            } else if let newValue {
                let index = pairs.firstIndex { LocaleMap.precedes(locale, $0.key) } ?? pairs.endIndex
                pairs.insert((locale, newValue), at: index)
            }
        }
    }

    /// Makes room for `count` values in all, so that setting them one by one allocates once, at that size (an
    /// array grows by doubling: eleven locales would take room for sixteen).
    public mutating func reserveCapacity(_ count: Int) {
        pairs.reserveCapacity(count)
    }

    /// How many values fit without allocating again.
    package var capacity: Int { pairs.capacity }

    /// The locales, in canonical order.
    public var keys: [LocaleID] { pairs.map(\.key) }

    /// The values, in their locales' canonical order.
    public var values: [Value] { pairs.map(\.value) }

    /// The same locales with `transform` of each value.
    public func mapValues<Other>(_ transform: (Value) throws -> Other) rethrows -> LocaleMap<Other> {
        var mapped = LocaleMap<Other>()
        mapped.pairs = try pairs.map { ($0.key, try transform($0.value)) }
        return mapped
    }

    /// The pairs as a dictionary.
    public var dictionary: [LocaleID: Value] { Dictionary(pairs, uniquingKeysWith: { first, _ in first }) }

    /// Whether `lhs` comes before `rhs` in canonical order.
    static func precedes(_ lhs: LocaleID, _ rhs: LocaleID) -> Bool {
        lhs.identifier.utf8.lexicographicallyPrecedes(rhs.identifier.utf8)
    }
}

extension LocaleMap: Sendable where Value: Sendable {}

extension LocaleMap: Equatable where Value: Equatable {
    /// The same locales with equal values (the pairs are in one order, whatever order they were set in).
    public static func == (lhs: LocaleMap, rhs: LocaleMap) -> Bool {
        lhs.pairs.count == rhs.pairs.count && zip(lhs.pairs, rhs.pairs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension LocaleMap: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(pairs.count)
        for pair in pairs {
            hasher.combine(pair.key)
            hasher.combine(pair.value)
        }
    }
}

extension LocaleMap: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (LocaleID, Value)...) {
        self.init()
        for (locale, value) in elements { self[locale] = value }
    }
}

extension LocaleMap: CustomStringConvertible {
    public var description: String {
        "[" + pairs.map { "\($0.key.identifier): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
