public import TipcatCore

/// The donations of one event, kept sorted by time in columns, ready for fast rule queries.
///
/// Timestamps are one sorted array, so a window (`within(5d)`), the donation limit and "not yet happened"
/// (a donation dated after `now`) are binary searches. Field values are interned per field: each column holds
/// small integers, so grouping (`largestSubset`) counts integers instead of hashing values, and a filter on one
/// field (`where(isFavorite == true)`) is decided once per distinct value.
///
/// The limit works as TipKit's: rules see at most the most recent `maxCount` stored donations, and none older
/// than `maxAge`. Donations beyond `maxCount` can never be seen again, so the log drops them (amortized O(1)).
public struct DonationLog: Sendable {
    /// TipKit's default: queries see the most recent 1,000 donations of an event.
    public static let defaultMaxCount = 1000

    /// At most this many of the most recent donations are visible to rules.
    public let maxCount: Int
    /// Donations older than this are not visible to rules.
    public let maxAge: TimeSpan?

    /// The columns, shared by copies until one of them changes (copying a log is one reference count).
    private var storage: Storage

    /// The event's field names, in declaration order; `append` takes values in this order.
    public var fields: [String] { storage.fields }

    /// Creates an empty log for an event with these fields and limit.
    public init(fields: [String], maxCount: Int = DonationLog.defaultMaxCount, maxAge: TimeSpan? = nil) {
        self.maxCount = max(0, maxCount)
        self.maxAge = maxAge
        self.storage = Storage(fields: fields)
    }

    /// Seconds since 1970 of each stored donation, ascending.
    var times: [Double] { storage.times }
    /// `columns[field][donation]` is an index into `pools[field].values`.
    var columns: [[Int32]] { storage.columns }
    var pools: [ValuePool] { storage.pools }
    /// `positions[field][value]`: the indices of the stored donations whose field has that value (an index
    /// into `pools[field].values`), ascending — so counting a value in a range of donations is two binary
    /// searches instead of a scan.
    var positions: [[[Int32]]] { storage.positions }

    /// How many donations are stored (visible or not).
    public var count: Int { storage.times.count }

    /// The position of `field` in `fields`.
    public func fieldIndex(_ field: String) -> Int? { storage.fields.firstIndex(of: field) }

    /// The time of the stored donation at `index` (0 is the oldest; the index must be valid).
    func timestamp(at index: Int) -> Timestamp { Timestamp(secondsSince1970: storage.times[index]) }

    /// The value of field number `field` of the stored donation at `index` (both must be valid).
    func value(ofField field: Int, at index: Int) -> Value {
        storage.pools[field].values[Int(storage.columns[field][index])]
    }

