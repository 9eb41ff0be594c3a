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

    /// One half of compiled rules read ahead (`readAhead(_:of:)`): the per-tip half, or the programs.
    package struct RulesHalf: Sendable {
        enum Content: Sendable {
            case tips(EngineCatalog.EncodedRules.Lists)
            case programs([RuleProgram])
        }

        let read: Result<(header: EngineCatalog.EncodedRules.Header, content: Content), RuleProgram.DecodingError>
    }

    /// The halves compiled rules are read in, each on a core of its own.
    package enum Half: Sendable, CaseIterable {
        /// Per tip, the number of its programs and what its rules read.
        case tips
        /// The programs.
        case programs
    }

    /// Reads one half of `compiledRules` (without the declarations: joined with them by `readAhead(joining:declarations:)`).
    package static func readAhead(_ half: Half, of compiledRules: [UInt8]) -> RulesHalf {
        RulesHalf(read: Result { () throws(RuleProgram.DecodingError) in
            let header = try EngineCatalog.EncodedRules.Header(compiledRules)
            switch half {
            case .tips: return (header, .tips(try EngineCatalog.EncodedRules.Lists(compiledRules, header: header)))
            case .programs: return (header, .programs(try EngineCatalog.EncodedRules.programs(compiledRules, header: header)))
            }
        })
    }

    /// The two halves of compiled rules (in either order) joined for a catalog with `declarations`' events and
    /// parameters.
    package static func readAhead(joining halves: [RulesHalf], declarations: Catalog) -> RulesReadAhead {
        RulesReadAhead(encoded: Result { () throws(RuleProgram.DecodingError) in
            var lists: EngineCatalog.EncodedRules.Lists?
            var programs: [RuleProgram]?
            var header: EngineCatalog.EncodedRules.Header?
            for half in halves {
                let read = try half.read.get()
                header = read.header
                switch read.content {
                case .tips(let made): lists = made
                case .programs(let made): programs = made
                }
            }
            guard let header, let lists, let programs else { throw RuleProgram.DecodingError("half of the compiled rules missing") }
            return try EngineCatalog.EncodedRules(header: header, lists: lists, programs: programs, declarations: declarations)
        })
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

    /// The catalog whose settings and declarations are `declarations` (its tips are not read) and whose tips
    /// `facts` describe, with rules read ahead, checked to fit them. A whole tip is decoded by `tip` only when
    /// a call needs more of it than its facts (registering an instance, an action, an explanation, the whole
    /// `catalog`): deciding which tip shows needs none.
    package init(
        declarations: Catalog, facts: [TipFacts], tip: @escaping @Sendable (Int) -> Tip, rules: RulesReadAhead, withinLimits: Bool
    ) throws(RuleProgram.DecodingError) {
        var compiled = try EngineCatalog(
            declarations: declarations, facts: facts, tips: EngineTips(count: facts.count, decode: tip), encodedRules: rules.encoded.get())
        compiled.withinLimits = withinLimits
        self.compiled = compiled
    }

    /// The catalog's settings and declarations (without decoding a tip; its `tips` may be empty).
    package var declarations: Catalog { compiled.declarations }

    /// The tips' ids, in catalog order.
    package var tipIDs: [TipID] { compiled.tipIDs }

    /// The position of the tip `id` in the catalog (the first tip of that id).
    package func index(of id: TipID) -> Int? { compiled.tipIndex[id] }

    /// What the engine reads of the tip at `index` (no whole tip is decoded).
    package func facts(at index: Int) -> TipFacts { compiled.tips[index].facts }
}

extension EngineCatalog {
    static let rulesMagic: [UInt8] = Array("TCER".utf8)
    /// Raise when what is encoded per tip changes (the programs carry their own version).
    static let rulesFormat: UInt64 = 2

