#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
public import TipcatCore

/// Where the engine gets `now` from. Injected, so tests, simulations and `--now` control time.
public protocol TipClock: Sendable {
    /// The current time.
    var now: Timestamp { get }
}

/// The system's wall clock (UTC).
public struct SystemClock: TipClock {
    /// Creates the system clock.
    public init() {}

    public var now: Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(secondsSince1970: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
    }
}

/// A clock that always says the same time.
public struct FixedClock: TipClock {
    public var time: Timestamp

    /// Creates a clock stopped at `time`.
    public init(_ time: Timestamp) {
        self.time = time
    }

    public var now: Timestamp { time }
}
