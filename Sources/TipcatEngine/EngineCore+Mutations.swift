import TipcatCatalog
import TipcatCore
import TipcatLocalization
import TipcatRules

/// What the app tells the engine: donations, parameter values, instances, displays, invalidations.
extension EngineCore {
    // MARK: Events

    /// Records a donation of `event` now (or at `date`, which may not be in the future).
    mutating func donate(_ event: EventID, _ values: [String: Value], at date: Timestamp?) throws(TipEngineError) {
        try requireConfigured()
        guard let declaration = compiled.events[event.rawValue] else {
            throw .unknownEvent(event.rawValue, suggestion: Suggestions.closest(to: event.rawValue, in: compiled.events.keys))
        }
        let now = self.now
        let when = date ?? now
        guard when <= now else { throw .futureDonation(event: event.rawValue, at: when, now: now) }
        let (stored, fields) = try EngineCore.storedDonation(of: declaration, values, at: when)
        do throws(TipStateStoreError) {
            try store.appendDonation(stored)
        } catch {
            throw .store(error)
        }
        if logs[event.rawValue]?.append(at: when, values: fields) == true, let log = logs[event.rawValue] {
            do throws(TipStateStoreError) {
                try store.pruneDonations(of: event, keepingNewest: log.maxCount)
            } catch {
                throw .store(error)
            }
        }
        invalidateRuleCaches(of: compiled.eventDependents[event.rawValue])
    }

    /// Deletes the stored donations of `event` beyond its `donationLimit.maxCount` (the newest are kept): what
    /// the engine does when its in-memory log compacts, for callers that donate a few times per process.
    mutating func pruneStoredDonations(of event: EventID) throws(TipEngineError) {
        try requireConfigured()
        guard let declaration = compiled.events[event.rawValue] else {
            throw .unknownEvent(event.rawValue, suggestion: Suggestions.closest(to: event.rawValue, in: compiled.events.keys))
        }
        do throws(TipStateStoreError) {
            try store.pruneDonations(of: event, keepingNewest: declaration.donationLimit?.maxCount ?? DonationLog.defaultMaxCount)
        } catch {
            throw .store(error)
        }
    }

    /// Removes every donation of `event`.
    mutating func deleteDonations(_ event: EventID) throws(TipEngineError) {
        try requireConfigured()
        guard compiled.events[event.rawValue] != nil else {
            throw .unknownEvent(event.rawValue, suggestion: Suggestions.closest(to: event.rawValue, in: compiled.events.keys))
        }
        do throws(TipStateStoreError) {
            try store.deleteDonations(of: event)
        } catch {
            throw .store(error)
        }
        logs[event.rawValue]?.removeAll()
        invalidateRuleCaches(of: compiled.eventDependents[event.rawValue])
    }

    /// What is stored for a donation of `declaration` at `when`, and its values in field order (checked
    /// against the declaration and normalized to the fields' types).
    static func storedDonation(of declaration: EventDeclaration, _ values: [String: Value], at when: Timestamp) throws(TipEngineError) -> (StoredDonation, [Value]) {
        let fields = try fieldValues(of: declaration, values)
        var stored = StoredDonation(event: declaration.id, timestamp: when, values: values)
        if !declaration.fields.isEmpty, zip(declaration.fields, fields).contains(where: { values[$0.name] != $1 }) {
            stored.values = Dictionary(uniqueKeysWithValues: zip(declaration.fields.map(\.name), fields))
        }
        return (stored, fields)
    }

    /// The donation's values in field order, checked against the declaration (every field, right types).
    static func fieldValues(of declaration: EventDeclaration, _ values: [String: Value]) throws(TipEngineError) -> [Value] {
        var result: [Value] = []
        result.reserveCapacity(declaration.fields.count)
        for field in declaration.fields {
            guard let value = values[field.name] else {
                throw .missingField(event: declaration.id.rawValue, field: field.name)
            }
            guard let normal = value.normalized(to: field.type) else {
                throw .invalidValue(subject: "field '\(field.name)' of #\(declaration.id)", expected: field.type, got: value)
            }
            result.append(normal)
        }
        if values.count > declaration.fields.count {
            for name in values.keys.sorted() where declaration.field(name) == nil {
                throw .unknownField(event: declaration.id.rawValue, field: name,
                                    suggestion: Suggestions.closest(to: name, in: declaration.fields.map(\.name)))
            }
        }
        return result
    }

    // MARK: Parameters

    /// Sets an app parameter; persistent ones are stored, transient ones last until the next start.
    mutating func setParameter(_ name: ParameterName, _ value: Value) throws(TipEngineError) {
        try requireConfigured()
        guard let declaration = compiled.parameters[name.rawValue] else {
            throw .unknownParameter(name.rawValue, suggestion: Suggestions.closest(to: name.rawValue, in: compiled.parameters.keys))
        }
        let normal = try TipEngineSession.recordParameter(declaration, value, in: &store)
        parameters[name.rawValue] = normal
        invalidateRuleCaches(of: compiled.parameterDependents[name.rawValue])
    }

