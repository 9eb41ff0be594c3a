import TipcatCatalog
import TipcatCore
import TipcatRules

/// Deciding: status, rules (cached), display frequency, groups, `next()`.
extension EngineCore {
    /// Statuses and group choices computed during one query, so each is computed once.
    struct Memo {
        var statuses: [TipStatus?]
        var groupCurrent: [Int?]
        var groupDone: [Bool]
        /// Tips whose status is being computed (for `tip(ID)` cycles).
        var visiting: Set<Int> = []
        /// The logs and parameter values rule programs read, gathered once per query when first needed.
        var programInputs: RuleProgram.Inputs?

        init(instances: Int, groups: Int) {
            statuses = Array(repeating: nil, count: instances)
            groupCurrent = Array(repeating: nil, count: groups)
            groupDone = Array(repeating: false, count: groups)
        }
    }

    func makeMemo() -> Memo { Memo(instances: instances.count, groups: compiled.groups.count) }

    // MARK: Status

    /// The instance's status at `now`. In order: invalidated; the kill switch (pending); a testing override;
    /// rules (pending unless all hold); display frequency (pending while held back); otherwise available.
    mutating func status(_ index: Int, _ now: Double, _ memo: inout Memo) -> TipStatus {
        if let known = memo.statuses[index] { return known }
        let status = computeStatus(index, now, &memo)
        memo.statuses[index] = status
        return status
    }

    private mutating func computeStatus(_ index: Int, _ now: Double, _ memo: inout Memo) -> TipStatus {
        if let reason = instances[index].record.invalidation { return .invalidated(reason) }
        guard compiled.declarations.settings.enabled else { return .pending }
        if !overrides.isEmpty {
            switch overrideDecision(index) {
            case .show?: return .available
            case .hide?: return .pending
            case nil: break
            }
        }
        guard rulesHold(index, now, &memo) else { return .pending }
        guard frequencyHold(index, now) == nil else { return .pending }
        return .available
    }

    func overrideDecision(_ index: Int) -> TipOverrideDecision? {
        guard !overrides.isEmpty else { return nil }
        return overrides.decision(for: instances[index].id, of: instances[index].record.tip)
    }

    /// Whether all the instance's rules hold, from the cache when its verdict still stands.
    mutating func rulesHold(_ index: Int, _ now: Double, _ memo: inout Memo) -> Bool {
        let tipIndex = instances[index].tip
        let flags = compiled.flags[tipIndex]
        guard !flags.hasProblems else { return false }
        guard flags.hasRules else { return true }
        let tipStates = flags.cacheable ? [] : referencedTipStates(index, now, &memo)
        if instances[index].cache.stands(at: now), instances[index].cache.tipStates == tipStates {
            return instances[index].cache.holds
        }
        var verdict = Verdict()
        if let programs = flags.programs {
            if memo.programInputs == nil { memo.programInputs = programInputs(now) }
            if let inputs = memo.programInputs {
                for program in programs {
                    if !verdict.add(compiled.programs[program].outcome(inputs, tips: tipStates)) { break }
                }
            }
        } else {
            let context = ruleContext(index, now, tipStates: tipStates)
            let rules = compiled.tips[tipIndex].rules
            for number in rules.indices {
                if !verdict.add(RuleEvaluator.outcome(rules[number], in: context)) { break }
            }
        }
        instances[index].cache = RuleCache(
            valid: true, holds: verdict.holds, evaluatedAt: now, validBefore: verdict.validBefore, tipStates: tipStates)
        return verdict.holds
    }

    /// A tip's verdict built rule by rule. The rules are ANDed: a false verdict stands as long as the rule that
    /// is false does, whatever the rules before it do meanwhile; a true one until the first rule changes.
    struct Verdict {
        var holds = true
        var validBefore = Double.infinity

        /// Adds the next rule's outcome; false when the verdict is decided (the rule is false).
        mutating func add(_ outcome: RuleOutcome) -> Bool {
            let until = outcome.validBefore?.secondsSince1970 ?? .infinity
            guard outcome.holds else {
                holds = false
                validBefore = until
                return false
            }
            validBefore = min(validBefore, until)
            return true
        }
    }

