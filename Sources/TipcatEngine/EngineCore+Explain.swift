import TipcatCatalog
import TipcatCore
import TipcatRules

/// "Why isn't my tip showing?"
extension EngineCore {
    mutating func explain(_ name: TipInstanceID) throws(TipEngineError) -> TipExplanation {
        try requireConfigured()
        let index = try resolve(name)
        let stamp = self.now
        try settle(stamp)
        let now = stamp.secondsSince1970
        var memo = makeMemo()
        let status = self.status(index, now, &memo)
        let mayShow = shouldDisplay(index, now, &memo)
        let next = nextIndex(now, &memo)
        let compiledTip = compiled.tips[instances[index].tip]
        let tip = compiled.tip(instances[index].tip)
        let record = instances[index].record

        let context = ruleContext(index, now, tipStates: referencedTipStates(index, now, &memo))
        let verdicts = compiled.checkedRules(instances[index].tip).map { RuleEvaluator.evaluate($0, in: context) }
        let decision = overrideDecision(index)
        let shownByOverride: Bool
        if case .show? = decision { shownByOverride = true } else { shownByOverride = false }

        var reasons: [TipExplanation.Reason] = []
        if !compiled.declarations.settings.enabled { reasons.append(.catalogDisabled) }
        if let reason = record.invalidation { reasons.append(.invalidated(reason, at: record.invalidatedAt)) }
        if case .hide(let setting)? = decision { reasons.append(.hiddenByOverride(setting)) }
        reasons += compiledTip.problems.map(TipExplanation.Reason.ruleDoesNotCheck)
        if !shownByOverride {
            for (number, verdict) in verdicts.enumerated() where !verdict.holds {
                reasons.append(.ruleUnmet(index: number + 1, verdict))
            }
            if let until = frequencyHold(index, now), let last = engineRecord.lastNewTipShown {
                reasons.append(.displayFrequency(frequency, lastShown: last, availableAt: Timestamp(secondsSince1970: until)))
            }
        }
        if status == .available, !mayShow, let group = compiledTip.group {
            let members = compiled.groups[group].members.flatMap { instancesByTip[$0] }
            let id = compiled.groups[group].group.id
            switch compiled.groups[group].group.priority {
            case .ordered:
                var earlier: [TipInstanceID] = []
                for member in members.prefix(while: { $0 != index }) where !self.status(member, now, &memo).isInvalidated {
                    earlier.append(instances[member].id)
                }
                reasons.append(.waitingInGroup(id, for: earlier))
            case .firstAvailable:
                if let current = groupCurrent(group, now, &memo) {
                    reasons.append(.groupShowsAnother(id, current: instances[current].id))
                }
            }
        }
        if mayShow, let next, next != index { reasons.append(.nextOffersAnother(instances[next].id)) }

        var duration = record.displayDuration
        if let since = record.onScreenSince { duration.seconds += max(0, now - since.secondsSince1970) }
        return TipExplanation(
            instance: instances[index].id, tip: tip.id, now: stamp, status: status, mayShow: mayShow,
            isNext: next == index, rules: verdicts, reasons: reasons, displayCount: record.displayCount,
            maxDisplayCount: tip.options.maxDisplayCount, displayDuration: duration,
            maxDisplayDuration: tip.options.maxDisplayDuration, isOnScreen: record.onScreenSince != nil,
            displayFrequency: frequency, ignoresDisplayFrequency: tip.options.ignoresDisplayFrequency,
            group: compiledTip.group.map { compiled.groups[$0].group.id }, override: decision,
            catalogEnabled: compiled.declarations.settings.enabled)
    }
}
