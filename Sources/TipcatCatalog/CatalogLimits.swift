public import TipcatCore

/// The ranges every duration and count of a catalog must fall in. `validate` reports values outside them as
/// `out-of-range`; the engine refuses a catalog holding one before it starts.
public enum CatalogLimits {
    /// The longest duration: `displayFrequency`, `maxDisplayDuration`, a donation limit's `maxAge`.
    public static let longestDuration = TimeSpan.longest
    /// The largest count: `maxDisplayCount`, a donation limit's `maxCount`.
    public static let largestCount = 1_000_000
    /// The range of counts.
    public static let counts = 1...largestCount

    /// `at most 36500d (100 years)`, for messages.
    static let durationBound = "at most \(longestDuration) (100 years)"

    /// What in `catalog` is out of range, one line each (`catalog.json: 'displayFrequency' must be at most
    /// 36500d (100 years), found 52000w`); empty for a catalog `validate` accepts.
    public static func problems(in catalog: Catalog) -> [String] {
        var problems: [String] = []
        func place(_ location: SourceLocation?, _ fallback: String) -> String {
            location.map { "\($0.file):\($0.line):\($0.column)" } ?? fallback
        }
        // Subjects and places are spelled out only for a problem (catalogs of thousands of tips have none).
        func duration(_ span: TimeSpan?, _ key: String, _ subject: @autoclosure () -> String, _ location: SourceLocation?, _ fallback: @autoclosure () -> String) {
            guard let span, !(span.seconds >= 0 && span <= longestDuration) else { return }
            problems.append("\(place(location, fallback())): '\(key)' in \(subject()) must be \(durationBound), found \(span)")
        }
        func count(_ value: Int?, _ key: String, _ subject: @autoclosure () -> String, _ location: SourceLocation?, _ fallback: @autoclosure () -> String) {
            guard let value, !counts.contains(value) else { return }
            problems.append("\(place(location, fallback())): '\(key)' in \(subject()) must be between 1 and \(largestCount), found \(value)")
        }
        duration(catalog.settings.displayFrequency.interval, "displayFrequency", "catalog.json", catalog.settings.location, "catalog.json")
        for event in catalog.events {
            let limit = event.donationLimit
            count(limit?.maxCount, "maxCount", "the donation limit of event '\(event.id.rawValue)'", event.location, "events.json")
            duration(limit?.maxAge, "maxAge", "the donation limit of event '\(event.id.rawValue)'", event.location, "events.json")
        }
        for tip in catalog.tips {
            let options = tip.options
            count(options.maxDisplayCount, "maxDisplayCount", "the options of tip '\(tip.id.rawValue)'", tip.location, "tip \(tip.id.rawValue)")
            duration(options.maxDisplayDuration, "maxDisplayDuration", "the options of tip '\(tip.id.rawValue)'", tip.location, "tip \(tip.id.rawValue)")
        }
        return problems
    }
}