    /// What rule programs read at `now`: every event's log and every app parameter's value, in catalog slots.
    func programInputs(_ now: Double) -> RuleProgram.Inputs {
        RuleProgram.Inputs(
            now: Timestamp(secondsSince1970: now), logs: compiled.eventOrder.map { logs[$0] },
            parameters: compiled.parameterOrder.map { parameters[$0] })
    }

    /// The states of the tips the instance's rules name, in `referencedTips` order.
    mutating func referencedTipStates(_ index: Int, _ now: Double, _ memo: inout Memo) -> [RuleTipState] {
        let tipIndex = instances[index].tip
        memo.visiting.insert(tipIndex)
        defer { memo.visiting.remove(tipIndex) }
        return compiled.tips[tipIndex].referencedTips.map { tipState($0, now, &memo) ?? RuleTipState(status: .pending) }
    }

    /// What the instance's rules read: shared state, its parameters, and the states of the tips they name.
    func ruleContext(_ index: Int, _ now: Double, tipStates: [RuleTipState]) -> RuleContext {
        var context = RuleContext(
            now: Timestamp(secondsSince1970: now), appParameters: parameters,
            tipParameters: instances[index].record.parameters, donations: logs, timeZone: timeZone)
        for (name, state) in zip(compiled.tips[instances[index].tip].referencedTips, tipStates) { context.tips[name] = state }
        return context
    }

    /// `tip(ID)` over all instances of the tip: available if any is, invalidated if all are (and there is at
    /// least one), pending otherwise; the display count is the sum. A tip whose status is being computed
    /// (a cycle of `tip(…)` references) reads as pending.
    mutating func tipState(_ name: String, _ now: Double, _ memo: inout Memo) -> RuleTipState? {
        guard let tip = compiled.tipIndex[TipID(name)] else { return nil }
        let members = instancesByTip[tip]
        let count = members.reduce(0) { $0 + instances[$1].record.displayCount }
        if members.isEmpty || memo.visiting.contains(tip) { return RuleTipState(status: .pending, displayCount: count) }
        var anyAvailable = false
        var allInvalidated = true
        var reasons: Set<RuleInvalidationReason> = []
        for member in members {
            switch status(member, now, &memo) {
            case .available:
                anyAvailable = true
                allInvalidated = false
            case .pending:
                allInvalidated = false
            case .invalidated(let reason):
                reasons.insert(reason)
            }
        }
        let status: RuleTipState.Status = anyAvailable ? .available : (allInvalidated ? .invalidated : .pending)
        return RuleTipState(status: status, displayCount: count, invalidationReasons: allInvalidated ? reasons : [])
    }

    /// When the display frequency lets this instance become available, if it is held back now.
    ///
    /// Tips that ignore the frequency and tips already shown are never held back; otherwise a tip waits until
    /// the interval has passed since a tip was last shown for the first time.
    func frequencyHold(_ index: Int, _ now: Double) -> Double? {
        guard !compiled.flags[instances[index].tip].ignoresDisplayFrequency, instances[index].record.displayCount == 0 else {
            return nil
        }
        let interval = frequency.interval.seconds
        guard interval > 0, let last = engineRecord.lastNewTipShown?.secondsSince1970 else { return nil }
        let until = last + interval
        return now < until ? until : nil
    }

    // MARK: Groups

    /// The group's current tip: a tip shown by an override first; then, for `ordered`, the first member that
    /// is not invalidated if it is available (an earlier pending member blocks the rest); for `firstAvailable`,
    /// an available member on screen, else the first available member.
    mutating func groupCurrent(_ group: Int, _ now: Double, _ memo: inout Memo) -> Int? {
        if memo.groupDone[group] { return memo.groupCurrent[group] }
        let current = computeGroupCurrent(group, now, &memo)
        memo.groupCurrent[group] = current
        memo.groupDone[group] = true
        return current
    }