    /// The current value of an app parameter.
    func parameter(_ name: ParameterName) throws(TipEngineError) -> Value {
        try requireConfigured()
        guard let value = parameters[name.rawValue] else {
            throw .unknownParameter(name.rawValue, suggestion: Suggestions.closest(to: name.rawValue, in: compiled.parameters.keys))
        }
        return value
    }

    /// Forgets cached rule verdicts of every instance of these tips.
    mutating func invalidateRuleCaches(of tips: [Int]?) {
        guard let tips else { return }
        for tip in tips {
            for index in instancesByTip[tip] { instances[index].cache.valid = false }
        }
    }

    // MARK: Instances

    /// Registers (or updates) the instance of `tip` with these parameter values and returns its id: the
    /// formatted custom ID, or the tip's id when it has none.
    mutating func register(_ tipID: TipID, parameters values: [String: Value]) throws(TipEngineError) -> TipInstanceID {
        try requireConfigured()
        guard let tipIndex = compiled.tipIndex[tipID] else {
            throw .unknownTip(tipID.rawValue, suggestion: Suggestions.closest(to: tipID.rawValue, in: compiled.tipIDs.map(\.rawValue)))
        }
        let tip = compiled.tip(tipIndex)
        let normal = try tipParameters(of: compiled.tips[tipIndex].facts, values)
        let id = try instanceID(of: tip, parameters: normal)
        if let index = instanceIndex[id] {
            guard instances[index].tip == tipIndex else {
                throw .invalidCustomID(tipID, reason: "'\(id)' is already an instance of \(compiled.tips[instances[index].tip].facts.id)")
            }
            if instances[index].record.parameters != normal {
                try update(index) { $0.parameters = normal }
                instances[index].cache.valid = false
            }
            return id
        }
        if let other = compiled.tipIndex[TipID(id.rawValue)], other != tipIndex {
            throw .invalidCustomID(tipID, reason: "'\(id)' is the id of another tip")
        }
        let record = TipRecord(tip: tipID, parameters: normal)
        do throws(TipStateStoreError) {
            try store.saveTip(record, for: id)
        } catch {
            throw .store(error)
        }
        addInstance(id, tip: tipIndex, record: record)
        return id
    }

    /// The tip's parameter values, checked: all declared, none extra, right types; an optional parameter may be
    /// left out (it is then absent: `nil` in rules, a `nil` branch in texts and custom IDs).
    func tipParameters(of tip: TipFacts, _ values: [String: Value]) throws(TipEngineError) -> [String: Value] {
        var normal: [String: Value] = [:]
        var missing: [String] = []
        for parameter in tip.parameters {
            guard let value = values[parameter.name] else {
                if !parameter.type.isOptional { missing.append(parameter.name) }
                continue
            }
            guard let converted = value.normalized(to: parameter.type) else {
                throw .invalidValue(subject: "parameter '\(parameter.name)' of \(tip.id)", expected: parameter.type, got: value)
            }
            normal[parameter.name] = converted
        }
        for name in values.keys.sorted() where tip.parameter(name) == nil {
            throw .unknownParameter("\(tip.id).\(name)", suggestion: Suggestions.closest(to: name, in: tip.parameters.map(\.name)))
        }
        guard missing.isEmpty else { throw .tipNeedsParameters(tip.id, missing: missing) }
        return normal
    }

    /// The custom ID template formatted with the parameters, or the tip's id. An absent optional value is empty
    /// text (`Tip-{trail.id}-{nickname}` with no nickname is `Tip-butler-fork-`).
    /// A custom-ID template's message. A catalog may give the template's text alone (a prepared snapshot parses
    /// it only when needed); a text that does not parse is nil here as it was when loaded.
    static func parsedTemplate(_ template: LocalizedText) -> Message? {
        template.message ?? (try? Message.parse(template.source))
    }

    func instanceID(of tip: Tip, parameters: [String: Value]) throws(TipEngineError) -> TipInstanceID {
        guard let template = tip.customID else { return TipInstanceID(tip.id.rawValue) }
        guard let message = EngineCore.parsedTemplate(template) else {
            throw .invalidCustomID(tip.id, reason: "the template '\(template.source)' does not parse")
        }
        let text: String
        do throws(MessageFormatError) {
            text = try message.format(locale: locale) { path in
                let parts = path.split(separator: ".")
                guard let first = parts.first else { return nil }
                return parameters[String(first)]?.value(atPath: parts.dropFirst()) ?? .string("")
            }
        } catch {
            throw .invalidCustomID(tip.id, reason: error.message)
        }
        guard !text.trimmingWhitespace().isEmpty else { throw .invalidCustomID(tip.id, reason: "it is empty") }
        return TipInstanceID(text)
    }

