public import TipcatCatalog
public import TipcatCore
public import TipcatEngine

/// A device's tip state in the form devices exchange: a state-based CRDT.
///
/// Merging any set of states, in any order and grouping, any number of times, gives the same state
/// (`merged` is commutative, associative and idempotent):
/// - **donations**: the union by donation id (device + per-device sequence); an event's donations at or below
///   its deletion mark (`deletions`, the newest donation `delete-donations` removed) are dropped; beyond the
///   event's donation limit the newest are kept, ordered by `(timestamp, device, sequence)`;
/// - **displays**: each device's count, seconds, first and last display, merged per device (largest count and
///   seconds, earliest first, latest last) and summed on read — within the tip's latest reset
///   (`resetEligibility`, HLC-stamped): a newer reset drops the displays and invalidation of older ones;
/// - **invalidation**: the earliest wins, ordered by time, then reason (`actionPerformed`, `tipClosed`,
///   `displayCountExceeded`, `displayDurationExceeded`), then device id;
/// - **parameters** (and a tip instance's registered parameters): the last writer by hybrid logical clock
///   stamp (milliseconds, counter, device id);
/// - `lastNewTipShown` and `clock`: the latest.
public struct SyncState: Sendable, Hashable {
    /// Every donation, by id.
    public var donations: [DonationID: Donation]
    /// Per event, the newest donation deleted by `delete-donations`: that donation and every one ordered
    /// at or before it are deleted.
    public var deletions: [EventID: DonationKey]
    /// Per tip instance.
    public var tips: [TipInstanceID: Tip]
    /// Persistent app parameters with the stamp of their last write.
    public var parameters: [ParameterName: StampedValue]
    /// When a tip was last shown for the first time (the display-frequency interval starts there).
    public var lastNewTipShown: Timestamp?
    /// The latest hybrid logical clock reading any contributing device had.
    public var clock: HybridTime

    /// An empty state.
    public init(
        donations: [DonationID: Donation] = [:], deletions: [EventID: DonationKey] = [:], tips: [TipInstanceID: Tip] = [:],
        parameters: [ParameterName: StampedValue] = [:], lastNewTipShown: Timestamp? = nil, clock: HybridTime = HybridTime()
    ) {
        self.donations = donations
        self.deletions = deletions
        self.tips = tips
        self.parameters = parameters
        self.lastNewTipShown = lastNewTipShown
        self.clock = clock
    }

    /// A donation's stable id: the device that donated it and that device's sequence number.
    public struct DonationID: Sendable, Hashable, Comparable {
        public var device: String
        public var sequence: Int64

        public init(device: String, sequence: Int64) {
            self.device = device
            self.sequence = sequence
        }

        public static func < (lhs: DonationID, rhs: DonationID) -> Bool {
            (lhs.device, lhs.sequence) < (rhs.device, rhs.sequence)
        }
    }

    /// The total order of donations for pruning and deletion: time, then device, then sequence.
    public struct DonationKey: Sendable, Hashable, Comparable {
        public var timestamp: Timestamp
        public var id: DonationID

        public init(timestamp: Timestamp, id: DonationID) {
            self.timestamp = timestamp
            self.id = id
        }

        public static func < (lhs: DonationKey, rhs: DonationKey) -> Bool {
            lhs.timestamp != rhs.timestamp ? lhs.timestamp < rhs.timestamp : lhs.id < rhs.id
        }
    }

    /// One donation.
    public struct Donation: Sendable, Hashable {
        public var id: DonationID
        public var event: EventID
        public var timestamp: Timestamp
        public var values: [String: Value]

        public init(id: DonationID, event: EventID, timestamp: Timestamp, values: [String: Value] = [:]) {
            self.id = id
            self.event = event
            self.timestamp = timestamp
            self.values = values
        }

        /// Its place in the pruning order.
        public var key: DonationKey { DonationKey(timestamp: timestamp, id: id) }
    }

    /// One device's displays of a tip instance since the tip's latest reset.
    public struct DisplayCounter: Sendable, Hashable {
        public var count: Int
        public var seconds: Double
        public var first: Timestamp?
        public var last: Timestamp?

        public init(count: Int = 0, seconds: Double = 0, first: Timestamp? = nil, last: Timestamp? = nil) {
            self.count = count
            self.seconds = seconds
            self.first = first
            self.last = last
        }

        /// Both devices' knowledge of one device's counter: it only grows, so the larger of each.
        func merged(with other: DisplayCounter) -> DisplayCounter {
            DisplayCounter(count: max(count, other.count), seconds: max(seconds, other.seconds),
                           first: SyncState.earliest(first, other.first), last: SyncState.latest(last, other.last))
        }
    }