    /// A header (the number of tips, the number of fields of each event slot, the number of app parameters),
    /// then two sections, each after its length, so two cores read them at once:
    /// - per tip, in catalog order: whether its programs follow (a tip with rules that did not check, or with a
    ///   rule programs do not cover, is checked again when read), then the number of programs and the event,
    ///   app parameter and tip slots its rules read;
    /// - every program (`RuleProgram.encode`).
    func encodedRules() -> [UInt8] {
        var writer = BinaryWriter()
        writer.bytes = EngineCatalog.rulesMagic
        writer.varint(EngineCatalog.rulesFormat)
        writer.count(tips.count)
        writer.count(eventOrder.count)
        for id in eventOrder { writer.count(events[id]?.fields.count ?? 0) }
        writer.count(parameterOrder.count)
        var lists = BinaryWriter()
        var programs: [RuleProgram] = []
        for (index, (tip, flags)) in zip(tips, flags).enumerated() {
            guard tip.problems.isEmpty, let range = flags.programs,
                  case let referenced = tip.referencedTips.compactMap({ tipIndex[TipID($0)] }), referenced.count == tip.referencedTips.count
            else {
                lists.bool(false)
                continue
            }
            lists.bool(true)
            lists.count(range.count)
            programs += self.programs[range]
            for list in [Array(eventSlots(of: index)), Array(parameterSlots(of: index)), referenced] {
                lists.count(list.count)
                for slot in list { lists.count(slot) }
            }
        }
        writer.blob(lists.bytes)
        writer.blob(RuleProgram.encode(programs))
        return writer.bytes
    }

    /// What `encodedRules` wrote, read without the catalog's tips (only its declarations): per tip, the number
    /// of programs (-1: checked again) and the slots its rules read, then the programs. Fitting it to the tips
    /// (`init(_:encodedRules:)`) checks it belongs to them.
    struct EncodedRules: Sendable {
        /// The event ids the event slots stand for (what the declarations gave), and the number of app parameters.
        var eventOrder: [String] = []
        var parameterCount = 0
        /// The per-tip half.
        var lists = Lists()
        var programs: [RuleProgram] = []

        /// What the header says of the declarations the rules were compiled for, and where the two sections are.
        struct Header: Sendable {
            var tipCount = 0
            var eventFieldCounts: [Int] = []
            var parameterCount = 0
            var lists: Range<Int> = 0..<0
            var programs: Range<Int> = 0..<0

            init(_ bytes: [UInt8]) throws(RuleProgram.DecodingError) {
                typealias Failure = RuleProgram.DecodingError
                guard bytes.count >= EngineCatalog.rulesMagic.count, Array(bytes[0..<EngineCatalog.rulesMagic.count]) == EngineCatalog.rulesMagic else {
                    throw Failure("not a catalog's compiled rules")
                }
                var reader = BinaryReader(bytes: bytes)
                reader.position = EngineCatalog.rulesMagic.count
                guard try reader.varint() == EngineCatalog.rulesFormat else { throw Failure("written by another version") }
                tipCount = try reader.count()
                for _ in 0..<(try reader.count()) { eventFieldCounts.append(try reader.count()) }
                parameterCount = try reader.count()
                func section() throws(Failure) -> Range<Int> {
                    let length = try reader.count()
                    let start = reader.position
                    guard length <= bytes.count - start else { throw Failure("a section past the end") }
                    reader.position += length
                    return start..<(start + length)
                }
                lists = try section()
                programs = try section()
                guard reader.isAtEnd else { throw Failure("trailing bytes") }
            }
        }

        /// Per tip, its number of programs and the slots its rules read, in flat arrays (a few arrays for the
        /// whole catalog rather than a few a tip).
        struct Lists: Sendable {
            /// Per tip, the number of its programs, or -1 when its rules are checked again.
            var programCounts: [Int] = []
            /// Per tip `i`, its event slots are `slots[bounds[2i]..<bounds[2i+1]]` and its app parameter slots
            /// `slots[bounds[2i+1]..<bounds[2i+2]]`, each ascending.
            var bounds: [Int] = [0]
            var slots: [Int] = []
            /// The tips the rules of a tip read (indices), for the few tips whose rules read any.
            var referencedTips: [Int: [Int]] = [:]