    // MARK: Displays

    /// The app shows the instance. Each call is one display (an unfinished one is closed first).
    ///
    /// A tip already shown `maxDisplayCount` times is invalidated (`displayCountExceeded`) instead.
    mutating func displayed(_ name: TipInstanceID) throws(TipEngineError) {
        try requireConfigured()
        let index = try resolve(name)
        let now = self.now
        try settle(now)
        guard instances[index].record.invalidation == nil else { return }
        let tip = compiled.tips[instances[index].tip].facts
        if let limit = tip.options.maxDisplayCount, instances[index].record.displayCount >= limit {
            try update(index) { record in
                EngineCore.close(&record, at: now)
                record.invalidation = .displayCountExceeded
                record.invalidatedAt = now
            }
            return
        }
        let first = instances[index].record.displayCount == 0
        try update(index) { record in
            EngineCore.close(&record, at: now)
            record.displayCount += 1
            if record.firstDisplayed == nil { record.firstDisplayed = now }
            record.lastDisplayed = now
            record.onScreenSince = now
        }
        if first, !tip.options.ignoresDisplayFrequency {
            var record = engineRecord
            record.lastNewTipShown = now
            try saveEngineRecord(record)
        }
    }

    /// The app stopped showing the instance. Reaching `maxDisplayCount` or `maxDisplayDuration` invalidates it.
    mutating func hidden(_ name: TipInstanceID) throws(TipEngineError) {
        try requireConfigured()
        let index = try resolve(name)
        let now = self.now
        try settle(now)
        guard instances[index].record.onScreenSince != nil || instances[index].record.invalidation == nil else { return }
        let options = compiled.tips[instances[index].tip].facts.options
        try update(index) { record in
            EngineCore.close(&record, at: now)
            guard record.invalidation == nil else { return }
            if let limit = options.maxDisplayCount, record.displayCount >= limit {
                record.invalidation = .displayCountExceeded
                record.invalidatedAt = now
            } else if let limit = options.maxDisplayDuration, record.displayDuration >= limit {
                record.invalidation = .displayDurationExceeded
                record.invalidatedAt = now
            }
        }
    }

    /// Invalidates instances (a tip id means all its instances); an invalidated one keeps its first reason.
    mutating func invalidate(_ name: TipInstanceID, reason: TipInvalidationReason) throws(TipEngineError) {
        try requireConfigured()
        let indices = try resolveAll(name)
        let now = self.now
        try settle(now)
        for index in indices where instances[index].record.invalidation == nil {
            try update(index) { record in
                EngineCore.close(&record, at: now)
                record.invalidation = reason
                record.invalidatedAt = now
            }
        }
    }

    /// TipKit's `resetEligibility`: status, display count and duration back to a fresh tip's (all instances
    /// of a tip id).
    mutating func resetEligibility(_ name: TipInstanceID) throws(TipEngineError) {
        try requireConfigured()
        for index in try resolveAll(name) {
            try update(index) { $0 = $0.resetEligibility }
        }
    }

    /// Adds the time since `onScreenSince` to the display duration and ends the display. A clock that moved
    /// backwards adds nothing.
    static func close(_ record: inout TipRecord, at now: Timestamp) {
        guard let since = record.onScreenSince else { return }
        record.displayDuration.seconds += max(0, now.secondsSince1970 - since.secondsSince1970)
        record.onScreenSince = nil
    }

    /// Invalidates on-screen instances whose total display time reached `maxDisplayDuration` by `now`
    /// (TipKit removes such a tip while it is showing). The duration is capped at the maximum and the
    /// invalidation dated when it was reached.
    mutating func settle(_ now: Timestamp) throws(TipEngineError) {
        guard !onScreen.isEmpty else { return }
        for index in onScreen.sorted() {
            guard let limit = compiled.tips[instances[index].tip].facts.options.maxDisplayDuration,
                  let since = instances[index].record.onScreenSince
            else { continue }
            let shown = instances[index].record.displayDuration.seconds
            let running = max(0, now.secondsSince1970 - since.secondsSince1970)
            guard shown + running >= limit.seconds else { continue }
            let reached = since.secondsSince1970 + max(0, limit.seconds - shown)
            try update(index) { record in
                record.onScreenSince = nil
                record.displayDuration = TimeSpan(seconds: max(shown, limit.seconds))
                if record.invalidation == nil {
                    record.invalidation = .displayDurationExceeded
                    record.invalidatedAt = Timestamp(secondsSince1970: min(reached, now.secondsSince1970))
                }
            }
        }
    }
}
