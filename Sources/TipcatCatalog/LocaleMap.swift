public import TipcatLocalization

/// Values by locale, for the dozen or so locales of one String Catalog entry: the locales in one small array, in
/// their canonical order (their identifiers' UTF-8 bytes), found by a scan, and the values in another.
///
/// A catalog of thousands of tips has tens of thousands of entries; a dictionary for each costs a third more
/// memory than its pairs (its buckets are a power of two, a quarter of them at least left empty) and hashes every
/// locale it is asked for. Reads as a dictionary does: `map[locale]`, `keys`, `values`, and `(key, value)` pairs
/// when iterated, here always in canonical order.
public struct LocaleMap<Value>: RandomAccessCollection {
    public typealias Element = (key: LocaleID, value: Value)

    /// The locales in canonical order, and each one's value at the same index. The locales are an array of their
    /// own so that the many entries with the same locales share one (`shareLocales(with:)`). Changed only here.
    /// Reads are inlinable: a catalog's hundreds of thousands of translations are read through them in other
    /// modules (encoded, cached, checked), each call otherwise generic, copying its value through witness tables.
    @usableFromInline var locales: [LocaleID]
    @usableFromInline var storedValues: [Value]

    /// No values.
    @inlinable public init() {
        locales = []
        storedValues = []
    }

    /// The pairs of `dictionary`.
    public init(_ dictionary: [LocaleID: Value]) {
        let pairs = dictionary.sorted { LocaleMap.precedes($0.key, $1.key) }
        locales = pairs.map(\.key)
        storedValues = pairs.map(\.value)
    }

    @inlinable public var startIndex: Int { locales.startIndex }
    @inlinable public var endIndex: Int { locales.endIndex }
    @inlinable public subscript(position: Int) -> Element { (locales[position], storedValues[position]) }

    /// The value for `locale`; setting nil removes it.
    @inlinable public subscript(locale: LocaleID) -> Value? {
        get {
            guard let index = locales.firstIndex(of: locale) else { return nil }
            return storedValues[index]
        }
        set {
            if let newValue {
                insert(newValue, for: locale)
            } else if let index = locales.firstIndex(of: locale) {
                locales.remove(at: index)
                storedValues.remove(at: index)
            }
        }
    }

    /// Sets `value` for `locale` (as the subscript does), taking the value: it is moved into the map, not copied
    /// (and everything it holds retained) then dropped.
    @inlinable public mutating func insert(_ value: consuming Value, for locale: LocaleID) {
        // Locales set in canonical order (a String Catalog lists them so) are appended after one comparison.
        if locales.last.map({ LocaleMap.precedes($0, locale) }) ?? true {
            locales.append(locale)
            storedValues.append(value)
        } else if let index = locales.firstIndex(of: locale) {
            storedValues[index] = value
        } else {
            let index = locales.firstIndex { LocaleMap.precedes(locale, $0) } ?? locales.endIndex
            locales.insert(locale, at: index)
            storedValues.insert(value, at: index)
        }
    }

    /// Makes room for `count` values in all, so that setting them one by one allocates once, at that size (an
    /// array grows by doubling: eleven locales would take room for sixteen).
    public mutating func reserveCapacity(_ count: Int) {
        locales.reserveCapacity(count)
        storedValues.reserveCapacity(count)
    }

    /// How many values fit without allocating again.
    package var capacity: Int { storedValues.capacity }

    /// Takes the array of locales of an earlier map with the same locales from `known` (else adds its own, up to
    /// a few sets): a String Catalog's entries mostly have the same dozen locales, then kept once, not per entry.
    package mutating func shareLocales(with known: inout [[LocaleID]]) {
        guard !locales.isEmpty else { return }
        if let same = known.first(where: { $0 == locales }) {
            locales = same
        } else if known.count < 16 {
            locales = locales.map { $0 }  // a copy exactly as large as it is: it is kept
            known.append(locales)
        }
    }

    /// Whether two maps hold one array of locales (`shareLocales(with:)`).
    package func sharesLocales(with other: LocaleMap<some Any>) -> Bool { locales.isSameArray(as: other.keys) }

    /// The locales, in canonical order.
    @inlinable public var keys: [LocaleID] { locales }

    /// The values, in their locales' canonical order.
    @inlinable public var values: [Value] { storedValues }

    /// The same locales with `transform` of each value.
    public func mapValues<Other>(_ transform: (Value) throws -> Other) rethrows -> LocaleMap<Other> {
        var mapped = LocaleMap<Other>()
        mapped.locales = locales
        mapped.storedValues = try storedValues.map(transform)
        return mapped
    }

    /// The pairs as a dictionary.
    public var dictionary: [LocaleID: Value] { Dictionary(zip(locales, storedValues), uniquingKeysWith: { first, _ in first }) }

    /// Whether `lhs` comes before `rhs` in canonical order: their identifiers' UTF-8 order. Identifiers are ASCII
    /// (`LocaleID` accepts nothing else), whose `String` order is that order, and compared in place (short
    /// strings without leaving their registers): a String Catalog's locales come in any order, a dozen per key.
    @usableFromInline static func precedes(_ lhs: LocaleID, _ rhs: LocaleID) -> Bool {
        lhs.identifier < rhs.identifier
    }
}

extension LocaleMap: Sendable where Value: Sendable {}

extension LocaleMap: Equatable where Value: Equatable {
    /// The same locales with equal values (the pairs are in one order, whatever order they were set in).
    public static func == (lhs: LocaleMap, rhs: LocaleMap) -> Bool {
        lhs.locales == rhs.locales && lhs.storedValues == rhs.storedValues
    }
}

extension LocaleMap: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(locales.count)
        for (locale, value) in zip(locales, storedValues) {
            hasher.combine(locale)
            hasher.combine(value)
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
        "[" + zip(locales, storedValues).map { "\($0.identifier): \($1)" }.joined(separator: ", ") + "]"
    }
}

extension Array where Element == LocaleID {
    /// Whether this array and `other` are one array (the same storage, so the same locales): the entries of a String
    /// Catalog share their locales (`LocaleMap.shareLocales`), and one comparison then stands for a dozen.
    package func isSameArray(as other: [LocaleID]) -> Bool {
        count == other.count && withUnsafeBufferPointer { mine in
            other.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
    }
}
