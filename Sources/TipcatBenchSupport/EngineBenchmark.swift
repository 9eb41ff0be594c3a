import TipcatCore
import TipcatEngine

/// Engine timings for `make bench`: `print(await EngineBenchmark.run())` in `tipcat-bench`.
///
/// A synthetic catalog (`SyntheticEngineCatalog`) and donation history, an in-memory state store, every call
/// through the `TipEngine` actor as an app would make it. The same measurements run at `donations` and at
/// `donations × scale`, to show that decisions stay flat as the history grows.
public enum EngineBenchmark {
    /// One measured figure, with the issue's goal for it when there is one.
    public struct Figure: Sendable, Hashable {
        public var name: String
        /// Per donation count measured, in `unit`.
        public var values: [Double]
        public var unit: String
        /// Goal: at most this (in `unit`) at every donation count.
        public var atMost: Double?
        /// Goal: at least this (in `unit`) at every donation count.
        public var atLeast: Double?
        /// Goal: flat as the donations grow — the value at the largest count is at most `flatRatio` times the
        /// value at the smallest.
        public var flat = false

        public init(name: String, values: [Double], unit: String, atMost: Double? = nil, atLeast: Double? = nil, flat: Bool = false) {
            self.name = name
            self.values = values
            self.unit = unit
            self.atMost = atMost
            self.atLeast = atLeast
            self.flat = flat
        }

        /// The goal lines of this figure: what was measured, the goal, met or NOT met.
        public func goalLines(section: String, counts: [Int]) -> [String] {
            let measured = values.map(EngineBenchmark.format).joined(separator: " → ") + " " + unit
            var parts: [String] = []
            if let atMost {
                parts.append("< \(EngineBenchmark.whole(atMost)) \(unit): \(EngineBenchmark.verdict(values.allSatisfy { $0 < atMost }))")
            }
            if let atLeast {
                parts.append("≥ \(EngineBenchmark.whole(atLeast)) \(unit): \(EngineBenchmark.verdict(values.allSatisfy { $0 >= atLeast }))")
            }
            if flat, let first = values.first, let last = values.last, values.count > 1 {
                let ratio = last / max(first, 1e-9)
                parts.append("flat, ≤ \(EngineBenchmark.format(EngineBenchmark.flatRatio))×: \(EngineBenchmark.verdict(ratio <= EngineBenchmark.flatRatio)) (\(EngineBenchmark.format(ratio))×)")
            }
            guard !parts.isEmpty else { return [] }
            let span = counts.map { EngineBenchmark.whole(Double($0)) }.joined(separator: " → ")
            return ["  \(section), \(name): \(measured) at \(span) donations  (goal " + parts.joined(separator: "; ") + ")"]
        }
    }

    /// "Flat when donations grow 10×": the larger history may cost at most this many times the smaller one.
    public static let flatRatio = 1.5

    /// The time budget of one `next()` decision, in microseconds (under 1 ms).
    public static let nextBudget = 1000.0

    /// The cold-start budget, in milliseconds (under 50 ms on the 5,000-tip catalog).
    public static let coldStartBudget = 50.0

    /// The sustained donation rate to reach, per second.
    public static let donateGoal = 20_000.0

