import Foundation
import Testing
import TipcatCatalog
import TipcatCore
import TipcatEngine
@testable import TipcatEngineStore
import TipcatTestSupport

/// Random device states drawn from one shared history, as real devices' states are: a donation id always
/// names the same donation, a stamp the same write.
struct RandomStates {
    static let devices = ["phone", "tablet", "laptop"]
    static let events: [EventID] = ["opened-map", "visited-region", "entered-backyard-detail-view"]
    static let limits = SyncState.DonationLimits(defaultLimit: 6, perEvent: ["opened-map": 3])

    var random: SeededGenerator
    var donations: [SyncState.Donation] = []
    var stamps: [HLCStamp] = []

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)  // TipcatCore's SplitMix64: a failing case replays from its seed
        for device in Self.devices {
            for sequence in 1...8 {
                let event = Self.events[Int.random(in: 0..<Self.events.count, using: &random)]
                let time = Timestamp(secondsSince1970: Double(Int.random(in: 0..<12, using: &random)) * 0.5)
                var values: [String: Value] = [:]
                if event == "visited-region" { values["region"] = .string(["Wasatch", "Uinta"][Int.random(in: 0..<2, using: &random)]) }
                if event == "entered-backyard-detail-view" { values["backyardID"] = .int(Int.random(in: 1...3, using: &random)) }
                donations.append(SyncState.Donation(
                    id: SyncState.DonationID(device: device, sequence: Int64(sequence)), event: event, timestamp: time, values: values))
            }
            for tick in 0..<4 {
                // Ties in time between devices happen: the device breaks them.
                stamps.append(HLCStamp(time: HybridTime(milliseconds: Int64(Int.random(in: 0..<3, using: &random) * 1000), counter: Int64(tick)), device: device))
            }
        }
    }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func pick<T>(_ list: [T]) -> T { list[Int.random(in: 0..<list.count, using: &random)] }

    /// The value a stamp wrote: a function of the stamp.
    func value(for stamp: HLCStamp) -> Value {
        .string("\(stamp.device)@\(stamp.time.milliseconds).\(stamp.time.counter)")
    }

    mutating func state() -> SyncState {
        var state = SyncState()
        for donation in donations where chance(40) { state.donations[donation.id] = donation }
        for event in Self.events where chance(15) {
            let donation = pick(donations)
            state.deletions[event] = SyncState.DonationKey(timestamp: donation.timestamp, id: donation.id)
        }
        for instance in ["FavoriteBackyardTip", "NewTrailTip-butler-fork"] where chance(70) {
            let written = pick(stamps)
            var tip = SyncState.Tip(tip: TipID(instance.split(separator: "-").first.map(String.init) ?? instance),
                                    parameters: ["note": value(for: written)], parametersStamp: written)
            if chance(40) { tip.reset = pick(stamps) }
            for device in Self.devices where chance(50) {
                let count = Int.random(in: 0...5, using: &random)
                tip.displays[device] = SyncState.DisplayCounter(
                    count: count, seconds: Double(Int.random(in: 0...40, using: &random)) * 0.25,
                    first: count > 0 ? Timestamp(secondsSince1970: Double(Int.random(in: 0...3, using: &random))) : nil,
                    last: count > 0 ? Timestamp(secondsSince1970: Double(Int.random(in: 3...6, using: &random))) : nil)
            }
            if chance(40) {
                tip.invalidation = SyncState.Invalidation(
                    reason: pick(TipInvalidationReason.allCases), at: Timestamp(secondsSince1970: Double(Int.random(in: 0...3, using: &random))),
                    device: pick(Self.devices))
            }
            state.tips[TipInstanceID(instance)] = tip
        }
        for name in ["isLoggedIn", "mapMode"] where chance(60) {
            let stamp = pick(stamps)
            state.parameters[ParameterName(name)] = SyncState.StampedValue(value: value(for: stamp), stamp: stamp)
        }
        if chance(60) { state.lastNewTipShown = Timestamp(secondsSince1970: Double(Int.random(in: 0...9, using: &random))) }
        state.clock = pick(stamps).time
        return state
    }

    /// Merges `states` as a random binary tree over a random permutation.
    mutating func mergeInRandomGrouping(_ states: [SyncState]) -> SyncState {
        var pool = states.shuffled(using: &random)
        while pool.count > 1 {
            let index = Int.random(in: 0..<(pool.count - 1), using: &random)
            let merged = pool[index].merged(with: pool[index + 1], limits: Self.limits)
            pool.replaceSubrange(index...(index + 1), with: [merged])
        }
        return pool.first.map { SyncState.merge([$0], limits: Self.limits) } ?? SyncState()
    }
}

