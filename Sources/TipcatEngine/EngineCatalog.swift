import Synchronization
import TipcatCatalog
import TipcatCore
import TipcatRules

/// The catalog prepared for the engine: rules checked once, dependencies indexed, groups resolved.
struct EngineCatalog: Sendable {
    /// One tip, ready to evaluate.
    struct CompiledTip: Sendable {
        /// What the engine reads of the tip on every call (the whole tip is `EngineCatalog.tip(_:)`).
        let facts: TipFacts
        /// The tip's position in the catalog: `next()` offers tips in this order.
        let order: Int
        /// The checked rules; all must hold. Empty when `rulesChecked` is false (a catalog decoded with its
        /// compiled rules): `EngineCatalog.checkedRules` checks them when asked.
        let rules: [CheckedRule]
        /// Whether `rules` holds the checked rules.
        let rulesChecked: Bool
        /// Rules that did not check (`rule N: message`); a tip with any never shows.
        let problems: [String]
        /// Where the slots (`eventOrder`, `parameterOrder`) of the events and app parameters its rules read are
        /// in `EngineCatalog.slots`, each list ascending (`eventSlots(of:)`, `parameterSlots(of:)`).
        let eventSlots: Range<Int>
        let parameterSlots: Range<Int>
        /// Tips named with `tip(ID)`, sorted.
        let referencedTips: [String]
        /// The group the tip belongs to (index into `groups`).
        let group: Int?

        /// Whether its rule verdict depends on nothing but donations, parameters and time (rules reading other
        /// tips are cached along with the states they read).
        var cacheable: Bool { referencedTips.isEmpty }
    }

    struct CompiledGroup: Sendable {
        let group: TipGroup
        /// Member tips in group order (indices into `tips`; unknown ids left out).
        let members: [Int]
    }

    /// What the per-call hot path needs of a tip, small enough to read without copying a `Tip`.
    struct Flags: Sendable {
        let hasProblems: Bool
        let hasRules: Bool
        let cacheable: Bool
        let ignoresDisplayFrequency: Bool
        /// Whether the tip declares parameters (it then has an instance per set of values, none by itself).
        let takesParameters: Bool
        /// Index into `groups`, or -1.
        let group: Int
        /// The tip's rules compiled for fast evaluation (`programs[range]`, tip states in `referencedTips`
        /// order), when all of them have shapes `RuleProgram` covers; nil otherwise (the tree evaluator decides).
        let programs: Range<Int>?
    }

    /// The settings, app parameters, events and groups (and the tips, when they were given whole).
    let declarations: Catalog
    /// The whole tips, decoded when asked when they were not given whole.
    let wholeTips: EngineTips
    let tips: [CompiledTip]
    /// `flags[i]` describes `tips[i]`.
    let flags: [Flags]
    /// The tips by id (the first tip of an id), built the first time a call asks: deciding which tip shows
    /// needs it only to resolve names (stored instances, `tip(ID)` in rules).
    var tipIndex: [TipID: Int] { lazyTipIndex.value }
    private let lazyTipIndex: FirstUse<[TipID: Int]>
    let groups: [CompiledGroup]
    let groupIndex: [GroupID: Int]
    let events: [String: EventDeclaration]
    let parameters: [String: AppParameter]
    /// Every tip's compiled rules, in catalog order (see `Flags.programs`): one array, read in order.
    let programs: [RuleProgram]
    /// Every tip's event and app parameter slots, in catalog order (see `CompiledTip.eventSlots`): one array
    /// instead of two small ones a tip.
    let slots: [Int]
    /// The order of the donation logs and app parameter values given to rule programs.
    let eventOrder: [String]
    let parameterOrder: [String]
    /// Tips (indices) whose rules read each event / app parameter.
    let eventDependents: [String: [Int]]
    let parameterDependents: [String: [Int]]
    /// Rules that failed to check, located in their tip files.
    let diagnostics: [Diagnostic]
    /// Whether `CatalogLimits` is known to find no problem in `catalog` (the engine checks when it is not).
    var withinLimits = false

    init(_ catalog: Catalog) {
        self.init(catalog, alongside: nil)
    }

