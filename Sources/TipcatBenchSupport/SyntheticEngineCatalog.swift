public import TipcatCatalog
public import TipcatCore
public import TipcatEngine
import TipcatLocalization

/// A generated catalog and donation history for engine benchmarks and randomized tests.
///
/// `events` events with an int field `item` (20 distinct values); `tips` tips with one to three rules drawn
/// from the rule shapes real apps use (flags, counts, windows, largest subsets, filters, `lastDonated`,
/// other tips), persistent parameters only, and groups of five tips. With `gated`, every tip also needs the
/// bool parameter `$gate` (false): no tip is ever eligible, so `next()` must look at every tip — the worst case.
public struct SyntheticEngineCatalog: Sendable {
    public var catalog: Catalog
    public var eventIDs: [EventID]
    public var flagNames: [ParameterName]
    public var levelNames: [ParameterName]

    /// Generates a catalog; the same seed gives the same catalog.
    ///
    /// About one tip in `tipReferences` also requires an earlier tip to be invalidated (`tip(ID).invalidated`).
    public init(tips: Int, events: Int = 50, groups: Int = 20, gated: Bool = false, tipReferences: Int = 50, seed: UInt64 = 42) {
        var random = SeededGenerator(seed: seed)
        let eventIDs = (0..<max(1, events)).map { EventID("event-\($0)") }
        let flags = (0..<20).map { ParameterName("flag\($0)") }
        let levels = (0..<10).map { ParameterName("level\($0)") }
        let declarations = eventIDs.map { EventDeclaration(id: $0, fields: [ValueType.RecordField("item", .int)]) }
        let parameters = flags.map { AppParameter(name: $0, type: .bool, defaultValue: .bool(false)) }
            + levels.map { AppParameter(name: $0, type: .int, defaultValue: .int(0)) }
            + [AppParameter(name: "gate", type: .bool, defaultValue: .bool(false))]
        let ids = (0..<max(0, tips)).map { index -> TipID in
            let digits = String(index)
            return TipID("Tip" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits)
        }
        func event() -> String { eventIDs[Int.random(in: 0..<eventIDs.count, using: &random)].rawValue }
        func rule() -> String {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: return "$\(flags[Int.random(in: 0..<flags.count, using: &random)])"
            case 1: return "$\(levels[Int.random(in: 0..<levels.count, using: &random)]) >= \(Int.random(in: 1...5, using: &random))"
            case 2, 3: return "#\(event()).count >= \(Int.random(in: 100...1500, using: &random))"
            case 4: return "#\(event()).within(\(Int.random(in: 1...14, using: &random))d).count >= \(Int.random(in: 10...400, using: &random))"
            case 5: return "#\(event()).within(5d).largestSubset(item).count >= \(Int.random(in: 3...40, using: &random))"
            case 6: return "#\(event()).where(item == \(Int.random(in: 0..<20, using: &random))).count > \(Int.random(in: 5...80, using: &random))"
            case 7: return "#\(event()).within(.day).smallestSubset(item).count > \(Int.random(in: 0...3, using: &random))"
            case 8: return "#\(event()).lastDonated > now - \(Int.random(in: 1...48, using: &random))h"
            default: return "#\(event()).count == 0 || $\(flags[Int.random(in: 0..<flags.count, using: &random)])"
            }
        }
        var tipList: [Tip] = []
        for (index, id) in ids.enumerated() {
            var rules = (0..<Int.random(in: 1...3, using: &random)).map { _ in TipRule(source: rule()) }
            if index > 0, Int.random(in: 0..<max(1, tipReferences), using: &random) == 0 {
                rules.append(TipRule(source: "tip(\(ids[Int.random(in: 0..<index, using: &random)])).invalidated"))
            }
            if gated { rules.append(TipRule(source: "$gate")) }
            let title = LocalizedText(key: "\(id).title", source: "Tip \(index)", message: nil)
            let options = TipOptions(maxDisplayCount: Int.random(in: 0..<3, using: &random) == 0 ? 3 : nil)
            tipList.append(Tip(id: id, title: title, rules: rules, options: options, file: "synthetic/\(id).json"))
        }
        var groupList: [TipGroup] = []
        for group in 0..<min(max(0, groups), ids.count / 5) {
            let members = Array(ids[(group * 5)..<(group * 5 + 5)])
            groupList.append(TipGroup(id: GroupID("group\(group)"), priority: group % 2 == 0 ? .ordered : .firstAvailable, tips: members))
        }
        let settings = CatalogSettings(name: "synthetic", sourceLanguage: .english, supportedLocales: [.english])
        self.catalog = Catalog(
            root: "synthetic", settings: settings, parameters: parameters, events: declarations, groups: groupList,
            tips: tipList, localizations: LocalizationTable(sourceLanguage: .english))
        self.eventIDs = eventIDs
        self.flagNames = flags
        self.levelNames = levels
    }

    /// `count` donations spread evenly over the `span` before `end`, to random events with random items,
    /// in time order.
    public func donations(_ count: Int, endingAt end: Timestamp, over span: TimeSpan = TimeSpan(seconds: 30 * 86_400),
                          seed: UInt64 = 7) -> [StoredDonation] {
        var random = SeededGenerator(seed: seed)
        let step = count > 0 ? span.seconds / Double(count) : 0
        let start = end.secondsSince1970 - span.seconds
        return (0..<max(0, count)).map { index in
            StoredDonation(
                event: eventIDs[Int.random(in: 0..<eventIDs.count, using: &random)],
                timestamp: Timestamp(secondsSince1970: start + step * Double(index + 1)),
                values: ["item": .int(Int.random(in: 0..<20, using: &random))])
        }
    }
}
