import TipcatCatalog
import TipcatCore

/// The events log's side of the engine: what a record change means as events, actions, and the display
/// decision that reports suppressed tips.
extension EngineCore {
    /// Events recorded since they were last taken; recording is off until someone listens.
    struct EventRecorder: Sendable {
        var isOn = false
        var pending: [TipEvent] = []
    }

    /// The events a change of one instance's record means, in this order: the display that ended
    /// (`closed`), the display that started (`shown`), the invalidation (`invalidated`).
    mutating func recordEvents(_ index: Int, from old: TipRecord, to new: TipRecord) {
        guard events.isOn else { return }
        let instance = instances[index].id
        let now = self.now
        let newlyInvalidated = old.invalidation == nil && new.invalidation != nil
        let started = new.displayCount > old.displayCount
        if let since = old.onScreenSince, new.onScreenSince == nil || started {
            let ended = newlyInvalidated ? (new.invalidatedAt ?? now) : now
            let duration = max(0, new.displayDuration.seconds - old.displayDuration.seconds)
            let fallback = max(0, ended.secondsSince1970 - since.secondsSince1970)
            events.pending.append(TipEvent(
                time: ended, kind: .closed(duration: TimeSpan(seconds: duration > 0 ? duration : fallback)),
                tip: new.tip, instance: instance))
        }
        if started {
            events.pending.append(TipEvent(time: new.lastDisplayed ?? now, kind: .shown(displayCount: new.displayCount),
                                           tip: new.tip, instance: instance))
        }
        if newlyInvalidated, let reason = new.invalidation {
            events.pending.append(TipEvent(time: new.invalidatedAt ?? now, kind: .invalidated(reason), tip: new.tip, instance: instance))
        }
    }

    /// Takes the events recorded so far.
    mutating func takeEvents() -> [TipEvent] {
        guard !events.pending.isEmpty else { return [] }
        defer { events.pending = [] }
        return events.pending
    }

    /// The user chose the action `action` of the instance: an `actionPerformed` event, then (when `invalidates`)
    /// the instance is invalidated with `actionPerformed`, as TipKit apps do in an action's handler.
    mutating func performAction(_ name: TipInstanceID, action: String, invalidates: Bool) throws(TipEngineError) {
        try requireConfigured()
        let index = try resolve(name)
        let tip = compiled.tip(instances[index].tip)
        let actions = tip.actions.map(\.id) + tip.platforms.keys.sorted { $0.rawValue < $1.rawValue }
            .flatMap { tip.platforms[$0]?.actions?.map(\.id) ?? [] }
        guard actions.contains(action) else {
            throw .unknownAction(tip: tip.id, action: action, suggestion: Suggestions.closest(to: action, in: actions))
        }
        let now = self.now
        try settle(now)
        if events.isOn {
            events.pending.append(TipEvent(time: now, kind: .actionPerformed(action: action), tip: tip.id, instance: instances[index].id))
        }
        if invalidates { try invalidate(instances[index].id, reason: .actionPerformed) }
    }

    /// Whether the instance may show now and, if not, why; a `suppressed` event when it is not invalidated and
    /// may not show.
    mutating func displayDecision(_ name: TipInstanceID) throws(TipEngineError) -> TipDisplayDecision {
        try requireConfigured()
        let index = try resolve(name)
        let now = self.now
        try settle(now)
        var memo = makeMemo()
        let seconds = now.secondsSince1970
        let decision: TipDisplayDecision
        switch status(index, seconds, &memo) {
        case .invalidated(let reason):
            return .invalidated(reason)
        case .available:
            decision = shouldDisplay(index, seconds, &memo) ? .show : .suppressed(.group)
        case .pending:
            if !compiled.declarations.settings.enabled {
                decision = .suppressed(.override)
            } else if case .hide? = overrideDecision(index) {
                decision = .suppressed(.override)
            } else if !rulesHold(index, seconds, &memo) {
                decision = .suppressed(.rules)
            } else {
                decision = .suppressed(.frequency)
            }
        }
        if events.isOn, case .suppressed(let reason) = decision {
            events.pending.append(TipEvent(time: now, kind: .suppressed(reason), tip: instances[index].record.tip, instance: instances[index].id))
        }
        return decision
    }
}