@Suite struct StateMergeTests {
    /// 1,200 random cases: 2 to 6 device states (some given twice), merged all at once, in random orders and
    /// groupings, and merged again with a part of themselves, always give the same state — which reads back
    /// from its file unchanged.
    @Test func mergeIsCommutativeAssociativeAndIdempotent() throws {
        var cases = 0
        var differing = 0
        for seed in 1...1200 as ClosedRange<UInt64> {
            var generator = RandomStates(seed: seed)
            var states = (0..<Int.random(in: 2...6, using: &generator.random)).map { _ in generator.state() }
            if generator.chance(30), let again = states.first { states.append(again) }
            let reference = SyncState.merge(states, limits: RandomStates.limits)
            let grouped = generator.mergeInRandomGrouping(states)
            let reversed = SyncState.merge(states.reversed(), limits: RandomStates.limits)
            let twice = SyncState.merge([reference] + states.prefix(2), limits: RandomStates.limits)
            let withItself = reference.merged(with: reference, limits: RandomStates.limits)
            #expect(grouped == reference, "seed \(seed): a random grouping differs")
            #expect(reversed == reference, "seed \(seed): the reversed order differs")
            #expect(twice == reference, "seed \(seed): merging again changed the state")
            #expect(withItself == reference, "seed \(seed): merging with itself changed the state")
            let file = SyncStateFile(device: "phone", state: reference)
            #expect(try SyncStateFile(bytes: file.fileBytes, path: "case.json") == file, "seed \(seed): the file does not read back")
            if states.contains(where: { SyncState.merge([$0], limits: RandomStates.limits) != reference }) { differing += 1 }
            cases += 1
        }
        #expect(cases == 1200)
        // The cases are not trivial: in most, the merge differs from each input.
        #expect(differing > 1100)
    }