    /// Why and when an instance was invalidated, and by which device.
    public struct Invalidation: Sendable, Hashable, Comparable {
        public var reason: TipInvalidationReason
        public var at: Timestamp
        public var device: String

        public init(reason: TipInvalidationReason, at: Timestamp, device: String) {
            self.reason = reason
            self.at = at
            self.device = device
        }

        /// Earliest time, then reason in declaration order, then device id.
        public static func < (lhs: Invalidation, rhs: Invalidation) -> Bool {
            if lhs.at != rhs.at { return lhs.at < rhs.at }
            let left = TipInvalidationReason.allCases.firstIndex(of: lhs.reason) ?? 0
            let right = TipInvalidationReason.allCases.firstIndex(of: rhs.reason) ?? 0
            if left != right { return left < right }
            return lhs.device < rhs.device
        }
    }

    /// The synchronized state of one tip instance.
    public struct Tip: Sendable, Hashable {
        /// The tip it is an instance of.
        public var tip: TipID
        /// The registered tip parameters (empty for tips without parameters).
        public var parameters: [String: Value]
        /// When `tip` and `parameters` were last written.
        public var parametersStamp: HLCStamp
        /// The latest `resetEligibility` (nil: never reset). Displays and invalidation belong to it.
        public var reset: HLCStamp?
        /// Per device id.
        public var displays: [String: DisplayCounter]
        public var invalidation: Invalidation?

        public init(
            tip: TipID, parameters: [String: Value] = [:], parametersStamp: HLCStamp, reset: HLCStamp? = nil,
            displays: [String: DisplayCounter] = [:], invalidation: Invalidation? = nil
        ) {
            self.tip = tip
            self.parameters = parameters
            self.parametersStamp = parametersStamp
            self.reset = reset
            self.displays = displays
            self.invalidation = invalidation
        }

        /// The display count over all devices.
        public var displayCount: Int { displays.values.reduce(0) { $0 + $1.count } }
        /// The time on screen over all devices, in seconds (summed in device order, so every replica gets the
        /// same bits).
        public var displaySeconds: Double { displays.keys.sorted().reduce(0) { $0 + (displays[$1]?.seconds ?? 0) } }
        /// The first display on any device.
        public var firstDisplayed: Timestamp? { displays.values.reduce(nil) { SyncState.earliest($0, $1.first) } }
        /// The last display on any device.
        public var lastDisplayed: Timestamp? { displays.values.reduce(nil) { SyncState.latest($0, $1.last) } }

        func merged(with other: Tip) -> Tip {
            var result = self
            if other.parametersStamp > parametersStamp
                || (other.parametersStamp == parametersStamp && SyncStateFile.order(other.tip, other.parameters, before: tip, parameters))
            {
                result.tip = other.tip
                result.parameters = other.parameters
                result.parametersStamp = other.parametersStamp
            }
            switch (reset, other.reset) {
            case let (mine, theirs) where mine == theirs:
                for (device, counter) in other.displays {
                    result.displays[device] = result.displays[device].map { $0.merged(with: counter) } ?? counter
                }
                result.invalidation = SyncState.earliest(invalidation, other.invalidation)
            case (nil, _?):
                result.reset = other.reset
                result.displays = other.displays
                result.invalidation = other.invalidation
            case let (mine?, theirs?) where theirs > mine:
                result.reset = other.reset
                result.displays = other.displays
                result.invalidation = other.invalidation
            default:
                break
            }
            return result
        }
    }

    /// A value with the stamp of the write that set it.
    public struct StampedValue: Sendable, Hashable {
        public var value: Value
        public var stamp: HLCStamp

        public init(value: Value, stamp: HLCStamp) {
            self.value = value
            self.stamp = stamp
        }
    }

    // MARK: Merging

    /// How many donations of each event a state keeps (the catalog's `donationLimit.maxCount`).
    public struct DonationLimits: Sendable, Hashable {
        /// For events not in `perEvent` (the engine's default, 1,000).
        public var defaultLimit: Int
        public var perEvent: [EventID: Int]

        public init(defaultLimit: Int = 1000, perEvent: [EventID: Int] = [:]) {
            self.defaultLimit = defaultLimit
            self.perEvent = perEvent
        }

        /// The limits a catalog declares.
        public init(catalog: Catalog) {
            self.init()
            for event in catalog.events {
                if let limit = event.donationLimit?.maxCount { perEvent[event.id] = limit }
            }
        }

        public func limit(for event: EventID) -> Int { max(0, perEvent[event] ?? defaultLimit) }
    }

    /// This state merged with `other` (see the type's rules).
    public func merged(with other: SyncState, limits: DonationLimits = DonationLimits()) -> SyncState {
        var result = self
        result.merge(other, limits: limits)
        return result
    }

