import Testing
import TipcatCore
import TipcatRules

/// The donation column store: time order, limits, compaction.
@Suite struct DonationLogTests {
    @Test func outOfOrderDonationsAreInsertedInTimeOrder() {
        var log = DonationLog(fields: ["backyardID"])
        log.append(at: time("2026-01-03"), values: [.int(3)])
        log.append(at: time("2026-01-01"), values: [.int(1)])
        log.append(at: time("2026-01-02"), values: [.int(2)])
        log.append(at: time("2026-01-02"), values: [.int(22)])  // same instant: after the earlier one
        #expect(log.donations.map(\.timestamp) == [time("2026-01-01"), time("2026-01-02"), time("2026-01-02"), time("2026-01-03")])
        #expect(log.donations.map { $0.values["backyardID"] } == [.int(1), .int(2), .int(22), .int(3)])
    }

    @Test func compactionKeepsTheNewestAndTheirValues() throws {
        var log = DonationLog(fields: ["n"], maxCount: 10)
        for index in 0..<1000 {
            log.append(at: Timestamp(secondsSince1970: Double(index)), values: [.int(index)])
            #expect(log.count < 10 + 64 + 1)
        }
        let newest = log.donations.suffix(10)
        #expect(newest.map { $0.values["n"] } == (990..<1000).map { .int($0) })
        // Rules still see exactly the newest ten.
        let rule = try checkedRule("#opened-map.count == 10")
        var plain = DonationLog(fields: [], maxCount: 10)
        for index in 0..<500 { plain.append(at: Timestamp(secondsSince1970: Double(index)), values: []) }
        #expect(RuleEvaluator.outcome(rule, in: RuleContext(now: Timestamp(secondsSince1970: 1e6), donations: ["opened-map": plain])).holds)
    }

    @Test func donationsWithTheWrongNumberOfValuesAreNotStored() {
        var log = DonationLog(fields: ["a", "b"])
        log.append(at: time("2026-01-01"), values: [.int(1)])
        log.append(at: time("2026-01-01"), values: [.int(1), .int(2), .int(3)])
        #expect(log.count == 0)
        log.append(at: time("2026-01-01"), values: [.int(1), .int(2)])
        #expect(log.donations == [Donation(timestamp: time("2026-01-01"), values: ["a": .int(1), "b": .int(2)])])
    }

    @Test func removeAllEmptiesTheLog() {
        var log = DonationLog(fields: ["n"])
        log.append(at: time("2026-01-01"), values: [.int(1)])
        log.removeAll()
        #expect(log.count == 0)
        #expect(log.donations.isEmpty)
    }
}
