import TipcatCore

/// Donation queries: binary searches on the sorted timestamps, integer counting on interned field columns.
extension RuleEvaluation {
    /// `#event`: the donations visible at `now` under the event's limit.
    mutating func visibleDonations(of event: String) -> DonationSelection {
        guard let log = context.donations[event] else {
            return DonationSelection(event: event, log: nil, indices: .range(0..<0))
        }
        let (range, leavesAt, arrivesAt) = log.visible(at: now)
        leaves(at: leavesAt)
        changes(at: arrivesAt)
        return DonationSelection(event: event, log: log, indices: .range(range))
    }

    /// `.within(span)`: donations with `now - span <= time`. The result changes when its oldest donation
    /// leaves the window.
    mutating func within(_ selection: DonationSelection, _ span: Double) -> DonationSelection {
        guard let log = selection.log else { return selection }
        let start = now - span
        switch selection.indices {
        case .range(let range):
            let lower = min(max(range.lowerBound, log.firstIndex(notBefore: start)), range.upperBound)
            if lower < range.upperBound { leaves(at: (log.times[lower] + span).nextUp) }
            return selection.with(.range(lower..<range.upperBound))
        case .values(let range, let field, let values):
            // Times are sorted: the window keeps a suffix of the run.
            let lower = min(max(range.lowerBound, log.firstIndex(notBefore: start)), range.upperBound)
            let narrowed = selection.with(.values(range: lower..<range.upperBound, field: field, values: values))
            if let first = narrowed.first { leaves(at: (log.times[first] + span).nextUp) }
            return narrowed
        case .list(let list):
            var low = 0
            var high = list.count
            while low < high {
                let mid = (low + high) / 2
                if log.times[list[mid]] < start { low = mid + 1 } else { high = mid }
            }
            if low < list.count { leaves(at: (log.times[list[low]] + span).nextUp) }
            return selection.with(.list(Array(list[low...])))
        }
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
            let table = valueTable(predicate, field: field, of: selection.event, in: log)
            switch selection.indices {
            case .range(let range):
                return selection.with(.values(range: range, field: field, values: RuleEvaluation.ids(where: table)))
            case .values(let range, field, let values):
                return selection.with(.values(range: range, field: field, values: values.filter { table[Int($0)] }))
            default:
                let column = log.columns[field]
                var kept: [Int] = []
                selection.forEach { index in
                    if table[Int(column[index])] { kept.append(index) }
                }
                return selection.with(.list(kept))
            }
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
        // The common shape, `field op literal` (either way round): compare directly.
        if case .comparison(let op, let lhs, let rhs, _) = predicate {
            var literal: RuleExpression?
            var fieldOnLeft = true
            if case .eventField(_, event, _) = lhs, rhs.isLiteral {
                literal = rhs
            } else if case .eventField(_, event, _) = rhs, lhs.isLiteral {
                literal = lhs
                fieldOnLeft = false
            }
            if let literal {
                let constant = value(literal)
                return pool.map { pooled in
                    fieldOnLeft ? RuleEvaluation.compare(op, EvalValue(pooled), constant)
                        : RuleEvaluation.compare(op, constant, EvalValue(pooled))
                }
            }
        }
        var table = [Bool](repeating: false, count: pool.count)
        for id in pool.indices {
            scope = DonationScope(log: log, index: -1, override: (field, pool[id]))
            table[id] = value(predicate).isTrue
        }
        return table
    }

    /// The ids whose entry in `table` is true, ascending.
    static func ids(where table: [Bool]) -> [Int32] {
        var ids: [Int32] = []
        for (id, wanted) in table.enumerated() where wanted { ids.append(Int32(truncatingIfNeeded: id)) }
        return ids
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

    /// `.largestSubset(field)` / `.smallestSubset(field)`: the donations sharing the most (fewest, but at
    /// least one) common value of `field`. Ties go to the value donated first.
    ///
    /// On a run of donations, each value's count comes from the log's per-value positions (two binary searches
    /// per distinct value) when that is cheaper than counting the run, and the result is "the run's donations
    /// with the chosen value" — no list is built.
    mutating func subset(_ selection: DonationSelection, field name: String, largest: Bool) -> DonationSelection {
        guard let log = selection.log, let field = log.fieldIndex(name), selection.count > 0 else {
            return selection.with(.list([]))
        }
        let distinct = log.pools[field].count
        var counts = [Int32](repeating: 0, count: distinct)
        var run: Range<Int>?
        switch selection.indices {
        case .range(let range):
            run = range
            if distinct * 16 <= range.count {
                for id in 0..<distinct { counts[id] = Int32(log.count(ofValue: id, inField: field, in: range)) }
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
            selection.forEach { counts[Int(column[$0])] += 1 }
        }
        var best = -1
        for id in counts.indices where counts[id] > 0 {
            if best < 0 || (largest ? counts[id] > counts[best] : counts[id] < counts[best]) { best = id }
        }
        guard best >= 0 else { return selection.with(.list([])) }
        if shouldRecord {
            let which = largest ? "largest" : "smallest"
            let groups = counts.lazy.filter { $0 > 0 }.count
            notes.append("\(which) of \(groups) group\(groups == 1 ? "" : "s"): \(name) = \(log.pools[field].values[best])")
        }
        if let run { return selection.with(.values(range: run, field: field, values: [Int32(best)])) }
        var kept: [Int] = []
        kept.reserveCapacity(Int(counts[best]))
        let chosen = Int32(best)
        let column = log.columns[field]
        selection.forEach { index in
            if column[index] == chosen { kept.append(index) }
        }
        return selection.with(.list(kept))
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
