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

    /// Compiled rules read with the catalog's declarations alone (its settings, events and parameters), so a
    /// reader can decode them while it decodes the tips.
    package struct RulesReadAhead: Sendable {
        let encoded: Result<EngineCatalog.EncodedRules, RuleProgram.DecodingError>
    }

    /// Reads `compiledRules` for a catalog with `declarations`' events and parameters.
    package static func readAhead(_ compiledRules: [UInt8], declarations: Catalog) -> RulesReadAhead {
        RulesReadAhead(encoded: Result { () throws(RuleProgram.DecodingError) in
            try EngineCatalog.EncodedRules(compiledRules, declarations: declarations)
        })
    }

    /// `catalog` with rules read ahead (`readAhead`), checked to fit its tips and declarations as
    /// `init(_:compiledRules:)` checks them. `withinLimits` says `CatalogLimits` found no problem in `catalog`
    /// (a prepared snapshot records it), so the engine does not look again when it starts.
    package init(_ catalog: Catalog, rules: RulesReadAhead, withinLimits: Bool) throws(RuleProgram.DecodingError) {
        var compiled = try EngineCatalog(catalog, encodedRules: rules.encoded.get())
        compiled.withinLimits = withinLimits
        self.compiled = compiled
    }
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

    /// What `encodedRules` wrote, read without the catalog's tips (only its declarations): per tip, the number
    /// of programs (nil: checked again) and the slots its rules read, then the programs. Fitting it to the tips
    /// (`init(_:encodedRules:)`) checks it belongs to them.
    struct EncodedRules: Sendable {
        /// The event ids and app parameter names the slots stand for (what the declarations gave).
        var eventOrder: [String] = []
        var parameterCount = 0
        var programCounts: [Int?] = []
        var eventSlots: [[Int]] = []
        var parameterSlots: [[Int]] = []
        var referencedTips: [[Int]] = []
        var programs: [RuleProgram] = []

        /// Reads `bytes` for a catalog with `declarations`' events and app parameters (its tips are not read).
        init(_ bytes: [UInt8], declarations: Catalog) throws(RuleProgram.DecodingError) {
            typealias Failure = RuleProgram.DecodingError
            let events = EngineCatalog.events(of: declarations)
            let parameterCount = Set(declarations.parameters.map(\.name.rawValue)).count
            var reader = BinaryReader(bytes: bytes)
            guard bytes.count >= EngineCatalog.rulesMagic.count, Array(bytes[0..<EngineCatalog.rulesMagic.count]) == EngineCatalog.rulesMagic else {
                throw Failure("not a catalog's compiled rules")
            }
            reader.position = EngineCatalog.rulesMagic.count
            guard try reader.varint() == EngineCatalog.rulesFormat else { throw Failure("written by another version") }
            let tipCount = try reader.count()
            eventOrder = events.keys.sorted()
            self.parameterCount = parameterCount
            programCounts.reserveCapacity(tipCount)
            eventSlots.reserveCapacity(tipCount)
            parameterSlots.reserveCapacity(tipCount)
            referencedTips.reserveCapacity(tipCount)
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
            for _ in 0..<tipCount {
                guard try reader.bool() else {
                    programCounts.append(nil)
                    eventSlots.append([])
                    parameterSlots.append([])
                    referencedTips.append([])
                    continue
                }
                programCounts.append(try reader.count())
                eventSlots.append(try ascending(below: eventOrder.count, "an event"))
                parameterSlots.append(try ascending(below: parameterCount, "an app parameter"))
                var referenced: [Int] = []
                for _ in 0..<(try reader.count()) {
                    let slot = try reader.index()
                    guard slot < tipCount else { throw Failure("a tip out of range") }
                    referenced.append(slot)
                }
                referencedTips.append(referenced)
            }
            let length = try reader.count()
            let encoded = Array(bytes[reader.position..<(reader.position + length)])
            reader.position += length
            guard reader.isAtEnd else { throw Failure("trailing bytes") }
            programs = try RuleProgram.decode(encoded, eventFieldCounts: eventOrder.map { events[$0]?.fields.count ?? 0 })
            guard programs.count == programCounts.reduce(0, { $0 + ($1 ?? 0) }) else { throw Failure("programs missing") }
        }
    }

    /// `catalog` compiled with the rules `encodedRules` wrote for it.
    init(_ catalog: Catalog, encodedRules bytes: [UInt8]) throws(RuleProgram.DecodingError) {
        try self.init(catalog, encodedRules: EncodedRules(bytes, declarations: catalog))
    }

    /// `catalog` compiled with rules read ahead of its tips (`EncodedRules`), checked to fit them. The tips'
    /// index and groups are built meanwhile, on another core when there is one.
    init(_ catalog: Catalog, encodedRules encoded: EncodedRules) throws(RuleProgram.DecodingError) {
        let declared = Declared(catalog)
        enum Part: Sendable {
            case indexing(Indexing)
            case checked(Result<Checked, RuleProgram.DecodingError>)
        }
        var indexing: Indexing?
        var checked: Checked?
        for part in concurrentChunks(count: 2, chunkSize: 1, { unit -> Part in
            unit.lowerBound == 0
                ? .indexing(Indexing(catalog))
                : .checked(Result { () throws(RuleProgram.DecodingError) in try EngineCatalog.fit(encoded, to: catalog, declared: declared) })
        }) {
            switch part {
            case .indexing(let made): indexing = made
            case .checked(let result): checked = try result.get()
            }
        }
        guard let indexing, let checked else { throw RuleProgram.DecodingError("not compiled") }
        self.init(catalog, declared: declared, indexing: indexing, checked: checked)
    }

    /// The rules `encoded` holds, checked to fit `catalog`'s tips and declarations; tips whose rules were not
    /// compiled are checked now.
    static func fit(_ encoded: EncodedRules, to catalog: Catalog, declared: Declared) throws(RuleProgram.DecodingError) -> Checked {
        typealias Failure = RuleProgram.DecodingError
        let tips = catalog.tips
        let slots = declared.slots
        guard encoded.programCounts.count == tips.count else { throw Failure("for another catalog") }
        // The slots must stand for this catalog's events and parameters.
        guard encoded.parameterCount == slots.parameters.count, encoded.eventOrder.count == slots.events.count,
              encoded.eventOrder.enumerated().allSatisfy({ slots.events[$1]?.slot == $0 })
        else { throw Failure("for other declarations") }
        var result: [CheckedRules] = []
        result.reserveCapacity(tips.count)
        var again: [Int] = []
        var start = 0
        for index in tips.indices {
            guard let count = encoded.programCounts[index] else {
                again.append(index)
                result.append(CheckedRules())
                continue
            }
            // Each rule compiles to one program.
            guard count == tips[index].rules.count else { throw Failure("programs for other rules") }
            var rules = CheckedRules(programs: start..<(start + count), rulesChecked: false)
            start += count
            rules.eventSlots = encoded.eventSlots[index]
            rules.parameterSlots = encoded.parameterSlots[index]
            if !encoded.referencedTips[index].isEmpty {
                rules.referencedTips = Array(Set(encoded.referencedTips[index].map { tips[$0].id.rawValue }))
            }
            result.append(rules)
        }
        var decoded = Checked(tips: result, programs: encoded.programs)
        if !again.isEmpty {
            // Checked again: their programs go after the decoded ones.
            let checked = EngineCatalog.check(
                ArraySlice(again.map { tips[$0] }), in: declared.environment(catalog), slots: slots, cache: CheckedRuleCache())
            for (index, rules) in zip(again, decoded.adopt(checked)) { decoded.tips[index] = rules }
        }
        return decoded
    }
}
