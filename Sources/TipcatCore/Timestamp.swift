/// An instant, as seconds since the Unix epoch (UTC). Foundation-free so every module can use it.
public struct Timestamp: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var secondsSince1970: Double

    public init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.secondsSince1970 < rhs.secondsSince1970 }

    public static func + (lhs: Timestamp, rhs: TimeSpan) -> Timestamp {
        Timestamp(secondsSince1970: lhs.secondsSince1970 + rhs.seconds)
    }

    public static func - (lhs: Timestamp, rhs: TimeSpan) -> Timestamp {
        Timestamp(secondsSince1970: lhs.secondsSince1970 - rhs.seconds)
    }

    public var description: String { iso8601 }

    /// `2026-01-01T09:00:00Z` (fractional seconds only when present).
    /// The range `iso8601` can print (years 0000–9999); outside it the value prints as seconds.
    public static let printableRange = -62_167_219_200.0...253_402_300_799.0

    public var iso8601: String {
        guard Timestamp.printableRange.contains(secondsSince1970) else {
            return secondsSince1970.isFinite ? "@\(secondsSince1970)s" : "@invalid"
        }
        let total = secondsSince1970.rounded(.down)
        let fraction = secondsSince1970 - total
        var days = Int(total) / 86_400
        var rest = Int(total) % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        let (year, month, day) = Timestamp.civil(fromDays: days)
        func pad(_ value: Int, _ width: Int = 2) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text = "\(pad(year, 4))-\(pad(month))-\(pad(day))T\(pad(rest / 3600)):\(pad(rest / 60 % 60)):\(pad(rest % 60))"
        if fraction > 0 {
            let millis = Int((fraction * 1000).rounded())
            if millis > 0 && millis < 1000 { text += "." + pad(millis, 3) }
        }
        return text + "Z"
    }

    /// Parses ISO 8601 / RFC 3339: `2026-01-01`, `2026-01-01T09:00`, `2026-01-01T09:00:30`,
    /// with optional fraction and `Z` or `±HH:MM` offset (no offset means UTC).
    public init?(iso8601 text: String) {
        let scalars = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= scalars.count else { return nil }
            var value = 0
            for _ in 0..<digits {
                let byte = scalars[index]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
                index += 1
            }
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < scalars.count, scalars[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: year)
        else { return nil }
        var seconds = Double(Timestamp.days(fromCivil: year, month, day) * 86_400)
        if index < scalars.count {
            guard expect("T") || expect(" ") || expect("t") else { return nil }
            guard let hour = number(2), hour < 24, expect(":"), let minute = number(2), minute < 60 else { return nil }
            seconds += Double(hour * 3600 + minute * 60)
            if expect(":") {
                guard let second = number(2), second < 61 else { return nil }
                seconds += Double(second)
                if expect(".") {
                    var scale = 0.1
                    var any = false
                    while index < scalars.count, scalars[index] >= 48, scalars[index] <= 57 {
                        seconds += Double(scalars[index] - 48) * scale
                        scale /= 10
                        index += 1
                        any = true
                    }
                    guard any else { return nil }
                }
            }
            if expect("Z") || expect("z") {
                // UTC
            } else if index < scalars.count {
                let sign: Double
                if expect("+") { sign = 1 } else if expect("-") { sign = -1 } else { return nil }
                guard let offsetHours = number(2), expect(":"), let offsetMinutes = number(2) else { return nil }
                seconds -= sign * Double(offsetHours * 3600 + offsetMinutes * 60)
            }
        }
        guard index == scalars.count else { return nil }
        self.secondsSince1970 = seconds
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days-from-civil algorithm (public domain description of the calendar arithmetic).
    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// A length of time. Written in catalogs and rules as `30s`, `15m`, `2h`, `5d`, `1w` (or plain seconds).
public struct TimeSpan: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var seconds: Double

    public init(seconds: Double) {
        self.seconds = seconds
    }

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.seconds < rhs.seconds }

    /// The longest duration a catalog or the engine accepts (100 years, `36500d`): far beyond any real use,
    /// short enough that every date and duration stays printable.
    public static let longest = TimeSpan(seconds: 100 * 365 * 86_400)

    public static let unitSeconds: [(suffix: Character, seconds: Double)] = [
        ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400), ("w", 604_800),
    ]

    /// Parses `90`, `90s`, `15m`, `2h`, `5d`, `1w`, `1.5h`. Returns nil for anything else.
    public init?(_ text: String) {
        var body = Substring(text)
        var multiplier: Double = 1
        if let last = body.last, let unit = TimeSpan.unitSeconds.first(where: { $0.suffix == last }) {
            multiplier = unit.seconds
            body = body.dropLast()
        }
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let value = Double(body), value >= 0, (value * multiplier).isFinite
        else { return nil }
        self.seconds = value * multiplier
    }

    /// The shortest exact form: `5d`, `90m`, `45s`.
    public var description: String {
        // Beyond what an Int holds exactly, print the number as Swift does (never trap on a conversion).
        guard seconds.isFinite, abs(seconds) < 9.0e15 else { return "\(seconds)s" }
        for unit in TimeSpan.unitSeconds.reversed() where seconds >= unit.seconds {
            let count = seconds / unit.seconds
            if count == count.rounded() { return "\(Int(count))\(unit.suffix)" }
        }
        if seconds == seconds.rounded() { return "\(Int(seconds))s" }
        return "\(seconds)s"
    }
}