    /// The whole catalog, its tips decoded first when they were not given whole (the engine's decisions read
    /// only `declarations` and `tips`).
    var catalog: Catalog {
        guard !wholeTips.isGiven else { return declarations }
        var catalog = declarations
        catalog.tips = wholeTips.all
        return catalog
    }

    /// The whole tip at `index`.
    func tip(_ index: Int) -> Tip { wholeTips.tip(index) }

    /// The tips' ids, in catalog order.
    var tipIDs: [TipID] { tips.map(\.facts.id) }

    /// The environment rules are checked in (every tip's: `tipParameters` is set per tip).
    static func environment(tipIDs: [TipID], events: [String: EventDeclaration], parameters: [String: AppParameter]) -> RuleEnvironment {
        RuleEnvironment(
            appParameters: parameters.mapValues(\.type),
            events: events.mapValues { event in
                Dictionary(event.fields.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
            },
            tipIDs: Set(tipIDs.map(\.rawValue)),
            donationLimits: events.mapValues(\.donationCountLimit))
    }

    /// The slots of the events `tips[index]`'s rules read, ascending.
    func eventSlots(of index: Int) -> ArraySlice<Int> { slots[tips[index].eventSlots] }

    /// The slots of the app parameters `tips[index]`'s rules read, ascending.
    func parameterSlots(of index: Int) -> ArraySlice<Int> { slots[tips[index].parameterSlots] }

    /// The checked rules of `tips[index]`, checking them now when the catalog was decoded with its compiled
    /// rules (for explanations, which evaluate the rules' trees).
    func checkedRules(_ index: Int) -> [CheckedRule] {
        let compiled = tips[index]
        guard !compiled.rulesChecked else { return compiled.rules }
        var environment = EngineCatalog.environment(tipIDs: tipIDs, events: events, parameters: parameters)
        environment.tipParameters = Dictionary(compiled.facts.parameters.map { ($0.name, $0.type) }, uniquingKeysWith: { a, _ in a })
        return tip(index).rules.compactMap { RuleChecker.check($0.source, in: environment).rule }
    }

    /// The catalog's events by id (the first declaration of an id wins).
    static func events(of catalog: Catalog) -> [String: EventDeclaration] {
        var events: [String: EventDeclaration] = [:]
        for event in catalog.events where events[event.id.rawValue] == nil { events[event.id.rawValue] = event }
        return events
    }

    /// Compiles `catalog` and runs `work` at the same time, on another core when there is one (the engine
    /// reads the stored state meanwhile). Returns the compiled catalog and `work`'s result.
    static func compile<T: Sendable>(_ catalog: Catalog, alongside work: @escaping @Sendable () -> T) -> (EngineCatalog, T) {
        let result = Mutex<T?>(nil)
        let compiled = EngineCatalog(catalog, alongside: { result.withLock { $0 = work() } })
        // `work` ran to completion inside the initializer.
        guard let value = result.withLock({ $0 }) else { return (compiled, work()) }
        return (compiled, value)
    }

    private init(_ catalog: Catalog, alongside work: (@Sendable () -> Void)?) {
        self.init(catalog, checking: { environment, slots -> Checked in
            // Checking rules is most of the start-up time and independent per tip: chunks run on every core.
            let tips = catalog.tips
            let environment = environment()
            let cache = CheckedRuleCache()
            // Unit 0 is the work to run alongside (if any); the others are chunks of 128 tips.
            let chunk = 128
            let units = (tips.count + chunk - 1) / chunk + 1
            return Checked(joining: concurrentChunks(count: units, chunkSize: 1) { unit -> Checked in
                guard unit.lowerBound > 0 else {
                    work?()
                    return Checked()
                }
                let start = (unit.lowerBound - 1) * chunk
                return EngineCatalog.check(tips[start..<min(tips.count, start + chunk)], in: environment, slots: slots, cache: cache)
            })
        })
    }

    /// The catalog compiled with the rules `checking` returns for its tips, in catalog order.
    init<Failure: Error>(
        _ catalog: Catalog, checking: (_ environment: () -> RuleEnvironment, _ slots: Slots) throws(Failure) -> Checked
    ) throws(Failure) {
        let declared = Declared(catalog)
        let facts = catalog.tips.map(TipFacts.init)
        let indexing = Indexing(ids: facts.map(\.id), groups: catalog.groups)
        let checked = try checking({ declared.environment(tipIDs: facts.map(\.id)) }, declared.slots)
        self.init(declarations: catalog, facts: facts, tips: EngineTips(catalog.tips), declared: declared, indexing: indexing, checked: checked)
    }

    /// The catalog's events and app parameters by name (the first declaration of a name wins), and the slots
    /// rule programs read them by.
    struct Declared: Sendable {
        let events: [String: EventDeclaration]
        let parameters: [String: AppParameter]
        let eventOrder: [String]
        let parameterOrder: [String]
        let slots: Slots

        init(_ catalog: Catalog) {
            let events = EngineCatalog.events(of: catalog)
            var parameters: [String: AppParameter] = [:]
            for parameter in catalog.parameters where parameters[parameter.name.rawValue] == nil {
                parameters[parameter.name.rawValue] = parameter
            }
            let eventOrder = events.keys.sorted()
            let parameterOrder = parameters.keys.sorted()
            self.events = events
            self.parameters = parameters
            self.eventOrder = eventOrder
            self.parameterOrder = parameterOrder
            slots = Slots(
                events: Dictionary(uniqueKeysWithValues: eventOrder.enumerated().map { slot, id in
                    (id, (slot: slot, fields: events[id]?.fields.map(\.name) ?? []))
                }),
                parameters: Dictionary(uniqueKeysWithValues: parameterOrder.enumerated().map { ($1, $0) }))
        }

        func environment(tipIDs: [TipID]) -> RuleEnvironment {
            EngineCatalog.environment(tipIDs: tipIDs, events: events, parameters: parameters)
        }
    }

    /// The tips by id; a repeated id (an error the linter reports) keeps the first tip's index.
    static func index(_ ids: [TipID]) -> [TipID: Int] {
        var index: [TipID: Int] = [:]
        index.reserveCapacity(ids.count)
        for (position, id) in ids.enumerated() {
            // One lookup a tip: a repeated id puts the first tip's index back.
            if let first = index.updateValue(position, forKey: id) { index[id] = first }
        }
        return index
    }

    /// The catalog's tips by id (the first tip of an id wins, built when first asked) and its groups with their
    /// members.
    struct Indexing: Sendable {
        let tipIndex: FirstUse<[TipID: Int]>
        let groups: [CompiledGroup]
        let groupIndex: [GroupID: Int]
        /// Per tip, its group (index into `groups`).
        let groupOfTip: [Int?]

        init(ids: [TipID], groups declared: [TipGroup]) {
            // Only the groups' members are looked up (groups name a few of thousands of tips): each member's first
            // tip, from one pass over the ids.
            var firstTip: [TipID: Int] = [:]
            for group in declared {
                for id in group.tips { firstTip[id] = -1 }
            }
            if !firstTip.isEmpty {
                for (index, id) in ids.enumerated() where firstTip[id] == -1 { firstTip[id] = index }
            }
            var groups: [CompiledGroup] = []
            var groupIndex: [GroupID: Int] = [:]
            var groupOfTip = [Int?](repeating: nil, count: ids.count)
            for group in declared where groupIndex[group.id] == nil {
                var members: [Int] = []
                for id in group.tips {
                    // A tip belongs to at most one group (the first naming it); the linter reports the rest.
                    guard let tip = firstTip[id], tip >= 0, groupOfTip[tip] == nil else { continue }
                    groupOfTip[tip] = groups.count
                    members.append(tip)
                }
                groupIndex[group.id] = groups.count
                groups.append(CompiledGroup(group: group, members: members))
            }
            tipIndex = FirstUse { EngineCatalog.index(ids) }
            self.groups = groups
            self.groupIndex = groupIndex
            self.groupOfTip = groupOfTip
        }
    }

    /// What the tips of one run of the catalog add to the dependents and diagnostics.
    private struct AssembledRun: Sendable {
        var eventDependents: [[Int]]
        var parameterDependents: [[Int]]
        var diagnostics: [Diagnostic] = []
    }

    /// The catalog with its declarations, tips' index and groups, and checked rules (for the tips `facts`
    /// describe, in order). Tips are assembled on every core, each run written in place in the result.
    init(declarations: Catalog, facts: [TipFacts], tips wholeTips: EngineTips, declared: Declared, indexing: Indexing, checked: Checked) {
        self.declarations = declarations
        self.wholeTips = wholeTips
        events = declared.events
        parameters = declared.parameters
        eventOrder = declared.eventOrder
        parameterOrder = declared.parameterOrder
        lazyTipIndex = indexing.tipIndex
        groups = indexing.groups
        groupIndex = indexing.groupIndex
        programs = checked.programs
        slots = checked.slots
        let tips = facts
        let count = min(tips.count, checked.tips.count)
        let (eventCount, parameterCount) = (declared.eventOrder.count, declared.parameterOrder.count)
        let groupOfTip = indexing.groupOfTip
        var runs: [AssembledRun] = []
        var compiled: [CompiledTip] = []
        let flags = [Flags](unsafeUninitializedCapacity: count) { flagBuffer, flagsMade in
            compiled = [CompiledTip](unsafeUninitializedCapacity: count) { tipBuffer, tipsMade in
                nonisolated(unsafe) let (flagsOut, tipsOut) = (flagBuffer, tipBuffer)
                // Two runs a core: enough to balance, few enough that joining the dependents costs nothing.
                runs = concurrentChunks(count: count, chunkSize: max(1024, (count + 3) / 4)) { range -> AssembledRun in
                    var run = AssembledRun(
                        eventDependents: [[Int]](repeating: [], count: eventCount),
                        parameterDependents: [[Int]](repeating: [], count: parameterCount))
                    guard let flagBase = flagsOut.baseAddress, let tipBase = tipsOut.baseAddress else { return run }
                    for index in range {
                        let tip = tips[index]
                        let rules = checked.tips[index]
                        for slot in checked.slots[rules.eventSlots] { run.eventDependents[slot].append(index) }
                        for slot in checked.slots[rules.parameterSlots] { run.parameterDependents[slot].append(index) }
                        if !rules.diagnostics.isEmpty { run.diagnostics += rules.diagnostics }
                        let group = groupOfTip[index]
                        // Each rule has one program (read from the tip only when its rules were not compiled).
                        let hasRules = rules.rulesChecked ? !rules.rules.isEmpty : tip.ruleCount > 0
                        (flagBase + index).initialize(to: Flags(
                            hasProblems: !rules.problems.isEmpty, hasRules: hasRules, cacheable: rules.referencedTips.isEmpty,
                            ignoresDisplayFrequency: tip.options.ignoresDisplayFrequency, takesParameters: !tip.parameters.isEmpty,
                            group: group ?? -1, programs: rules.programs))
                        (tipBase + index).initialize(to: CompiledTip(
                            facts: tip, order: index, rules: rules.rules, rulesChecked: rules.rulesChecked, problems: rules.problems,
                            eventSlots: rules.eventSlots, parameterSlots: rules.parameterSlots,
                            referencedTips: rules.referencedTips.count > 1 ? rules.referencedTips.sorted() : rules.referencedTips,
                            group: group))
                    }
                    return run
                }
                tipsMade = count
            }
            flagsMade = count
        }
        self.tips = compiled
        self.flags = flags
        // Dependents by slot, then by name: one hash per event, not per tip; runs are in catalog order.
        func byName(_ order: [String], _ lists: KeyPath<AssembledRun, [[Int]]>) -> [String: [Int]] {
            var byName: [String: [Int]] = [:]
            for (slot, name) in order.enumerated() {
                let dependents = runs.flatMap { $0[keyPath: lists][slot] }
                if !dependents.isEmpty { byName[name] = dependents }
            }
            return byName
        }
        eventDependents = byName(eventOrder, \.eventDependents)
        parameterDependents = byName(parameterOrder, \.parameterDependents)
        diagnostics = runs.flatMap(\.diagnostics)
    }

    /// Where rule programs find events (with their fields) and app parameters.
    struct Slots: Sendable {
        let events: [String: (slot: Int, fields: [String])]
        let parameters: [String: Int]
    }

    /// One tip's rules, checked.
    struct CheckedRules: Sendable {
        /// Where its programs are in `Checked.programs`; nil when they are not all compiled.
        var programs: Range<Int>?
        var rules: [CheckedRule] = []
        /// Whether `rules` holds them (false when read back with their programs: checked on demand).
        var rulesChecked = true
        /// Rules that did not check (`rule N does not check: message`).
        var problems: [String] = []
        var diagnostics: [Diagnostic] = []
        /// Where the slots of the events and app parameters the rules read are in `Checked.slots` (each list
        /// ascending); the tips they read, each once.
        var eventSlots: Range<Int> = 0..<0
        var parameterSlots: Range<Int> = 0..<0
        var referencedTips: [String] = []
    }

    /// Tips' checked rules, in catalog order, with their programs in one array and their slots in another.
    struct Checked: Sendable {
        var tips: [CheckedRules] = []
        var programs: [RuleProgram] = []
        var slots: [Int] = []

        init(tips: [CheckedRules] = [], programs: [RuleProgram] = [], slots: [Int] = []) {
            self.tips = tips
            self.programs = programs
            self.slots = slots
        }

        /// Parts checked separately (chunks of tips, in order), joined.
        init(joining parts: [Checked]) {
            tips.reserveCapacity(parts.reduce(0) { $0 + $1.tips.count })
            programs.reserveCapacity(parts.reduce(0) { $0 + $1.programs.count })
            slots.reserveCapacity(parts.reduce(0) { $0 + $1.slots.count })
            for part in parts { tips += adopt(part) }
        }

        /// Appends `part`'s programs and slots to these and returns its tips' rules with their ranges moved to
        /// match (placing the rules is the caller's).
        mutating func adopt(_ part: Checked) -> [CheckedRules] {
            let (offset, slotOffset) = (programs.count, slots.count)
            programs += part.programs
            slots += part.slots
            func moved(_ range: Range<Int>, _ by: Int) -> Range<Int> { (range.lowerBound + by)..<(range.upperBound + by) }
            return part.tips.map { rules in
                var rules = rules
                rules.programs = rules.programs.map { moved($0, offset) }
                rules.eventSlots = moved(rules.eventSlots, slotOffset)
                rules.parameterSlots = moved(rules.parameterSlots, slotOffset)
                return rules
            }
        }
    }

    /// A checked rule with, when it reads no tip, its program (compiled on its own: the same for every tip
    /// with the rule's text and parameter declarations; nil when programs do not cover its shape).
    struct SharedRule: Sendable {
        var rule: CheckedRule?
        var diagnostics: [RuleDiagnostic]
        var program: RuleProgram?
    }

    /// Rules already checked and compiled, by text and the tip's parameter declarations (the only part of the
    /// environment that differs between tips): a rule text that comes back among tips declaring the same
    /// parameters is checked and compiled once, whichever chunk meets it first, and its program is shared.
    final class CheckedRuleCache: Sendable {
        struct Key: Hashable {
            var source: String
            var parameters: [ValueType.RecordField]
        }

        private let checked = Mutex<[Key: SharedRule]>([:])

        func rule(_ source: String, parameters: [ValueType.RecordField], in environment: RuleEnvironment, slots: Slots) -> SharedRule {
            let key = Key(source: source, parameters: parameters)
            if let known = checked.withLock({ $0[key] }) { return known }
            let (rule, diagnostics) = RuleChecker.check(source, in: environment)
            var shared = SharedRule(rule: rule, diagnostics: diagnostics)
            if let rule, rule.referencedTips.isEmpty {
                shared.program = RuleProgram(rule, events: slots.events, parameters: slots.parameters, tips: [:])
            }
            checked.withLock { $0[key] = shared }
            return shared
        }
    }

    /// Checks the rules of `tips` and compiles them to programs: a rule that reads no tip shares the program
    /// of every other with its text and parameter declarations (`CheckedRuleCache`); the others are compiled
    /// into one table for the chunk.
    static func check(_ tips: ArraySlice<Tip>, in shared: RuleEnvironment, slots: Slots, cache: CheckedRuleCache) -> Checked {
        var environment = shared
        var builder = RuleProgram.Builder()
        /// Per tip, its programs: shared ones, or roots in the chunk's table (nil: not all compiled).
        enum Compiled {
            case shared(RuleProgram)
            case root(Int)
        }
        var compiledPrograms: [[Compiled]?] = []
        // Most rule texts recur among parameterless tips: those are looked up by text in the chunk's own table
        // first, without the shared cache's lock or hashing parameter declarations.
        var plain: [String: SharedRule] = [:]
        var slotList: [Int] = []
        var checked: [CheckedRules] = tips.map { tip in
            if tip.parameters.isEmpty {
                if !environment.tipParameters.isEmpty { environment.tipParameters = [:] }
            } else {
                environment.tipParameters = Dictionary(tip.parameters.map { ($0.name, $0.type) }, uniquingKeysWith: { a, _ in a })
            }
            var result = CheckedRules()
            var events = Set<String>(), appParameters = Set<String>(), referencedTips = Set<String>()
            var sharedPrograms: [RuleProgram?] = []
            for (number, rule) in tip.rules.enumerated() {
                let known: SharedRule
                if tip.parameters.isEmpty, let found = plain[rule.source] {
                    known = found
                } else {
                    known = cache.rule(rule.source, parameters: tip.parameters, in: environment, slots: slots)
                    if tip.parameters.isEmpty { plain[rule.source] = known }
                }
                if let checked = known.rule {
                    result.rules.append(checked)
                    sharedPrograms.append(known.program)
                    events.formUnion(checked.referencedEvents)
                    appParameters.formUnion(checked.referencedAppParameters)
                    referencedTips.formUnion(checked.referencedTips)
                } else {
                    let message = known.diagnostics.first { $0.severity == .error }?.message ?? "does not check"
                    result.problems.append("rule \(number + 1) does not check: \(message)")
                    result.diagnostics.append(Diagnostic("rule \(number + 1) of \(tip.id) does not check, so the tip never shows: \(message)",
                                                         rule: .engineRuleError, at: rule.location ?? tip.location))
                }
            }
            let start = slotList.count
            slotList += events.compactMap { slots.events[$0]?.slot }.sorted()
            let middle = slotList.count
            slotList += appParameters.compactMap { slots.parameters[$0] }.sorted()
            result.eventSlots = start..<middle
            result.parameterSlots = middle..<slotList.count
            result.referencedTips = Array(referencedTips)
            guard result.problems.isEmpty else {
                // The tip never shows: nothing to evaluate.
                compiledPrograms.append(nil)
                return result
            }
            let tipSlots = Dictionary(uniqueKeysWithValues: referencedTips.sorted().enumerated().map { ($1, $0) })
            var programs: [Compiled]? = []
            for (rule, program) in zip(result.rules, sharedPrograms) {
                if rule.referencedTips.isEmpty {
                    // Compiled with the rule when it was checked; nil: programs do not cover its shape.
                    guard let program else {
                        programs = nil
                        break
                    }
                    programs?.append(.shared(program))
                    continue
                }
                guard let root = builder.add(rule, events: slots.events, parameters: slots.parameters, tips: tipSlots) else {
                    programs = nil
                    break
                }
                programs?.append(.root(root))
            }
            compiledPrograms.append(programs)
            return result
        }
        // The chunk's own programs share one table, made once all are compiled.
        var own = builder.programs(compiledPrograms.flatMap { $0 ?? [] }.compactMap { program -> Int? in
            if case .root(let root) = program { return root }
            return nil
        })[...]
        var programs: [RuleProgram] = []
        for (index, tipPrograms) in compiledPrograms.enumerated() {
            guard let tipPrograms else { continue }
            let start = programs.count
            for program in tipPrograms {
                switch program {
                case .shared(let shared): programs.append(shared)
                case .root: if let next = own.popFirst() { programs.append(next) }
                }
            }
            checked[index].programs = start..<programs.count
        }
        return Checked(tips: checked, programs: programs, slots: slotList)
    }
}
