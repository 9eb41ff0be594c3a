import Testing
import TipcatCatalog
import TipcatCore
@testable import TipcatEngine
import TipcatRules

/// The donation logs the engine makes from a loaded state, each event's on its own (on every core): every event
/// keeps its newest `maxCount` donations that fit its declaration, in time order, whatever the storage order.
@Suite struct StoredLogsTests {
    @Test func eachEventKeepsItsNewestFittingDonationsInTimeOrder() {
        // Forty events, enough to be made in several runs: event i keeps at most 5 + i % 7 donations.
        let events = (0..<40).map { index in
            EventDeclaration(
                id: EventID("event-\(index)"), fields: [ValueType.RecordField("n", .int)],
                donationLimit: DonationLimit(maxCount: 5 + index % 7))
        }
        var donations: [StoredDonation] = []
        // Stored out of time order, interleaved across events; every third donation of an event no longer fits
        // its declaration (a string where an int is declared).
        for step in 0..<30 {
            for (index, event) in events.enumerated() {
                let second = Double((step * 37 + index * 11) % 30) * 60
                let value: Value = step % 3 == 2 ? .string("old") : .int(step)
                donations.append(StoredDonation(event: event.id, timestamp: Timestamp(secondsSince1970: second), values: ["n": value]))
            }
        }
        let logs = EngineCore.logs(Dictionary(uniqueKeysWithValues: events.map { ($0.id.rawValue, $0) }), donations)
        #expect(logs.count == events.count)
        for (index, event) in events.enumerated() {
            let fitting = donations.enumerated()
                .filter { $0.element.event == event.id && $0.element.values["n"] != .string("old") }
                .sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
                .map(\.element)
            let expected = fitting.suffix(5 + index % 7)
            let log = logs[event.id.rawValue]
            #expect(log?.count == expected.count, "\(event.id)")
            #expect(log?.donations.map(\.timestamp) == expected.map(\.timestamp), "\(event.id)")
            #expect(log?.donations.map { $0.values["n"] } == expected.map { $0.values["n"] }, "\(event.id)")
        }
    }
}