    private mutating func computeGroupCurrent(_ group: Int, _ now: Double, _ memo: inout Memo) -> Int? {
        let members = compiled.groups[group].members.flatMap { instancesByTip[$0] }
        for member in members where isShownByOverride(member) && status(member, now, &memo) == .available {
            return member
        }
        switch compiled.groups[group].group.priority {
        case .ordered:
            for member in members {
                let status = status(member, now, &memo)
                if status.isInvalidated { continue }
                return status == .available ? member : nil
            }
            return nil
        case .firstAvailable:
            for member in members where onScreen.contains(member) && status(member, now, &memo) == .available {
                return member
            }
            for member in members where status(member, now, &memo) == .available {
                return member
            }
            return nil
        }
    }

    func isShownByOverride(_ index: Int) -> Bool {
        if case .show? = overrideDecision(index) { return true }
        return false
    }

    /// Available and, in a group, the group's current tip (or shown by an override).
    mutating func shouldDisplay(_ index: Int, _ now: Double, _ memo: inout Memo) -> Bool {
        guard status(index, now, &memo) == .available else { return false }
        let group = compiled.flags[instances[index].tip].group
        guard group >= 0, !isShownByOverride(index) else { return true }
        return groupCurrent(group, now, &memo) == index
    }

    // MARK: Next

    /// The instance to show now: one already on screen that may still show, else the first in catalog order
    /// (instances of one tip by id) that may show.
    mutating func nextIndex(_ now: Double, _ memo: inout Memo) -> Int? {
        guard compiled.declarations.settings.enabled else { return nil }
        for index in onScreen.sorted(by: instanceOrder) where shouldDisplay(index, now, &memo) {
            return index
        }
        for members in instancesByTip {
            for index in members where shouldDisplay(index, now, &memo) {
                return index
            }
        }
        return nil
    }

    /// Catalog order, then instance id.
    func instanceOrder(_ a: Int, _ b: Int) -> Bool {
        let (tipA, tipB) = (instances[a].tip, instances[b].tip)
        return tipA != tipB ? tipA < tipB : instances[a].id < instances[b].id
    }

    // MARK: Queries

    mutating func next() throws(TipEngineError) -> TipInstanceID? {
        try requireConfigured()
        let now = self.now
        try settle(now)
        var memo = makeMemo()
        return nextIndex(now.secondsSince1970, &memo).map { instances[$0].id }
    }

    mutating func currentTip(group id: GroupID) throws(TipEngineError) -> TipInstanceID? {
        try requireConfigured()
        guard let group = compiled.groupIndex[id] else {
            throw .unknownGroup(id.rawValue, suggestion: Suggestions.closest(to: id.rawValue, in: compiled.declarations.groups.map(\.id.rawValue)))
        }
        let now = self.now
        try settle(now)
        guard compiled.declarations.settings.enabled else { return nil }
        var memo = makeMemo()
        return groupCurrent(group, now.secondsSince1970, &memo).map { instances[$0].id }
    }

    mutating func status(of name: TipInstanceID) throws(TipEngineError) -> TipStatus {
        try requireConfigured()
        let index = try resolve(name)
        let now = self.now
        try settle(now)
        var memo = makeMemo()
        return status(index, now.secondsSince1970, &memo)
    }

    mutating func shouldDisplay(_ name: TipInstanceID) throws(TipEngineError) -> Bool {
        try requireConfigured()
        let index = try resolve(name)
        let now = self.now
        try settle(now)
        var memo = makeMemo()
        return shouldDisplay(index, now.secondsSince1970, &memo)
    }

    /// Every instance with its status, in catalog order.
    mutating func summaries() throws(TipEngineError) -> [TipInstanceSummary] {
        try requireConfigured()
        let now = self.now
        try settle(now)
        var memo = makeMemo()
        var result: [TipInstanceSummary] = []
        for members in instancesByTip {
            for index in members {
                let record = instances[index].record
                var duration = record.displayDuration
                if let since = record.onScreenSince { duration.seconds += max(0, now.secondsSince1970 - since.secondsSince1970) }
                result.append(TipInstanceSummary(
                    instance: instances[index].id, tip: record.tip, status: status(index, now.secondsSince1970, &memo),
                    displayCount: record.displayCount, displayDuration: duration, isOnScreen: record.onScreenSince != nil))
            }
        }
        return result
    }
}
