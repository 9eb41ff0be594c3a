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

    /// The event's field names, in declaration order; `append` takes values in this order.
    public let fields: [String]
    /// At most this many of the most recent donations are visible to rules.
    public let maxCount: Int
    /// Donations older than this are not visible to rules.
    public let maxAge: TimeSpan?

    /// Seconds since 1970 of each stored donation, ascending.
    private(set) var times: [Double] = []
    /// `columns[field][donation]` is an index into `pools[field].values`.
    private(set) var columns: [[Int32]]
    private(set) var pools: [ValuePool]

    /// Creates an empty log for an event with these fields and limit.
    public init(fields: [String], maxCount: Int = DonationLog.defaultMaxCount, maxAge: TimeSpan? = nil) {
        self.fields = fields
        self.maxCount = max(0, maxCount)
        self.maxAge = maxAge
        self.columns = fields.map { _ in [] }
        self.pools = fields.map { _ in ValuePool() }
    }

    /// How many donations are stored (visible or not).
    public var count: Int { times.count }

    /// The position of `field` in `fields`.
    public func fieldIndex(_ field: String) -> Int? { fields.firstIndex(of: field) }

    /// The time of the stored donation at `index` (0 is the oldest; the index must be valid).
    func timestamp(at index: Int) -> Timestamp { Timestamp(secondsSince1970: times[index]) }

    /// The value of field number `field` of the stored donation at `index` (both must be valid).
    func value(ofField field: Int, at index: Int) -> Value {
        pools[field].values[Int(columns[field][index])]
    }

    /// Every stored donation, oldest first (for inspection and tests; rules use the indexed queries).
    public var donations: [Donation] {
        times.indices.map { index in
            var values: [String: Value] = [:]
            for (field, name) in fields.enumerated() { values[name] = value(ofField: field, at: index) }
            return Donation(timestamp: timestamp(at: index), values: values)
        }
    }

    /// Adds a donation. `values` are parallel to `fields` (the engine checks their types beforehand); a
    /// donation with a different number of values is not stored.
    ///
    /// In-order donations append in O(1); a donation older than the newest one (a clock that moved backwards,
    /// an explicit past date) is inserted at its place in time. Returns true when the log dropped donations
    /// that can never be visible again (see `compactIfNeeded`), so a store can drop them too.
    @discardableResult
    public mutating func append(at timestamp: Timestamp, values: [Value]) -> Bool {
        guard values.count == fields.count else { return false }
        let time = timestamp.secondsSince1970
        if times.last.map({ $0 <= time }) ?? true {
            times.append(time)
            for field in fields.indices { columns[field].append(pools[field].intern(values[field])) }
        } else {
            let position = firstIndex(after: time)
            times.insert(time, at: position)
            for field in fields.indices { columns[field].insert(pools[field].intern(values[field]), at: position) }
        }
        return compactIfNeeded()
    }

    /// Removes every donation.
    public mutating func removeAll() {
        times.removeAll()
        columns = fields.map { _ in [] }
        pools = fields.map { _ in ValuePool() }
    }

    /// Drops the donations that can never be visible again (all but the newest `maxCount`) once the log holds
    /// twice that many, so each append pays O(1) on average. Returns whether anything was dropped.
    @discardableResult
    mutating func compactIfNeeded() -> Bool {
        let slack = Swift.max(64, maxCount)
        guard times.count >= maxCount + slack else { return false }
        let drop = times.count - maxCount
        times.removeFirst(drop)
        for field in fields.indices {
            columns[field].removeFirst(drop)
            // Re-intern when most pooled values belong to dropped donations (high-cardinality fields).
            if pools[field].values.count > 2 * Swift.max(columns[field].count, 16) {
                var pool = ValuePool()
                let old = pools[field].values
                columns[field] = columns[field].map { pool.intern(old[Int($0)]) }
                pools[field] = pool
            }
        }
        return true
    }

    // MARK: Index arithmetic

    /// The first stored index whose time is >= `time` (or `count`).
    func firstIndex(notBefore time: Double) -> Int {
        var low = 0
        var high = times.count
        while low < high {
            let mid = (low + high) / 2
            if times[mid] < time { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The first stored index whose time is > `time` (or `count`).
    func firstIndex(after time: Double) -> Int {
        var low = 0
        var high = times.count
        while low < high {
            let mid = (low + high) / 2
            if times[mid] <= time { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The donations rules may see at `now`, and when that set changes by time alone: the oldest visible one
    /// ages out under `maxAge` (`leavesAt`), or a donation dated after `now` comes due (`arrivesAt`).
    ///
    /// Visible: among the newest `maxCount` stored donations, those dated no later than `now` and no earlier
    /// than `now - maxAge`.
    func visible(at now: Double) -> (range: Range<Int>, leavesAt: Double, arrivesAt: Double) {
        var lower = Swift.max(0, times.count - maxCount)
        if let maxAge { lower = Swift.max(lower, firstIndex(notBefore: now - maxAge.seconds)) }
        let upper = Swift.max(lower, firstIndex(after: now))
        var leavesAt = Double.infinity
        if let maxAge, lower < upper { leavesAt = (times[lower] + maxAge.seconds).nextUp }
        let arrivesAt = upper < times.count ? times[upper] : Double.infinity
        return (lower..<upper, leavesAt, arrivesAt)
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

    mutating func intern(_ value: Value) -> Int32 {
        if let id = ids[value] { return id }
        let id = Int32(truncatingIfNeeded: values.count)
        ids[value] = id
        values.append(value)
        return id
    }

    var count: Int { values.count }
}
