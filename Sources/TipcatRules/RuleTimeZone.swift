/// The user's time zone, for calendar rules (`now.hour`, `$firstLaunch.isToday`): the offset from UTC at an
/// instant, so that daylight saving time is followed. TipcatRules reads no time zone database itself: callers
/// build one from theirs (the CLI from Foundation's `TimeZone`), tests and simulations use fixed offsets.
public struct RuleTimeZone: Sendable, CustomStringConvertible {
    /// A name for messages: `Europe/Paris`, `UTC`, `UTC+02:00`.
    public var identifier: String { name() }
    private let name: @Sendable () -> String
    /// Seconds east of UTC at a time (seconds since 1970).
    public let offset: @Sendable (Double) -> Int

    public init(identifier: String, offset: @escaping @Sendable (Double) -> Int) {
        name = { identifier }
        self.offset = offset
    }

    /// A zone whose name is asked of `name` only when a message needs it: with an `offset` that looks the zone
    /// up on first use too, a zone that loads time zone data (the system's) costs nothing to a call that reads
    /// no calendar rule.
    public init(lazilyNamed name: @escaping @Sendable () -> String, offset: @escaping @Sendable (Double) -> Int) {
        self.name = name
        self.offset = offset
    }

    /// UTC, the default.
    public static let utc = RuleTimeZone(identifier: "UTC") { _ in 0 }

    /// A fixed offset from UTC (`UTC+02:00`).
    public static func fixed(seconds: Int) -> RuleTimeZone {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        let name = seconds == 0 ? "UTC" : "UTC\(sign)\(minutes / 60 < 10 ? "0" : "")\(minutes / 60):\(minutes % 60 < 10 ? "0" : "")\(minutes % 60)"
        return RuleTimeZone(identifier: name) { _ in seconds }
    }

    public var description: String { identifier }

    /// The seconds east of UTC of a fixed offset written `UTC`, `Z`, `+02:00`, `-05:30`, `+0530` or `+2`
    /// (at most 18 hours); nil for anything else.
    public static func offsetSeconds(parsing text: String) -> Int? {
        if text == "UTC" || text == "Z" || text == "GMT" { return 0 }
        var rest = Substring(text)
        if rest.hasPrefix("UTC") || rest.hasPrefix("GMT") { rest = rest.dropFirst(3) }
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        rest = rest.dropFirst()
        let digits = rest.filter { $0 != ":" }
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              rest.filter({ $0 == ":" }).count <= 1 else { return nil }
        let hours: Int
        let minutes: Int
        if rest.contains(":") {
            let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
                  let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
            (hours, minutes) = (h, m)
        } else if digits.count <= 2 {
            guard let h = Int(digits) else { return nil }
            (hours, minutes) = (h, 0)
        } else {
            guard digits.count == 4, let h = Int(digits.prefix(2)), let m = Int(digits.suffix(2)) else { return nil }
            (hours, minutes) = (h, m)
        }
        guard hours <= 18, minutes < 60 else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return sign == "-" ? -seconds : seconds
    }

    /// The local wall-clock time of `time`, in seconds since 1970-01-01 00:00 local.
    func local(_ time: Double) -> Double { time + Double(offset(time)) }

    /// The local day number of `time` (days since 1970-01-01 local).
    func day(_ time: Double) -> Double { (local(time) / 86_400).rounded(.down) }

    /// 0–23.
    func hour(_ time: Double) -> Int { Int((local(time) - day(time) * 86_400) / 3600) }

    /// 0–59.
    func minute(_ time: Double) -> Int { Int((local(time) - day(time) * 86_400).truncatingRemainder(dividingBy: 3600) / 60) }

    /// 1 (Sunday) – 7 (Saturday), as Foundation's `Calendar` numbers weekdays. 1970-01-01 was a Thursday.
    func weekday(_ time: Double) -> Int {
        let days = Int(day(time))
        return ((days + 4) % 7 + 7) % 7 + 1
    }

    /// The next time after `time` at which the local time crosses a multiple of `unit` seconds (a minute, an
    /// hour, a day), never later than the true crossing when the offset changes in between.
    func nextBoundary(after time: Double, unit: Double) -> Double {
        let local = local(time)
        let boundary = ((local / unit).rounded(.down) + 1) * unit
        let guess = boundary - Double(offset(time))
        let corrected = boundary - Double(offset(guess))
        return max(time.nextUp, min(guess, corrected))
    }
}
