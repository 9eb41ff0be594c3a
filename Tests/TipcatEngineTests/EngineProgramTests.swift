import Testing
import TipcatBenchSupport
import TipcatCatalog
import TipcatCore
@testable import TipcatEngine
import TipcatRules

/// The engine decides with rule programs where it can: they are compiled for every tip whose rules all have
/// covered shapes, sit at the right tip after the parallel compile, and decide as the tree evaluator does.
@Suite struct EngineProgramTests {
    @Test func everySyntheticTipIsCompiledAndDecidesAsTheTreeEvaluator() throws {
        let synthetic = SyntheticEngineCatalog(tips: 700, events: 8, groups: 10, tipReferences: 5, seed: 9)
        var core = EngineCore(catalog: synthetic.catalog, revision: nil, store: InMemoryTipStateStore())
        let end = Timestamp(secondsSince1970: 1_767_225_600)
        try core.configure(TipEngineConfiguration(clock: FixedClock(end)))
        #expect(core.compiled.flags.allSatisfy { $0.programs != nil })
        #expect(core.compiled.programs.count == core.compiled.tips.reduce(0) { $0 + $1.rules.count })
        for (index, flag) in synthetic.flagNames.enumerated() where index % 2 == 0 { try core.setParameter(flag, .bool(true)) }
        try core.setParameter(synthetic.levelNames[0], .int(3))
        for donation in synthetic.donations(4000, endingAt: end, over: TimeSpan(seconds: 5 * 86_400)) {
            try core.donate(donation.event, donation.values, at: donation.timestamp)
        }
        var holding = 0
        for step in 0..<3 {
            let now = end.secondsSince1970 + Double(step) * 7_200
            var memo = core.makeMemo()
            for index in core.instances.indices {
                let viaPrograms = core.rulesHold(index, now, &memo)
                let tip = core.instances[index].tip
                let tipStates = core.compiled.tips[tip].cacheable ? [] : core.referencedTipStates(index, now, &memo)
                let context = core.ruleContext(index, now, tipStates: tipStates)
                let viaTree = core.compiled.tips[tip].rules.allSatisfy { RuleEvaluator.outcome($0, in: context).holds }
                #expect(viaPrograms == viaTree, "\(core.instances[index].id) at +\(step * 2)h")
                if viaTree { holding += 1 }
            }
        }
        #expect(holding > 0)
    }

    /// Tips with a rule that does not check, or that reads a tip parameter, have no programs; the diagnostics
    /// come out in catalog order across the parallel chunks (of checking, then of assembling the tips).
    @Test func uncoveredAndBrokenRulesFallBack() throws {
        let parameters = [AppParameter(name: "on", type: .bool, defaultValue: .bool(true))]
        let tips = (0..<3000).map { index -> Tip in
            let rules: [TipRule] = switch index % 3 {
            case 0: [TipRule(source: "$on")]
            case 1: [TipRule(source: "$on"), TipRule(source: "$of")]
            default: [TipRule(source: "$on"), TipRule(source: "place == \"x\"")]
            }
            return Tip(id: TipID("T\(index)"), title: LocalizedText(key: "T\(index)", source: "T", message: nil),
                       parameters: index % 3 == 2 ? [ValueType.RecordField("place", .string)] : [], rules: rules, file: "T\(index).json")
        }
        let settings = CatalogSettings(name: "c", sourceLanguage: .english, supportedLocales: [.english])
        let catalog = Catalog(root: "c", settings: settings, parameters: parameters, tips: tips,
                              localizations: LocalizationTable(sourceLanguage: .english))
        let compiled = EngineCatalog(catalog)
        #expect(compiled.diagnostics.count == 1000)
        #expect(compiled.diagnostics.map { $0.message.split(separator: " ")[3] } == (0..<1000).map { "T\($0 * 3 + 1)"[...] })
        for (index, flags) in compiled.flags.enumerated() {
            #expect((flags.programs != nil) == (index % 3 == 0), "T\(index)")
            #expect(flags.hasProblems == (index % 3 == 1))
        }
    }

    /// Tips are assembled in runs on every core: each tip lands at its own index with its own group and slots,
    /// and every event's and app parameter's dependents are all the tips reading it, in catalog order, whether
    /// the rules were checked or read back compiled.
    @Test func tipsAssembledInRunsKeepTheirPlaceAndDependents() throws {
        let synthetic = SyntheticEngineCatalog(tips: 5000, events: 12, groups: 20, tipReferences: 40, seed: 4)
        let catalog = synthetic.catalog
        let checked = EngineCatalog(catalog)
        var declarations = catalog
        declarations.tips = []
        let read = try EngineCatalog(catalog, encodedRules: EngineCatalog.EncodedRules(checked.encodedRules(), declarations: declarations))
        for compiled in [checked, read] {
            #expect(compiled.tips.count == catalog.tips.count)
            #expect(compiled.tips.enumerated().allSatisfy { $0.element.order == $0.offset && $0.element.facts.id == catalog.tips[$0.offset].id })
            var events: [String: [Int]] = [:]
            var parameters: [String: [Int]] = [:]
            for (index, tip) in compiled.tips.enumerated() {
                for slot in compiled.eventSlots(of: index) { events[compiled.eventOrder[slot], default: []].append(index) }
                for slot in compiled.parameterSlots(of: index) { parameters[compiled.parameterOrder[slot], default: []].append(index) }
                #expect(compiled.flags[index].group == (tip.group ?? -1))
                if let group = tip.group { #expect(compiled.groups[group].members.contains(index)) }
            }
            #expect(events.count > 1 && parameters.count > 1)
            // Compared as one verdict each: the lists run to thousands of indices.
            let sameEvents = compiled.eventDependents == events, sameParameters = compiled.parameterDependents == parameters
            #expect(sameEvents, "the dependents of each event are the tips reading it, in catalog order")
            #expect(sameParameters, "the dependents of each app parameter are the tips reading it, in catalog order")
        }
        #expect(read.tips.indices.map { Array(read.eventSlots(of: $0)) } == checked.tips.indices.map { Array(checked.eventSlots(of: $0)) })
        #expect(read.tips.indices.map { Array(read.parameterSlots(of: $0)) } == checked.tips.indices.map { Array(checked.parameterSlots(of: $0)) })
        #expect(read.tips.map(\.referencedTips) == checked.tips.map(\.referencedTips))
        #expect(read.tips.contains { !$0.referencedTips.isEmpty })
        #expect(read.flags.map(\.programs) == checked.flags.map(\.programs))
        #expect(read.tipIndex == checked.tipIndex)
    }

    /// Two tips with one id (an error `validate` reports): the engine indexes the first.
    @Test func aRepeatedIDIndexesTheFirstTip() {
        let tips = ["A", "B", "A", "C", "B"].enumerated().map { index, id in
            Tip(id: TipID(id), title: LocalizedText(key: "\(id).\(index)", source: "T", message: nil), file: "\(index).json")
        }
        let settings = CatalogSettings(name: "c", sourceLanguage: .english, supportedLocales: [.english])
        let catalog = Catalog(root: "c", settings: settings, tips: tips, localizations: LocalizationTable(sourceLanguage: .english))
        #expect(EngineCatalog(catalog).tipIndex == [TipID("A"): 0, TipID("B"): 1, TipID("C"): 3])
    }
}