            init() {}

            /// The per-tip section of `bytes` (checked against `header`).
            init(_ bytes: [UInt8], header: Header) throws(RuleProgram.DecodingError) {
                typealias Failure = RuleProgram.DecodingError
                let tipCount = header.tipCount
                var reader = BinaryReader(bytes: bytes)
                reader.position = header.lists.lowerBound
                programCounts.reserveCapacity(tipCount)
                bounds.reserveCapacity(2 * tipCount + 1)
                slots.reserveCapacity(2 * tipCount)
                // Slots are written ascending and distinct: anything else is not what `encodedRules` wrote.
                func ascending(below limit: Int, _ what: String) throws(Failure) {
                    var last = -1
                    for _ in 0..<(try reader.count()) {
                        let slot = try reader.index()
                        guard slot < limit else { throw Failure("\(what) out of range") }
                        guard slot > last else { throw Failure("\(what) listed twice") }
                        slots.append(slot)
                        last = slot
                    }
                    bounds.append(slots.count)
                }
                for index in 0..<tipCount {
                    guard try reader.bool() else {
                        programCounts.append(-1)
                        bounds.append(slots.count)
                        bounds.append(slots.count)
                        continue
                    }
                    programCounts.append(try reader.count())
                    try ascending(below: header.eventFieldCounts.count, "an event")
                    try ascending(below: header.parameterCount, "an app parameter")
                    let referenced = try reader.count()
                    guard referenced > 0 else { continue }
                    var tips: [Int] = []
                    for _ in 0..<referenced {
                        let slot = try reader.index()
                        guard slot < tipCount else { throw Failure("a tip out of range") }
                        tips.append(slot)
                    }
                    referencedTips[index] = tips
                }
                guard reader.position == header.lists.upperBound else { throw Failure("tips of another length") }
            }
        }

        /// The two halves read separately (on two cores), joined for a catalog with `declarations`' events
        /// and app parameters, which must be the ones the rules were compiled for.
        init(header: Header, lists: Lists, programs: [RuleProgram], declarations: Catalog) throws(RuleProgram.DecodingError) {
            typealias Failure = RuleProgram.DecodingError
            let events = EngineCatalog.events(of: declarations)
            eventOrder = events.keys.sorted()
            parameterCount = Set(declarations.parameters.map(\.name.rawValue)).count
            guard eventOrder.map({ events[$0]?.fields.count ?? 0 }) == header.eventFieldCounts, parameterCount == header.parameterCount else {
                throw Failure("for other declarations")
            }
            guard programs.count == lists.programCounts.reduce(0, { $0 + max($1, 0) }) else { throw Failure("programs missing") }
            self.lists = lists
            self.programs = programs
        }

        /// Reads `bytes` for a catalog with `declarations`' events and app parameters (its tips are not read).
        init(_ bytes: [UInt8], declarations: Catalog) throws(RuleProgram.DecodingError) {
            let header = try Header(bytes)
            try self.init(
                header: header, lists: Lists(bytes, header: header), programs: EncodedRules.programs(bytes, header: header),
                declarations: declarations)
        }

        /// The programs section of `bytes`, checked against the event slots in `header`.
        static func programs(_ bytes: [UInt8], header: Header) throws(RuleProgram.DecodingError) -> [RuleProgram] {
            try RuleProgram.decode(Array(bytes[header.programs]), eventFieldCounts: header.eventFieldCounts)
        }
    }

    /// `catalog` compiled with the rules `encodedRules` wrote for it.
    init(_ catalog: Catalog, encodedRules bytes: [UInt8]) throws(RuleProgram.DecodingError) {
        try self.init(catalog, encodedRules: EncodedRules(bytes, declarations: catalog))
    }

    /// `catalog` compiled with rules read ahead of its tips (`EncodedRules`), checked to fit them.
    init(_ catalog: Catalog, encodedRules encoded: EncodedRules) throws(RuleProgram.DecodingError) {
        try self.init(declarations: catalog, facts: catalog.tips.map(TipFacts.init), tips: EngineTips(catalog.tips), encodedRules: encoded)
    }

