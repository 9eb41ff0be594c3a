public import TipcatCatalog
import TipcatCore
public import TipcatRules

/// A catalog with its rules checked and compiled, ready for an engine (`TipEngineSession(prepared:…)`).
///
/// Its `compiledRules` can be kept (tipcat keeps them in the engine snapshot) and given back with the same
/// catalog to a later process, which then builds the engine without checking the rules: per tip, the rule
/// programs and what the rules read (events, app parameters, other tips). Tips whose rules do not all compile
/// to programs, or do not check, are checked again when read; the others' rules are checked only when an
/// explanation needs their trees. Bytes that do not fit the catalog are refused (`RuleProgram.DecodingError`),
/// never trusted blindly: every index is checked.
public struct PreparedCatalog: Sendable {
    let compiled: EngineCatalog

    /// Checks and compiles `catalog`'s rules.
    public init(_ catalog: Catalog) {
        compiled = EngineCatalog(catalog)
    }

    /// `catalog` with the compiled rules a `PreparedCatalog` of the same catalog gave.
    public init(_ catalog: Catalog, compiledRules: [UInt8]) throws(RuleProgram.DecodingError) {
        compiled = try EngineCatalog(catalog, encodedRules: compiledRules)
    }

    /// The catalog.
    public var catalog: Catalog { compiled.catalog }

    /// The compiled rules as bytes, for `init(_:compiledRules:)`.
    public var compiledRules: [UInt8] { compiled.encodedRules() }
}

extension EngineCatalog {
    static let rulesMagic: [UInt8] = Array("TCER".utf8)
    /// Raise when what is encoded per tip changes (the programs carry their own version).
    static let rulesFormat: UInt64 = 1

    /// Per tip, in catalog order: whether its programs follow (a tip with rules that did not check, or with a
    /// rule programs do not cover, is checked again when read), then the number of programs and the event,
    /// app parameter and tip slots its rules read; then every program (`RuleProgram.encode`).
    func encodedRules() -> [UInt8] {
        var writer = BinaryWriter()
        writer.bytes = EngineCatalog.rulesMagic
        writer.varint(EngineCatalog.rulesFormat)
        writer.count(tips.count)
        var programs: [RuleProgram] = []
        for (tip, flags) in zip(tips, flags) {
            guard tip.problems.isEmpty, let range = flags.programs,
                  case let (events, parameters) = (tip.eventSlots, tip.parameterSlots),
                  case let referenced = tip.referencedTips.compactMap({ tipIndex[TipID($0)] }), referenced.count == tip.referencedTips.count
            else {
                writer.bool(false)
                continue
            }
            writer.bool(true)
            writer.count(range.count)
            programs += self.programs[range]
            for list in [events, parameters, referenced] {
                writer.count(list.count)
                for slot in list { writer.count(slot) }
            }
        }
        let encoded = RuleProgram.encode(programs)
        writer.count(encoded.count)
        writer.bytes += encoded
        return writer.bytes
    }

    /// `catalog` compiled with the rules `encodedRules` wrote for it.
    init(_ catalog: Catalog, encodedRules bytes: [UInt8]) throws(RuleProgram.DecodingError) {
        typealias Failure = RuleProgram.DecodingError
        try self.init(catalog, checking: { (environment, slots) throws(Failure) -> Checked in
            let tips = catalog.tips
            var reader = BinaryReader(bytes: bytes)
            guard bytes.count >= EngineCatalog.rulesMagic.count, Array(bytes[0..<EngineCatalog.rulesMagic.count]) == EngineCatalog.rulesMagic else {
                throw Failure("not a catalog's compiled rules")
            }
            reader.position = EngineCatalog.rulesMagic.count
            guard try reader.varint() == EngineCatalog.rulesFormat else { throw Failure("written by another version") }
            guard try reader.count() == tips.count else { throw Failure("for another catalog") }
            var eventNames = [String](repeating: "", count: slots.events.count)
            for (id, event) in slots.events where event.slot < eventNames.count { eventNames[event.slot] = id }
            let parameterCount = slots.parameters.count
            var result: [CheckedRules] = []
            result.reserveCapacity(tips.count)
            var programCounts: [Int?] = []
            programCounts.reserveCapacity(tips.count)
            var again: [Int] = []
            for index in tips.indices {
                guard try reader.bool() else {
                    again.append(index)
                    result.append(CheckedRules())
                    programCounts.append(nil)
                    continue
                }
                let count = try reader.count()
                // Each rule compiles to one program.
                guard count == tips[index].rules.count else { throw Failure("programs for other rules") }
                var rules = CheckedRules(programs: nil, rulesChecked: false)
                // Slots are written ascending and distinct: anything else is not what `encodedRules` wrote.
                func ascending(below limit: Int, _ what: String) throws(Failure) -> [Int] {
                    var slots: [Int] = []
                    for _ in 0..<(try reader.count()) {
                        let slot = try reader.index()
                        guard slot < limit else { throw Failure("\(what) out of range") }
                        guard slot > (slots.last ?? -1) else { throw Failure("\(what) listed twice") }
                        slots.append(slot)
                    }
                    return slots
                }
                rules.eventSlots = try ascending(below: eventNames.count, "an event")
                rules.parameterSlots = try ascending(below: parameterCount, "an app parameter")
                var referenced = Set<String>()
                for _ in 0..<(try reader.count()) {
                    let slot = try reader.index()
                    guard slot < tips.count else { throw Failure("a tip out of range") }
                    referenced.insert(tips[slot].id.rawValue)
                }
                rules.referencedTips = Array(referenced)
                result.append(rules)
                programCounts.append(count)
            }
            let length = try reader.count()
            let encoded = Array(bytes[reader.position..<(reader.position + length)])
            reader.position += length
            guard reader.isAtEnd else { throw Failure("trailing bytes") }
            let programs = try RuleProgram.decode(encoded, eventFieldCounts: eventNames.map { slots.events[$0]?.fields.count ?? 0 })
            guard programs.count == programCounts.reduce(0, { $0 + ($1 ?? 0) }) else { throw Failure("programs missing") }
            var start = 0
            for (index, count) in programCounts.enumerated() {
                guard let count else { continue }
                result[index].programs = start..<(start + count)
                start += count
            }
            var decoded = Checked(tips: result, programs: programs)
            if !again.isEmpty {
                // Checked again: their programs go after the decoded ones.
                let checked = EngineCatalog.check(ArraySlice(again.map { tips[$0] }), in: environment(), slots: slots, cache: CheckedRuleCache())
                let offset = decoded.programs.count
                decoded.programs += checked.programs
                for (index, var rules) in zip(again, checked.tips) {
                    rules.programs = rules.programs.map { ($0.lowerBound + offset)..<($0.upperBound + offset) }
                    decoded.tips[index] = rules
                }
            }
            return decoded
        })
    }
}
