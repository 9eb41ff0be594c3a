import Testing
import TipcatCatalog
import TipcatCore
import TipcatEngine
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
