import TipcatCore

/// The donation queries themselves, shared by the tree evaluator and `RuleProgram`: binary searches on the
/// sorted timestamps, integer counting on interned field columns and their per-value positions.
extension DonationSelection {
    /// `#event`: the donations visible at `now` under the event's limit, and when that set changes by time alone.
    static func visible(_ event: String, in log: DonationLog?, at now: Double) -> (selection: DonationSelection, leavesAt: Double, arrivesAt: Double) {
        guard let log else { return (DonationSelection(event: event, log: nil, indices: .range(0..<0)), .infinity, .infinity) }
        let (range, leavesAt, arrivesAt) = log.visible(at: now)
        return (DonationSelection(event: event, log: log, indices: .range(range)), leavesAt, arrivesAt)
    }

    /// `.within(span)`: donations with `now - span <= time`, and when its oldest donation leaves the window.
    func within(_ span: Double, now: Double) -> (selection: DonationSelection, leavesAt: Double?) {
        guard let log else { return (self, nil) }
        let start = now - span
        switch indices {
        case .range(let range):
            let lower = min(max(range.lowerBound, log.firstIndex(notBefore: start)), range.upperBound)
            let leavesAt = lower < range.upperBound ? (log.times[lower] + span).nextUp : nil
            return (with(.range(lower..<range.upperBound)), leavesAt)
        case .values(let range, let field, let values):
            // Times are sorted: the window keeps a suffix of the run.
            let lower = min(max(range.lowerBound, log.firstIndex(notBefore: start)), range.upperBound)
            let narrowed = with(.values(range: lower..<range.upperBound, field: field, values: values))
            return (narrowed, narrowed.first.map { (log.times[$0] + span).nextUp })
        case .list(let list):
            var low = 0
            var high = list.count
            while low < high {
                let mid = (low + high) / 2
                if log.times[list[mid]] < start { low = mid + 1 } else { high = mid }
            }
            return (with(.list(Array(list[low...]))), low < list.count ? (log.times[list[low]] + span).nextUp : nil)
        }
    }

    /// The selected donations whose value of field number `field` has a true entry in `table` (indexed by the
    /// field's pooled value ids). On a run, the result is answered from the per-value positions.
    func keeping(field: Int, where table: [Bool]) -> DonationSelection {
        switch indices {
        case .range(let range):
            return with(.values(range: range, field: field, values: DonationSelection.ids(where: table)))
        case .values(let range, field, let values):
            return with(.values(range: range, field: field, values: values.filter { table[Int($0)] }))
        default:
            guard let log else { return with(.list([])) }
            let column = log.columns[field]
            var kept: [Int] = []
            forEach { index in
                if table[Int(column[index])] { kept.append(index) }
            }
            return with(.list(kept))
        }
    }

    /// `table[id]` for `field op constant` (or `constant op field`): whether pooled value `id` satisfies it.
    static func table(_ pool: [Value], _ op: RuleComparisonOperator, _ constant: EvalValue, fieldOnLeft: Bool) -> [Bool] {
        pool.map { pooled in
            fieldOnLeft ? RuleEvaluation.compare(op, EvalValue(pooled), constant) : RuleEvaluation.compare(op, constant, EvalValue(pooled))
        }
    }

    /// The ids whose entry in `table` is true, ascending.
    static func ids(where table: [Bool]) -> [Int32] {
        var ids: [Int32] = []
        for (id, wanted) in table.enumerated() where wanted { ids.append(Int32(truncatingIfNeeded: id)) }
        return ids
    }

    /// `.largestSubset(field)` / `.smallestSubset(field)` by field number: the donations sharing the most
    /// (fewest, but at least one) common value, with each value's count and the chosen value; nil when
    /// nothing is selected. Ties go to the value donated first (the lowest pooled id).
    ///
    /// On a run of donations, each value's count comes from the log's per-value positions (two binary searches
    /// per distinct value) when that is cheaper than counting the run, and the result is "the run's donations
    /// with the chosen value" — no list is built.
    func subset(field: Int, largest: Bool) -> (selection: DonationSelection, counts: [Int32], best: Int)? {
        guard let log else { return nil }
        let distinct = log.pools[field].count
        var counts = [Int32](repeating: 0, count: distinct)
        var run: Range<Int>?
        switch indices {
        case .range(let range):
            run = range
            if distinct * 16 <= range.count {
                log.count(inField: field, in: range, into: &counts)
            } else {
                log.columns[field].withUnsafeBufferPointer { column in
                    for index in range { counts[Int(column[index])] += 1 }
                }
            }
        case .values(let range, field, let values):
            run = range
            for id in values { counts[Int(id)] = Int32(log.count(ofValue: Int(id), inField: field, in: range)) }
        default:
            let column = log.columns[field]
            forEach { counts[Int(column[$0])] += 1 }
        }
        var best = -1
        for id in counts.indices where counts[id] > 0 {
            if best < 0 || (largest ? counts[id] > counts[best] : counts[id] < counts[best]) { best = id }
        }
        guard best >= 0 else { return nil }
        if let run { return (with(.values(range: run, field: field, values: [Int32(best)])), counts, best) }
        var kept: [Int] = []
        kept.reserveCapacity(Int(counts[best]))
        let chosen = Int32(best)
        let column = log.columns[field]
        forEach { index in
            if column[index] == chosen { kept.append(index) }
        }
        return (with(.list(kept)), counts, best)
    }
}