    /// All `states` merged into one; an empty list gives an empty state.
    public static func merge(_ states: [SyncState], limits: DonationLimits = DonationLimits()) -> SyncState {
        var result = SyncState()
        var pruned = 0
        for state in states {
            result.formUnion(state)
            // Pruned now and then rather than once at the end: the same state, a smaller table to grow.
            if result.donations.count > 2 * pruned + 100_000 {
                result.normalize(limits: limits)
                pruned = result.donations.count
            }
        }
        result.normalize(limits: limits)
        return result
    }

    /// Merges `other` into this state (see the type's rules).
    public mutating func merge(_ other: SyncState, limits: DonationLimits = DonationLimits()) {
        formUnion(other)
        normalize(limits: limits)
    }

    /// Merges `other` into this state without pruning: every donation of both is kept until `normalize`.
    /// Folding many states with `formUnion` and normalizing once (or now and then) gives the same state as
    /// merging them one by one.
    public mutating func formUnion(_ other: SyncState) {
        if donations.isEmpty {
            donations = other.donations
        } else {
            donations.reserveCapacity(donations.count + other.donations.count)
            for (id, donation) in other.donations {
                if let existing = donations[id] {
                    // The same id for different donations only follows a lost sequence number: keep the greater.
                    if existing != donation, SyncStateFile.order(existing, before: donation) { donations[id] = donation }
                } else {
                    donations[id] = donation
                }
            }
        }
        for (event, key) in other.deletions {
            deletions[event] = max(deletions[event] ?? key, key)
        }
        for (instance, tip) in other.tips {
            tips[instance] = tips[instance].map { $0.merged(with: tip) } ?? tip
        }
        for (name, value) in other.parameters {
            if let existing = parameters[name] {
                if value.stamp > existing.stamp || (value.stamp == existing.stamp && SyncStateFile.order(existing.value, before: value.value)) {
                    parameters[name] = value
                }
            } else {
                parameters[name] = value
            }
        }
        lastNewTipShown = SyncState.latest(lastNewTipShown, other.lastNewTipShown)
        clock = max(clock, other.clock)
    }

    /// Drops deleted donations and, per event, all but the newest `limit` (by `DonationKey`).
    public mutating func normalize(limits: DonationLimits = DonationLimits()) {
        var byEvent: [EventID: [DonationKey]] = [:]
        var dropped: [DonationID] = []
        for donation in donations.values {
            if let deleted = deletions[donation.event], donation.key <= deleted {
                dropped.append(donation.id)
            } else {
                byEvent[donation.event, default: []].append(donation.key)
            }
        }
        for (event, keys) in byEvent {
            let limit = limits.limit(for: event)
            guard keys.count > limit else { continue }
            let sorted = keys.sorted()
            dropped.append(contentsOf: sorted.prefix(keys.count - limit).map(\.id))
        }
        for id in dropped { donations[id] = nil }
    }

    static func earliest<T: Comparable>(_ a: T?, _ b: T?) -> T? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    static func latest<T: Comparable>(_ a: T?, _ b: T?) -> T? {
        guard let a else { return b }
        guard let b else { return a }
        return max(a, b)
    }
}

/// A hybrid logical clock reading: wall-clock milliseconds and a counter for writes within one millisecond
/// (or while the wall clock is behind a time already seen).
public struct HybridTime: Sendable, Hashable, Comparable {
    public var milliseconds: Int64
    public var counter: Int64

    public init(milliseconds: Int64 = 0, counter: Int64 = 0) {
        self.milliseconds = milliseconds
        self.counter = counter
    }

    public static func < (lhs: HybridTime, rhs: HybridTime) -> Bool {
        (lhs.milliseconds, lhs.counter) < (rhs.milliseconds, rhs.counter)
    }

    /// The next reading after this one at wall-clock time `now`: `now` if it is later, else one tick more.
    public func tick(now: Timestamp) -> HybridTime {
        let scaled = (now.secondsSince1970 * 1000).rounded(.down)
        var wall: Int64 = 0
        if scaled.isFinite, scaled.magnitude < 9e18 { wall = Int64(scaled) }
        return wall > milliseconds ? HybridTime(milliseconds: wall, counter: 0) : HybridTime(milliseconds: milliseconds, counter: counter + 1)
    }
}

/// A write's stamp: a hybrid logical clock reading and the writing device (the tie-break).
public struct HLCStamp: Sendable, Hashable, Comparable {
    public var time: HybridTime
    public var device: String

    public init(time: HybridTime, device: String) {
        self.time = time
        self.device = device
    }

    public static func < (lhs: HLCStamp, rhs: HLCStamp) -> Bool {
        lhs.time != rhs.time ? lhs.time < rhs.time : lhs.device < rhs.device
    }
}
