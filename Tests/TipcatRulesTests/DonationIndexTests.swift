import Testing
import TipcatCore
@testable import TipcatRules

/// The per-value positions of `DonationLog` and the queries answered from them (`where` on one field, largest /
/// smallest subsets, windows after them) against a brute-force count over the visible donations.
@Suite struct DonationIndexTests {
    static let environment = RuleEnvironment(events: ["e": ["k": .int, "s": .string]])

    /// Random appends (in and out of order) and compactions keep the positions equal to the columns.
    @Test func positionsFollowTheColumns() {
        var random = SeededGenerator(seed: 5)
        for _ in 0..<40 {
            var log = DonationLog(fields: ["k", "s"], maxCount: Int.random(in: 1...30, using: &random))
            for step in 0..<Int.random(in: 0...300, using: &random) {
                let back = Int.random(in: 0..<10, using: &random) == 0 ? -Double.random(in: 0...50, using: &random) : 0
                log.append(at: Timestamp(secondsSince1970: Double(step) + back),
                           values: [.int([0, 1, 5, -3, 9999][Int.random(in: 0..<5, using: &random)]), .string(step % 7 == 0 ? "x\(step)" : "y")])
                let copy = log  // a shared copy must not see later changes
                // Equal values get one id, whichever way they were interned.
                #expect(Set(log.pools[0].values).count == log.pools[0].count)
                for field in 0..<2 {
                    for value in 0..<log.pools[field].count {
                        let expected = log.columns[field].indices.filter { Int(log.columns[field][$0]) == value }.map(Int32.init)
                        #expect(log.positions[field][value] == expected)
                    }
                }
                #expect(copy.count == log.count)
            }
        }
    }

    /// Rule counts equal brute-force counts over `log.donations`.
    @Test func indexedQueriesMatchBruteForce() throws {
        var random = SeededGenerator(seed: 17)
        var checked = 0
        for round in 0..<120 {
            let maxCount = Int.random(in: 1...60, using: &random)
            let maxAge: TimeSpan? = round % 3 == 0 ? TimeSpan(seconds: Double(Int.random(in: 5...80, using: &random))) : nil
            var log = DonationLog(fields: ["k", "s"], maxCount: maxCount, maxAge: maxAge)
            var clock = 0.0
            for _ in 0..<Int.random(in: 0...200, using: &random) {
                clock += Double(Int.random(in: 0...2, using: &random))
                let when = Int.random(in: 0..<8, using: &random) == 0 ? clock - Double(Int.random(in: 1...20, using: &random)) : clock
                log.append(at: Timestamp(secondsSince1970: when),
                           values: [.int(Int.random(in: 0..<4, using: &random)), .string(["a", "b", "c"][Int.random(in: 0..<3, using: &random)])])
            }
            let now = clock - Double(Int.random(in: 0...10, using: &random))
            let all = log.donations
            // Visible: the newest maxCount stored, none after now, none older than maxAge.
            let visible = all.suffix(maxCount).filter { donation in
                let at = donation.timestamp.secondsSince1970
                return at <= now && (maxAge.map { at >= now - $0.seconds } ?? true)
            }
            let window = Double(Int.random(in: 1...40, using: &random))
            let key = Int.random(in: 0..<4, using: &random)
            func inWindow(_ donation: Donation) -> Bool { donation.timestamp.secondsSince1970 >= now - window }
            func k(_ donation: Donation) -> Value? { donation.values["k"] }
            func groups(_ donations: [Donation], by field: String) -> [(Value, Int)] {
                var order: [Value] = []
                var counts: [Value: Int] = [:]
                for donation in donations {
                    guard let value = donation.values[field] else { continue }
                    if counts[value] == nil { order.append(value) }
                    counts[value, default: 0] += 1
                }
                return order.map { ($0, counts[$0] ?? 0) }
            }
            func largest(_ donations: [Donation], _ field: String) -> [Donation] {
                // Ties go to the value first interned by the log (the pool order).
                let pool = log.pools[log.fieldIndex(field) ?? 0].values
                let counted = groups(donations, by: field).sorted { (pool.firstIndex(of: $0.0) ?? 0) < (pool.firstIndex(of: $1.0) ?? 0) }
                guard var best = counted.first else { return [] }
                for group in counted.dropFirst() where group.1 > best.1 { best = group }
                return donations.filter { $0.values[field] == best.0 }
            }
            func smallest(_ donations: [Donation], _ field: String) -> [Donation] {
                let pool = log.pools[log.fieldIndex(field) ?? 0].values
                let counted = groups(donations, by: field).sorted { (pool.firstIndex(of: $0.0) ?? 0) < (pool.firstIndex(of: $1.0) ?? 0) }
                guard var best = counted.first else { return [] }
                for group in counted.dropFirst() where group.1 < best.1 { best = group }
                return donations.filter { $0.values[field] == best.0 }
            }
            let expectations: [(String, Int)] = [
                ("#e.where(k == \(key)).count", visible.filter { k($0) == .int(key) }.count),
                ("#e.where(\(key) != k).within(\(Int(window))s).count", visible.filter { k($0) != .int(key) && inWindow($0) }.count),
                ("#e.within(\(Int(window))s).where(k >= \(key)).count", visible.filter { donation in
                    guard inWindow(donation), case .int(let value)? = k(donation) else { return false }
                    return value >= key
                }.count),
                ("#e.largestSubset(k).count", largest(visible, "k").count),
                ("#e.within(\(Int(window))s).largestSubset(k).count", largest(visible.filter(inWindow), "k").count),
                ("#e.smallestSubset(s).within(\(Int(window))s).count", smallest(visible, "s").filter(inWindow).count),
                ("#e.where(k != \(key)).largestSubset(k).count", largest(visible.filter { k($0) != .int(key) }, "k").count),
                ("#e.where(k != \(key)).smallestSubset(s).count", smallest(visible.filter { k($0) != .int(key) }, "s").count),
                ("#e.where(s == \"a\" || k == \(key)).count", visible.filter { $0.values["s"] == .string("a") || k($0) == .int(key) }.count),
                ("#e.largestSubset(k).where(s == \"b\").count", largest(visible, "k").filter { $0.values["s"] == .string("b") }.count),
            ]
            let context = RuleContext(now: Timestamp(secondsSince1970: now), donations: ["e": log])
            for (query, expected) in expectations {
                for (text, holds) in [("\(query) == \(expected)", true), ("\(query) == \(expected + 1)", false)] {
                    let (rule, diagnostics) = RuleChecker.check(text, in: Self.environment)
                    let checkedRule = try #require(rule, "\(text): \(diagnostics.map(\.message))")
                    #expect(RuleEvaluator.outcome(checkedRule, in: context).holds == holds, "\(text) at \(now), round \(round)")
                    #expect(RuleEvaluator.evaluate(checkedRule, in: context).holds == holds, "\(text) (explained)")
                    checked += 1
                }
            }
        }
        #expect(checked == 120 * 20)
    }
}