/// Donation queries of the tree evaluator: the shared queries, plus what they mean for validity and notes.
extension RuleEvaluation {
    /// `#event`: the donations visible at `now` under the event's limit.
    mutating func visibleDonations(of event: String) -> DonationSelection {
        let (selection, leavesAt, arrivesAt) = DonationSelection.visible(event, in: context.donations[event], at: now)
        leaves(at: leavesAt)
        changes(at: arrivesAt)
        return selection
    }

    /// `.within(span)`: donations with `now - span <= time`. The result changes when its oldest donation
    /// leaves the window.
    mutating func within(_ selection: DonationSelection, _ span: Double) -> DonationSelection {
        let (narrowed, leavesAt) = selection.within(span, now: now)
        if let leavesAt { leaves(at: leavesAt) }
        return narrowed
    }

    /// `.where(predicate)`. A predicate that reads one field is decided once per distinct value of that field
    /// (when there are fewer distinct values than donations); on a run of donations the result is then "the
    /// run's donations with these values", counted from the log's per-value positions without a scan.
    mutating func filter(_ selection: DonationSelection, _ predicate: RuleExpression) -> DonationSelection {
        guard let log = selection.log, selection.count > 0 else { return selection.with(.list([])) }
        let saved = scope
        defer { scope = saved }
        var used = Set<String>()
        RuleEvaluation.collectFields(of: selection.event, in: predicate, into: &used)
        if used.isEmpty {
            // Reads no field: the same answer for every donation.
            scope = DonationScope(log: log, index: -1, override: nil)
            return value(predicate).isTrue ? selection : selection.with(.list([]))
        }
        if used.count == 1, let name = used.first, let field = log.fieldIndex(name), log.pools[field].count <= selection.count {
            return selection.keeping(field: field, where: valueTable(predicate, field: field, of: selection.event, in: log))
        }
        var kept: [Int] = []
        kept.reserveCapacity(selection.count)
        selection.forEach { candidate in
            scope = DonationScope(log: log, index: candidate, override: nil)
            if value(predicate).isTrue { kept.append(candidate) }
        }
        return selection.with(.list(kept))
    }

    /// `table[id]`: whether `predicate`, which reads only `field`, holds for the field's pooled value `id`.
    mutating func valueTable(_ predicate: RuleExpression, field: Int, of event: String, in log: DonationLog) -> [Bool] {
        let pool = log.pools[field].values
        if let (op, literal, fieldOnLeft) = RuleEvaluation.literalComparison(predicate, of: event) {
            return DonationSelection.table(pool, op, value(literal), fieldOnLeft: fieldOnLeft)
        }
        var table = [Bool](repeating: false, count: pool.count)
        for id in pool.indices {
            scope = DonationScope(log: log, index: -1, override: (field, pool[id]))
            table[id] = value(predicate).isTrue
        }
        return table
    }

    /// `field op literal` or `literal op field` on a field of `event`: the operator, the literal and which side
    /// the field is on. Such predicates are decided by comparing pooled values directly.
    static func literalComparison(_ predicate: RuleExpression, of event: String) -> (RuleComparisonOperator, RuleExpression, fieldOnLeft: Bool)? {
        guard case .comparison(let op, let lhs, let rhs, _) = predicate else { return nil }
        if case .eventField(_, event, _) = lhs, rhs.isLiteral { return (op, rhs, true) }
        if case .eventField(_, event, _) = rhs, lhs.isLiteral { return (op, lhs, false) }
        return nil
    }

    /// The field names of `event` that `expression` reads as the current donation's fields.
    static func collectFields(of event: String, in expression: RuleExpression, into fields: inout Set<String>) {
        switch expression {
        case .eventField(let name, let owner, _):
            if owner == event { fields.insert(name) }
        case .not(let operand, _):
            collectFields(of: event, in: operand, into: &fields)
        case .and(let operands, _), .or(let operands, _):
            for operand in operands { collectFields(of: event, in: operand, into: &fields) }
        case .comparison(_, let lhs, let rhs, _), .arithmetic(_, let lhs, let rhs, _):
            collectFields(of: event, in: lhs, into: &fields)
            collectFields(of: event, in: rhs, into: &fields)
        case .member(let base, let member, _):
            collectFields(of: event, in: base, into: &fields)
            // A nested query on another event has its own donation scope; only look inside arguments that
            // are evaluated in this scope (contains, within).
            if member.kind == .contains || member.kind == .within {
                for argument in member.arguments ?? [] { collectFields(of: event, in: argument.value, into: &fields) }
            }
        default:
            break
        }
    }

    /// `.largestSubset(field)` / `.smallestSubset(field)` (see `DonationSelection.subset`).
    mutating func subset(_ selection: DonationSelection, field name: String, largest: Bool) -> DonationSelection {
        guard let log = selection.log, let field = log.fieldIndex(name), selection.count > 0,
              let (subset, counts, best) = selection.subset(field: field, largest: largest)
        else { return selection.with(.list([])) }
        if shouldRecord {
            let which = largest ? "largest" : "smallest"
            let groups = counts.lazy.filter { $0 > 0 }.count
            notes.append("\(which) of \(groups) group\(groups == 1 ? "" : "s"): \(name) = \(log.pools[field].values[best])")
        }
        return subset
    }

    /// `.distinct(field)`: the distinct values, in the order they were first donated.
    func distinct(_ selection: DonationSelection, field name: String) -> [Value] {
        guard let log = selection.log, let field = log.fieldIndex(name) else { return [] }
        let column = log.columns[field]
        let pool = log.pools[field].values
        var seen = [Bool](repeating: false, count: pool.count)
        var values: [Value] = []
        selection.forEach { index in
            let id = Int(column[index])
            if !seen[id] {
                seen[id] = true
                values.append(pool[id])
            }
        }
        return values
    }
}
