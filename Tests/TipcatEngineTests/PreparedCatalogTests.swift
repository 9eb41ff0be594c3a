import Synchronization
import Testing
import TipcatCatalog
import TipcatCore
@testable import TipcatEngine
import TipcatRules

/// Compiled rules read ahead of the tips (with the declarations alone) decide as the catalog they were compiled
/// from, and are refused for other tips or other declarations.
@Suite struct PreparedCatalogTests {
    static func decisions(_ prepared: PreparedCatalog) throws -> [String] {
        var engine = try TipEngineSession(
            prepared: prepared, store: InMemoryTipStateStore(), configuration: TipEngineConfiguration(clock: FixedClock(time("2026-01-05T09:00"))))
        try engine.donate("entered-backyard-detail-view", ["backyardID": .int(3)])
        try engine.setParameter("isLoggedIn", to: .bool(true))
        return try engine.tips().map { "\($0.instance): \($0.status)" } + ["next: \(try engine.next()?.rawValue ?? "none")"]
    }

    @Test func rulesReadAheadDecideAsTheCatalogTheyCameFrom() throws {
        let compiled = PreparedCatalog(sampleCatalog)
        var declarations = sampleCatalog
        declarations.tips = []
        let ahead = PreparedCatalog.readAhead(compiled.compiledRules, declarations: declarations)
        let read = try PreparedCatalog(sampleCatalog, rules: ahead, withinLimits: false)
        #expect(try Self.decisions(read) == Self.decisions(compiled))
        let decided = try Self.decisions(read)
        // Something was decided: tips became available and one is next.
        #expect(decided.contains { $0.hasSuffix(": available") }, "\(decided)")
        #expect(decided.last != "next: none", "\(decided)")
    }

    @Test func rulesReadAheadAreRefusedForOtherTipsOrDeclarations() throws {
        let bytes = PreparedCatalog(sampleCatalog).compiledRules
        var declarations = sampleCatalog
        declarations.tips = []
        var fewer = sampleCatalog
        fewer.tips.removeLast()
        #expect(throws: RuleProgram.DecodingError.self) {
            try PreparedCatalog(fewer, rules: PreparedCatalog.readAhead(bytes, declarations: declarations), withinLimits: false)
        }
        var otherEvents = declarations
        otherEvents.events.removeFirst()
        #expect(throws: RuleProgram.DecodingError.self) {
            try PreparedCatalog(sampleCatalog, rules: PreparedCatalog.readAhead(bytes, declarations: otherEvents), withinLimits: false)
        }
        var damaged = bytes
        damaged[damaged.count / 2] ^= 0xFF
        let ahead = PreparedCatalog.readAhead(Array(damaged.prefix(damaged.count - 3)), declarations: declarations)
        #expect(throws: RuleProgram.DecodingError.self) { try PreparedCatalog(sampleCatalog, rules: ahead, withinLimits: false) }
    }

    /// A catalog prepared from its tips' facts (as an engine snapshot keeps them) decodes a whole tip only when a
    /// call needs more of it than its facts: deciding decodes none, registering an instance decodes that tip
    /// (its custom-ID template), and the whole catalog decodes every tip.
    @Test func wholeTipsAreDecodedOnlyWhenACallNeedsThem() throws {
        let compiled = PreparedCatalog(sampleCatalog)
        var declarations = sampleCatalog
        declarations.tips = []
        let tips = sampleCatalog.tips
        let decoded = Mutex<[Int]>([])
        let lazy = try PreparedCatalog(
            declarations: declarations, facts: tips.map(TipFacts.init),
            tip: { index in
                decoded.withLock { $0.append(index) }
                return tips[index]
            },
            rules: PreparedCatalog.readAhead(compiled.compiledRules, declarations: declarations), withinLimits: true)
        #expect(try Self.decisions(lazy) == Self.decisions(compiled))
        // Deciding decodes only the tips whose rules are checked again when read (not all compiled to programs).
        let flags = compiled.compiled.flags
        let checkedAgain = Set(flags.indices.filter { flags[$0].programs == nil || flags[$0].hasProblems })
        #expect(checkedAgain.count < tips.count / 2)
        #expect(Set(decoded.withLock { $0 }) == checkedAgain, "deciding decodes no other tip")
        decoded.withLock { $0 = [] }
        var engine = try TipEngineSession(
            prepared: lazy, store: InMemoryTipStateStore(), configuration: TipEngineConfiguration(clock: FixedClock(time("2026-01-05T09:00"))))
        let trail = try #require(tips.firstIndex { $0.id == "NewTrailTip" })
        let instance = try engine.register("NewTrailTip", parameters: ["trail": .record(["id": .string("butler-fork"), "name": .string("Butler Fork"), "region": .string("Wasatch")])])
        #expect(instance.rawValue == "NewTrailTip-butler-fork")
        #expect(Set(decoded.withLock { $0 }).isSubset(of: [trail]), "registering decodes the registered tip alone")
        // An action is checked against the tip's own list: that tip is decoded then, and no other.
        let plain = try #require(tips.indices.first { !checkedAgain.contains($0) && tips[$0].parameters.isEmpty && !tips[$0].actions.isEmpty })
        decoded.withLock { $0 = [] }
        try engine.performAction(TipInstanceID(tips[plain].id.rawValue), action: tips[plain].actions[0].id)
        #expect(decoded.withLock { $0 } == [plain])
        #expect(lazy.catalog.tips.map(\.id) == tips.map(\.id))
        #expect(Set(decoded.withLock { $0 }) == Set(tips.indices), "the whole catalog decodes every tip")
    }

    /// Compiled rules are read in two halves (per tip, then the programs), in either order, as one read does.
    @Test func rulesReadInHalvesDecideAsOneRead() throws {
        let compiled = PreparedCatalog(sampleCatalog)
        var declarations = sampleCatalog
        declarations.tips = []
        let bytes = compiled.compiledRules
        let halves = PreparedCatalog.Half.allCases.reversed().map { PreparedCatalog.readAhead($0, of: bytes) }
        let read = try PreparedCatalog(sampleCatalog, rules: PreparedCatalog.readAhead(joining: halves, declarations: declarations), withinLimits: false)
        #expect(try Self.decisions(read) == Self.decisions(compiled))
        #expect(throws: RuleProgram.DecodingError.self) {
            try PreparedCatalog(sampleCatalog, rules: PreparedCatalog.readAhead(joining: Array(halves.prefix(1)), declarations: declarations), withinLimits: false)
        }
    }

    /// A catalog not known to be within the engine's limits is checked when the engine starts.
    @Test func limitsAreCheckedUnlessKnownToHold() throws {
        var catalog = sampleCatalog
        catalog.tips[0].options.maxDisplayCount = 0
        var declarations = catalog
        declarations.tips = []
        let ahead = PreparedCatalog.readAhead(PreparedCatalog(catalog).compiledRules, declarations: declarations)
        let unchecked = try PreparedCatalog(catalog, rules: ahead, withinLimits: false)
        #expect(throws: TipEngineError.self) {
            try TipEngineSession(prepared: unchecked, store: InMemoryTipStateStore())
        }
        #expect(!CatalogLimits.problems(in: catalog).isEmpty)
        #expect(CatalogLimits.problems(in: sampleCatalog).isEmpty)
    }
}