    /// The catalog whose settings and declarations are `declarations` and whose tips `facts` describe (whole in
    /// `tips`), compiled with rules read ahead of its tips (`EncodedRules`), checked to fit them. The tips'
    /// index and groups are built meanwhile, on another core when there is one.
    init(declarations catalog: Catalog, facts: [TipFacts], tips: EngineTips, encodedRules encoded: EncodedRules) throws(RuleProgram.DecodingError) {
        let declared = Declared(catalog)
        enum Part: Sendable {
            case indexing(Indexing)
            case checked(Result<Checked, RuleProgram.DecodingError>)
        }
        var indexing: Indexing?
        var checked: Checked?
        for part in concurrentChunks(count: 2, chunkSize: 1, { unit -> Part in
            unit.lowerBound == 0
                ? .indexing(Indexing(ids: facts.map(\.id), groups: catalog.groups))
                : .checked(Result { () throws(RuleProgram.DecodingError) in
                    try EngineCatalog.fit(encoded, to: facts, tips: tips, declared: declared)
                })
        }) {
            switch part {
            case .indexing(let made): indexing = made
            case .checked(let result): checked = try result.get()
            }
        }
        guard let indexing, let checked else { throw RuleProgram.DecodingError("not compiled") }
        self.init(declarations: catalog, facts: facts, tips: tips, declared: declared, indexing: indexing, checked: checked)
    }

    /// The rules `encoded` holds, checked to fit the tips `facts` describe and the declarations; tips whose
    /// rules were not compiled are checked now (their whole tips read from `whole`).
    static func fit(_ encoded: EncodedRules, to facts: [TipFacts], tips whole: EngineTips, declared: Declared) throws(RuleProgram.DecodingError) -> Checked {
        typealias Failure = RuleProgram.DecodingError
        let tips = facts
        let slots = declared.slots
        let lists = encoded.lists
        guard lists.programCounts.count == tips.count, lists.bounds.count == 2 * tips.count + 1 else { throw Failure("for another catalog") }
        // The slots must stand for this catalog's events and parameters.
        guard encoded.parameterCount == slots.parameters.count, encoded.eventOrder.count == slots.events.count,
              encoded.eventOrder.enumerated().allSatisfy({ slots.events[$1]?.slot == $0 })
        else { throw Failure("for other declarations") }
        var again: [Int] = []
        var start = 0
        var failure: Failure?
        let result = lists.programCounts.withUnsafeBufferPointer { counts in
            lists.bounds.withUnsafeBufferPointer { bounds in
                tips.indices.map { index -> CheckedRules in
                    let count = counts[index]
                    guard count >= 0 else {
                        again.append(index)
                        return CheckedRules()
                    }
                    // Each rule compiles to one program.
                    if count != tips[index].ruleCount { failure = Failure("programs for other rules") }
                    var rules = CheckedRules(programs: start..<(start + count), rulesChecked: false)
                    start += count
                    rules.eventSlots = bounds[2 * index]..<bounds[2 * index + 1]
                    rules.parameterSlots = bounds[2 * index + 1]..<bounds[2 * index + 2]
                    if let referenced = lists.referencedTips[index] {
                        rules.referencedTips = Array(Set(referenced.map { tips[$0].id.rawValue }))
                    }
                    return rules
                }
            }
        }
        if let failure { throw failure }
        var decoded = Checked(tips: result, programs: encoded.programs, slots: lists.slots)
        if !again.isEmpty {
            // Checked again: their programs go after the decoded ones.
            let checked = EngineCatalog.check(
                ArraySlice(again.map { whole.tip($0) }), in: declared.environment(tipIDs: facts.map(\.id)), slots: slots, cache: CheckedRuleCache())
            for (index, rules) in zip(again, decoded.adopt(checked)) { decoded.tips[index] = rules }
        }
        return decoded
    }
}