    /// Every stored donation, oldest first (for inspection and tests; rules use the indexed queries).
    public var donations: [Donation] {
        storage.times.indices.map { index in
            var values: [String: Value] = [:]
            for (field, name) in fields.enumerated() { values[name] = value(ofField: field, at: index) }
            return Donation(timestamp: timestamp(at: index), values: values)
        }
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// Adds a donation. `values` are parallel to `fields` (the engine checks their types beforehand); a
    /// donation with a different number of values is not stored.
    ///
    /// In-order donations append in O(1); a donation older than the newest one (a clock that moved backwards,
    /// an explicit past date) is inserted at its place in time. Returns true when the log dropped donations
    /// that can never be visible again (see `compactIfNeeded`), so a store can drop them too.
    @discardableResult
    public mutating func append(at timestamp: Timestamp, values: [Value]) -> Bool {
        append(at: timestamp, values: values[...])
    }

    /// `append(at:values:)` with the values in a slice (loading many donations from one flat array).
    @discardableResult
    public mutating func append(at timestamp: Timestamp, values: ArraySlice<Value>) -> Bool {
        guard values.count == storage.fields.count else { return false }
        makeUnique()
        let time = timestamp.secondsSince1970
        if storage.times.last.map({ $0 <= time }) ?? true {
            storage.append(time, values)
        } else {
            storage.insert(time, values, at: firstIndex(after: time))
        }
        return compactIfNeeded()
    }

    /// Removes every donation.
    public mutating func removeAll() {
        storage = Storage(fields: storage.fields)
    }

    /// Drops the donations that can never be visible again (all but the newest `maxCount`) once the log holds
    /// twice that many, so each append pays O(1) on average. Returns whether anything was dropped.
    @discardableResult
    mutating func compactIfNeeded() -> Bool {
        let slack = Swift.max(64, maxCount)
        guard storage.times.count >= maxCount + slack else { return false }
        makeUnique()
        storage.dropOldest(storage.times.count - maxCount)
        return true
    }

    // MARK: Index arithmetic

    /// The first stored index whose time is >= `time` (or `count`).
    func firstIndex(notBefore time: Double) -> Int {
        storage.times.withUnsafeBufferPointer { times in
            var low = 0
            var high = times.count
            while low < high {
                let mid = (low + high) / 2
                if times[mid] < time { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }

    /// The first stored index whose time is > `time` (or `count`).
    func firstIndex(after time: Double) -> Int {
        storage.times.withUnsafeBufferPointer { times in
            var low = 0
            var high = times.count
            while low < high {
                let mid = (low + high) / 2
                if times[mid] <= time { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }

    /// How many donations in `range` have value `value` (an index into `pools[field].values`) in `field`.
    func count(ofValue value: Int, inField field: Int, in range: Range<Int>) -> Int {
        storage.positions[field][value].withUnsafeBufferPointer { list in
            DonationLog.lowerBound(list, range.upperBound) - DonationLog.lowerBound(list, range.lowerBound)
        }
    }

    /// How many donations in `range` have each value of `field`, into `counts` (indexed by pooled value id).
    func count(inField field: Int, in range: Range<Int>, into counts: inout [Int32]) {
        storage.positions[field].withUnsafeBufferPointer { lists in
            for id in lists.indices where id < counts.count {
                counts[id] = lists[id].withUnsafeBufferPointer { list in
                    Int32(DonationLog.lowerBound(list, range.upperBound) - DonationLog.lowerBound(list, range.lowerBound))
                }
            }
        }
    }

    /// The first (`first`) or last index in `range` whose `field` has `value`, if any.
    func edge(ofValue value: Int, inField field: Int, in range: Range<Int>, first: Bool) -> Int? {
        storage.positions[field][value].withUnsafeBufferPointer { list in
            let low = DonationLog.lowerBound(list, range.lowerBound)
            let high = DonationLog.lowerBound(list, range.upperBound)
            guard low < high else { return nil }
            return Int(list[first ? low : high - 1])
        }
    }

    /// The first position in `list` (ascending) whose element is >= `bound`.
    static func lowerBound(_ list: UnsafeBufferPointer<Int32>, _ bound: Int) -> Int {
        var low = 0
        var high = list.count
        while low < high {
            let mid = (low + high) / 2
            if Int(list[mid]) < bound { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The donations rules may see at `now`, and when that set changes by time alone: the oldest visible one
    /// ages out under `maxAge` (`leavesAt`), or a donation dated after `now` comes due (`arrivesAt`).
    ///
    /// Visible: among the newest `maxCount` stored donations, those dated no later than `now` and no earlier
    /// than `now - maxAge`.
    func visible(at now: Double) -> (range: Range<Int>, leavesAt: Double, arrivesAt: Double) {
        let count = storage.times.count
        var lower = Swift.max(0, count - maxCount)
        if let maxAge { lower = Swift.max(lower, firstIndex(notBefore: now - maxAge.seconds)) }
        let upper = Swift.max(lower, firstIndex(after: now))
        var leavesAt = Double.infinity
        if let maxAge, lower < upper { leavesAt = (storage.times[lower] + maxAge.seconds).nextUp }
        let arrivesAt = upper < count ? storage.times[upper] : Double.infinity
        return (lower..<upper, leavesAt, arrivesAt)
    }

    /// The columns of a log. A class so copies of a log share them; changed only through a uniquely
    /// referenced instance (`makeUnique`), hence `@unchecked Sendable`.
    ///
    /// Exclusivity is not checked at run time: every access is a plain read or a mutation inside one method,
    /// and the checks cost more than the work on the hot paths.
    final class Storage: @unchecked Sendable {
        let fields: [String]
        @exclusivity(unchecked) var times: [Double] = []
        @exclusivity(unchecked) var columns: [[Int32]]
        @exclusivity(unchecked) var pools: [ValuePool]
        @exclusivity(unchecked) var positions: [[[Int32]]]

        init(fields: [String]) {
            self.fields = fields
            self.columns = fields.map { _ in [] }
            self.pools = fields.map { _ in ValuePool() }
            self.positions = fields.map { _ in [] }
        }

        private init(copying other: Storage) {
            fields = other.fields
            times = other.times
            columns = other.columns
            pools = other.pools
            positions = other.positions
        }

        func copy() -> Storage { Storage(copying: self) }

        private func intern(_ value: Value, field: Int) -> Int32 {
            let id = pools[field].intern(value)
            if Int(id) == positions[field].count { positions[field].append([]) }
            return id
        }

        /// Appends a donation at least as new as every stored one.
        func append(_ time: Double, _ values: ArraySlice<Value>) {
            let index = Int32(truncatingIfNeeded: times.count)
            times.append(time)
            var value = values.startIndex
            for field in 0..<fields.count {
                let id = intern(values[value], field: field)
                columns[field].append(id)
                positions[field][Int(id)].append(index)
                value += 1
            }
        }

        /// Inserts an older donation at `position` (later indices shift, so the positions are rebuilt).
        func insert(_ time: Double, _ values: ArraySlice<Value>, at position: Int) {
            times.insert(time, at: position)
            var value = values.startIndex
            for field in 0..<fields.count {
                columns[field].insert(intern(values[value], field: field), at: position)
                value += 1
            }
            rebuildPositions()
        }

        /// Drops the `count` oldest donations.
        func dropOldest(_ count: Int) {
            times.removeFirst(count)
            for field in fields.indices {
                columns[field].removeFirst(count)
                // Re-intern when most pooled values belong to dropped donations (high-cardinality fields).
                if pools[field].values.count > 2 * Swift.max(columns[field].count, 16) {
                    var pool = ValuePool()
                    let old = pools[field].values
                    columns[field] = columns[field].map { pool.intern(old[Int($0)]) }
                    pools[field] = pool
                }
            }
            rebuildPositions()
        }

        func rebuildPositions() {
            for field in fields.indices {
                var lists = [[Int32]](repeating: [], count: pools[field].count)
                for (index, id) in columns[field].enumerated() { lists[Int(id)].append(Int32(truncatingIfNeeded: index)) }
                positions[field] = lists
            }
        }
    }
}

/// One donation: when it happened and its field values.
public struct Donation: Sendable, Hashable {
    public var timestamp: Timestamp
    public var values: [String: Value]

    /// Creates a donation.
    public init(timestamp: Timestamp, values: [String: Value] = [:]) {
        self.timestamp = timestamp
        self.values = values
    }
}

/// Interned values of one field: each distinct value gets a small integer.
struct ValuePool: Sendable {
    private(set) var ids: [Value: Int32] = [:]
    private(set) var values: [Value] = []
    /// Ids of small non-negative ints and of bools, the usual field values, found without hashing (-1: none yet).
    private var smallInts: [Int32] = []
    private var bools: (Int32, Int32) = (-1, -1)

    static let smallIntLimit = 4096

    mutating func intern(_ value: Value) -> Int32 {
        switch value {
        case .int(let int) where int >= 0 && int < ValuePool.smallIntLimit:
            if int < smallInts.count, smallInts[int] >= 0 { return smallInts[int] }
            let id = add(value)
            if int >= smallInts.count { smallInts.append(contentsOf: repeatElement(-1, count: int + 1 - smallInts.count)) }
            smallInts[int] = id
            return id
        case .bool(let flag):
            let known = flag ? bools.1 : bools.0
            if known >= 0 { return known }
            let id = add(value)
            if flag { bools.1 = id } else { bools.0 = id }
            return id
        default:
            if let id = ids[value] { return id }
            return add(value)
        }
    }

    private mutating func add(_ value: Value) -> Int32 {
        let id = Int32(truncatingIfNeeded: values.count)
        ids[value] = id
        values.append(value)
        return id
    }

    var count: Int { values.count }
}