    static func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }

    /// A budget or a count, without decimals: `1,000`, `50`.
    static func whole(_ value: Double) -> String { value >= 100 ? format(value) : String(Int(value.rounded())) }

    /// Figures measured under one setup, one value per donation count.
    public struct Section: Sendable, Hashable {
        public var title: String
        public var figures: [Figure]
        /// Facts about the generated state (how many tips are available, which one `next()` returns).
        public var notes: [String]
    }

    /// The figures of one run.
    public struct Report: Sendable, Hashable, CustomStringConvertible {
        public var tips: Int
        public var donationCounts: [Int]
        public var sections: [Section]
        /// Engine creation (compiling every rule) plus `configure` on an empty state, per catalog size.
        public var coldStarts: [(tips: Int, milliseconds: Double)]

        public static func == (lhs: Report, rhs: Report) -> Bool {
            lhs.tips == rhs.tips && lhs.donationCounts == rhs.donationCounts && lhs.sections == rhs.sections
                && lhs.coldStarts.map(\.tips) == rhs.coldStarts.map(\.tips)
                && lhs.coldStarts.map(\.milliseconds) == rhs.coldStarts.map(\.milliseconds)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(tips)
            hasher.combine(donationCounts)
            hasher.combine(sections)
        }

        public var description: String {
            var lines = ["tipcat engine bench — \(tips) tips, in-memory state store, every call through the TipEngine actor"]
            let width = max(46, (sections.flatMap(\.figures).map(\.name.count).max() ?? 0) + 2)
            func pad(_ text: String, _ size: Int) -> String { text + String(repeating: " ", count: max(0, size - text.count)) }
            func left(_ text: String, _ size: Int) -> String { String(repeating: " ", count: max(0, size - text.count)) + text }
            for section in sections {
                lines.append("")
                lines.append(pad(section.title, width) + donationCounts.map { left("\(EngineBenchmark.format(Double($0))) donations", 20) }.joined())
                for figure in section.figures {
                    let cells = figure.values.map { left(EngineBenchmark.format($0) + " " + figure.unit, 20) }
                    lines.append(pad("  " + figure.name, width) + cells.joined())
                }
                lines += section.notes.map { "  note: " + $0 }
            }
            if !coldStarts.isEmpty {
                lines.append("")
                lines.append("engine cold start (compile rules + configure, empty state):")
                lines += coldStarts.map { "  \(EngineBenchmark.format(Double($0.tips))) tips: \(EngineBenchmark.format($0.milliseconds)) ms" }
            }
            lines.append("")
            lines.append("goals:")
            lines += goalLines
            return lines.joined(separator: "\n")
        }

        /// Every figure that has a goal, and the 5,000-tip cold start, with "met" / "NOT met".
        public var goalLines: [String] {
            var lines = sections.flatMap { section in
                section.figures.flatMap { $0.goalLines(section: String(section.title.split(separator: ":").first ?? ""), counts: donationCounts) }
            }
            for start in coldStarts where start.tips == 5000 {
                let met = start.milliseconds < EngineBenchmark.coldStartBudget
                lines.append("  cold start, 5,000 tips, in memory (compile rules + configure): \(EngineBenchmark.format(start.milliseconds)) ms  (goal < \(EngineBenchmark.whole(EngineBenchmark.coldStartBudget)) ms: \(EngineBenchmark.verdict(met)))")
            }
            return lines
        }
    }

    /// Runs the benchmark (several seconds at the defaults): a typical catalog (some tips eligible) and the
    /// worst case (no tip eligible, so `next()` examines every tip), each at `donations` and
    /// `donations × scale`; then cold starts of catalogs of `coldStartSizes` tips.
    public static func run(
        tips: Int = 1000, donations: Int = 100_000, scale: Int = 10, samples: Int = 300, coldStartSizes: [Int] = [1000, 5000]
    ) async -> Report {
        let counts = scale > 1 ? [donations, donations * scale] : [donations]
        var sections: [Section] = []
        for (gated, title) in [(false, "typical catalog (some tips eligible)"), (true, "worst case: no tip eligible, next() examines all")] {
            var columns: [[Figure]] = []
            var notes: [String] = []
            for count in counts {
                let (figures, facts) = await measure(tips: tips, donations: count, gated: gated, samples: samples)
                columns.append(figures)
                notes += facts.map { "\(format(Double(count))) donations: \($0)" }
            }
            var merged: [Figure] = []
            for (index, figure) in (columns.first ?? []).enumerated() {
                var column = figure
                column.values = columns.map { $0.count > index ? $0[index].values[0] : .nan }
                merged.append(column)
            }
            sections.append(Section(title: title, figures: merged, notes: notes))
        }
        var coldStarts: [(Int, Double)] = []
        for size in coldStartSizes {
            coldStarts.append((size, await coldStart(tips: size)))
        }
        return Report(tips: tips, donationCounts: counts, sections: sections, coldStarts: coldStarts)
    }

    /// Median over a few runs of creating an engine for a `tips`-tip catalog and configuring it.
    static func coldStart(tips: Int) async -> Double {
        let catalog = SyntheticEngineCatalog(tips: tips).catalog
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<5 {
            let start = clock.now
            let engine = TipEngine(catalog: catalog)
            try? await engine.configure(TipEngineConfiguration(clock: FixedClock(Timestamp(secondsSince1970: 1_767_225_600))))
            times.append(seconds(clock.now - start) * 1e3)
        }
        return median(times)
    }

    /// How many restarts "first next()" is measured over.
    static let firstDecisions = 5

    static func measure(tips: Int, donations count: Int, gated: Bool, samples: Int) async -> ([Figure], [String]) {
        let synthetic = SyntheticEngineCatalog(tips: tips, gated: gated)
        let end = Timestamp(secondsSince1970: 1_767_225_600)
        let clock = ContinuousClock()
        var figures: [Figure] = []
        var facts: [String] = []
        func add(_ name: String, _ value: Double, _ unit: String, atMost: Double? = nil, atLeast: Double? = nil, flat: Bool = false) {
            figures.append(Figure(name: name, values: [value], unit: unit, atMost: atMost, atLeast: atLeast, flat: flat))
        }
        /// A `next()` figure: one decision within the budget, flat as donations grow.
        func decision(_ name: String, _ microseconds: Double) { add(name, microseconds, "µs", atMost: nextBudget, flat: true) }
        do throws(TipEngineError) {
            let engine = TipEngine(catalog: synthetic.catalog)
            try await engine.configure(TipEngineConfiguration(clock: FixedClock(end)))
            for (index, flag) in synthetic.flagNames.enumerated() where index % 3 == 0 {
                try await engine.setParameter(flag, to: .bool(true))
            }
            let history = synthetic.donations(count, endingAt: end)
            let donateStart = clock.now
            for donation in history { try await engine.donate(donation.event, donation.values, at: donation.timestamp) }
            let donateSeconds = seconds(clock.now - donateStart)
            add("donate (sustained)", Double(history.count) / max(donateSeconds, 1e-9), "/s", atLeast: donateGoal)

            // A new process over the same state: load, then the first decisions with empty caches.
            let store = await engine.stateStore
            let loadStart = clock.now
            var restarted = TipEngine(catalog: synthetic.catalog, store: store)
            try await restarted.configure(TipEngineConfiguration(clock: FixedClock(end)))
            add("cold start (load state, configure)", seconds(clock.now - loadStart) * 1e3, "ms")
            // One decision is one sample: take the median over a few restarts.
            var firsts: [Double] = []
            var first: TipInstanceID?
            for restart in 0..<firstDecisions {
                if restart > 0 {
                    restarted = TipEngine(catalog: synthetic.catalog, store: store)
                    try await restarted.configure(TipEngineConfiguration(clock: FixedClock(end)))
                }
                let coldStart = clock.now
                first = try await restarted.next()
                firsts.append(seconds(clock.now - coldStart) * 1e6)
            }
            decision("first next(), empty caches (median of \(firstDecisions) restarts)", median(firsts))
            let fresh = TipEngine(catalog: synthetic.catalog, store: store)
            try await fresh.configure(TipEngineConfiguration(clock: FixedClock(end)))
            let allStart = clock.now
            let summaries = try await fresh.tips()
            add("status of every tip, empty caches", seconds(clock.now - allStart) * 1e3, "ms")

            var steady: [Double] = []
            for _ in 0..<samples {
                let start = clock.now
                _ = try await restarted.next()
                steady.append(seconds(clock.now - start) * 1e6)
            }
            decision("next() median", median(steady))
            add("next() p99", percentile(steady, 0.99), "µs")

            var afterDonation: [Double] = []
            for index in 0..<samples {
                let donation = history[index % max(1, history.count)]
                try await restarted.donate(donation.event, donation.values)
                let start = clock.now
                _ = try await restarted.next()
                afterDonation.append(seconds(clock.now - start) * 1e6)
            }
            decision("next() after a donation, median", median(afterDonation))
            add("next() after a donation, p99", percentile(afterDonation, 0.99), "µs")

            var time = end
            var moving: [Double] = []
            for _ in 0..<samples {
                time = time + TimeSpan(seconds: 60)
                await restarted.setClock(FixedClock(time))
                let start = clock.now
                _ = try await restarted.next()
                moving.append(seconds(clock.now - start) * 1e6)
            }
            decision("next() with the clock +1 min per call, median", median(moving))
            add("next() with the clock +1 min per call, p99", percentile(moving, 0.99), "µs")

            let available = summaries.filter { $0.status == .available }.count
            let position = first.flatMap { id in summaries.firstIndex { $0.instance == id } }
            facts.append("\(available) of \(summaries.count) tips available; next() = \(first?.rawValue ?? "none")"
                         + (position.map { " (position \($0 + 1) in catalog order)" } ?? ""))
        } catch {
            facts.append("error: \(error)")
        }
        return (figures, facts)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let index = min(sorted.count - 1, max(0, Int((Double(sorted.count - 1) * fraction).rounded())))
        return sorted[index]
    }

    /// `1234567` → `1,234,567`; small values keep one or two decimals.
    static func format(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return value.isNaN ? "–" : "\(value)" }
        if value >= 100 {
            let digits = String(Int(value.rounded()))
            var grouped = ""
            for (index, character) in digits.reversed().enumerated() {
                if index > 0, index % 3 == 0 { grouped.append(",") }
                grouped.append(character)
            }
            return String(grouped.reversed())
        }
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