    /// Each rule on a small case: union of donations, deletion marks, pruning by (time, device, sequence),
    /// per-device display counters summed, the earliest invalidation (reason order on a tie), last writer wins.
    @Test func mergeRulesOnAHandMadeCase() {
        func stamp(_ ms: Int64, _ device: String) -> HLCStamp { HLCStamp(time: HybridTime(milliseconds: ms), device: device) }
        func donation(_ device: String, _ seq: Int64, at time: Double) -> SyncState.Donation {
            SyncState.Donation(id: .init(device: device, sequence: seq), event: "opened-map", timestamp: Timestamp(secondsSince1970: time))
        }
        var phone = SyncState()
        var tablet = SyncState()
        for d in [donation("phone", 1, at: 10), donation("phone", 2, at: 20), donation("phone", 3, at: 30)] { phone.donations[d.id] = d }
        for d in [donation("phone", 2, at: 20), donation("tablet", 1, at: 30), donation("tablet", 2, at: 5)] { tablet.donations[d.id] = d }
        tablet.deletions["opened-map"] = SyncState.DonationKey(timestamp: Timestamp(secondsSince1970: 10), id: .init(device: "phone", sequence: 1))
        phone.tips["T"] = SyncState.Tip(tip: "T", parametersStamp: stamp(1, "phone"),
                                        displays: ["phone": .init(count: 2, seconds: 3), "tablet": .init(count: 1, seconds: 1)],
                                        invalidation: .init(reason: .tipClosed, at: Timestamp(secondsSince1970: 50), device: "phone"))
        tablet.tips["T"] = SyncState.Tip(tip: "T", parametersStamp: stamp(1, "phone"),
                                         displays: ["tablet": .init(count: 3, seconds: 2)],
                                         invalidation: .init(reason: .actionPerformed, at: Timestamp(secondsSince1970: 50), device: "tablet"))
        phone.parameters["mode"] = .init(value: .string("phone"), stamp: stamp(5, "phone"))
        tablet.parameters["mode"] = .init(value: .string("tablet"), stamp: stamp(5, "tablet"))
        let merged = phone.merged(with: tablet, limits: SyncState.DonationLimits(defaultLimit: 3))
        // The mark (10, phone, 1) deletes phone:1 and tablet:2 (time 5, ordered before it); phone:2 (time 20),
        // phone:3 and tablet:1 (both time 30) stay.
        #expect(merged.donations.keys.sorted() == [.init(device: "phone", sequence: 2), .init(device: "phone", sequence: 3),
                                                    .init(device: "tablet", sequence: 1)])
        let tip = merged.tips["T"]
        #expect(tip?.displayCount == 5)
        #expect(tip?.displaySeconds == 5)
        #expect(tip?.invalidation == .init(reason: .actionPerformed, at: Timestamp(secondsSince1970: 50), device: "tablet"))
        #expect(merged.parameters["mode"]?.value == .string("tablet"))

        // Pruning to 2 keeps the newest two by (time, device, sequence): the tie at 30 goes to tablet > phone.
        let pruned = phone.merged(with: tablet, limits: SyncState.DonationLimits(defaultLimit: 2))
        #expect(pruned.donations.keys.sorted() == [.init(device: "phone", sequence: 3), .init(device: "tablet", sequence: 1)])

        // A newer reset drops older displays and invalidation.
        var laptop = SyncState()
        laptop.tips["T"] = SyncState.Tip(tip: "T", parametersStamp: stamp(1, "phone"), reset: stamp(9, "laptop"),
                                         displays: ["laptop": .init(count: 1, seconds: 4)])
        let reset = SyncState.merge([phone, tablet, laptop])
        #expect(reset.tips["T"]?.displayCount == 1)
        #expect(reset.tips["T"]?.invalidation == nil)
    }

    /// The merge rules on fixture states (Fixtures/merge/*.state.json), against the recorded merged file.
    /// Re-record with TIPCAT_RECORD_GOLDEN=1.
    @Test func goldenMerge() throws {
        let directory = repositoryRoot + "/Tests/TipcatEngineStoreTests/Fixtures/merge"
        var files: [SyncStateFile] = []
        for name in ["phone", "tablet", "laptop"] {
            let path = "\(directory)/\(name).state.json"
            let data = try #require(FileManager.default.contents(atPath: path))
            files.append(try SyncStateFile(bytes: [UInt8](data), path: path))
        }
        let limits = SyncState.DonationLimits(perEvent: ["opened-map": 3])
        let merged = SyncStateFile(device: "laptop", state: SyncState.merge(files.map(\.state), limits: limits))
        let expectedPath = "\(directory)/merged.state.json"
        if ProcessInfo.processInfo.environment["TIPCAT_RECORD_GOLDEN"] == "1" {
            try Data(merged.fileBytes).write(to: URL(fileURLWithPath: expectedPath))
        }
        let expected = try #require(FileManager.default.contents(atPath: expectedPath))
        #expect(String(decoding: merged.fileBytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
                "re-record with TIPCAT_RECORD_GOLDEN=1")
        // Any order gives the same bytes.
        let reordered = SyncStateFile(device: "laptop", state: SyncState.merge(files.reversed().map(\.state), limits: limits))
        #expect(reordered.fileBytes == merged.fileBytes)
    }

    /// Damaged files are refused with a located message: not JSON, truncated, a newer format, unknown or
    /// missing members, bad device ids, bad values.
    @Test func badFilesAreRefusedWithALocation() throws {
        var state = SyncState()
        state.donations[.init(device: "phone", sequence: 1)] = .init(
            id: .init(device: "phone", sequence: 1), event: "opened-map", timestamp: Timestamp(secondsSince1970: 1))
        let good = String(decoding: SyncStateFile(device: "phone", state: state).fileBytes, as: UTF8.self)
        func error(_ text: String) -> String {
            do {
                _ = try SyncStateFile(bytes: Array(text.utf8), path: "s.json")
                return "read"
            } catch {
                return error.description
            }
        }
        #expect(error(good) == "read")
        #expect(error("nope") == "s.json:1:1: not a state file: unexpected character 'n'" || error("nope").hasPrefix("s.json:1:1: not a state file:"))
        let truncated = String(good.prefix(good.count / 2))
        #expect(error(truncated).contains("not a state file:"))
        #expect(error(truncated).hasPrefix("s.json:"))
        #expect(error(good.replacingOccurrences(of: "\"format\": 1", with: "\"format\": 2"))
                == "s.json:2:13: state format 2 is newer than this tipcat reads (1); upgrade tipcat")
        #expect(error(good.replacingOccurrences(of: "\"format\": 1", with: "\"format\": 0"))
                == "s.json:2:13: format must be at least 1, not 0")
        #expect(error(good.replacingOccurrences(of: "\"kind\"", with: "\"knd\""))
                == "s.json:3:3: unknown member 'knd' in the state")
        #expect(error(good.replacingOccurrences(of: "\"device\": \"phone\"", with: "\"device\": \"ph one\""))
                == "s.json:4:13: device 'ph one' is not a device id (1 to 64 letters, digits, '.', '_' or '-')")
        #expect(error(good.replacingOccurrences(of: "\"seq\":1", with: "\"seq\":\"1\""))
                == "s.json:10:59: donation 1: seq must be an integer of at least 0")
        #expect(error(good.replacingOccurrences(of: "\"values\":{}", with: "\"values\":{\"a\":null}"))
                .hasPrefix("s.json:10:75: null is not a value"))
        #expect(error(good.replacingOccurrences(of: "\"kind\": \"tipcat-state\",", with: "\"kind\": \"tipcat-state\", \"kind\": \"x\","))
                == "s.json:3:27: duplicate member 'kind' (first at line 3, column 3)")
    }
}
