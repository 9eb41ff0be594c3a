import TipcatCore

/// How long a comparison's answer stands as time passes, so callers can cache verdicts instead of
/// re-evaluating every rule whenever the clock moves.
///
/// Two facts keep this exact rather than approximate:
/// - `now ± d` compared with a date that does not depend on `now` can only change when the two meet.
/// - As time passes, donations only leave selections (windows slide, `maxAge` expires); a count over a
///   selection that only loses members never grows, so `count >= 3` that is false stays false, and
///   `count < 3` that is true stays true, until new inputs arrive.
extension RuleEvaluation {
    /// When a comparison that reads `now` on one side can change by time alone: `.some(nil)` never,
    /// `.some(time)` at that time; nil when the comparison is not of that form (it then counts as reading
    /// `now` without bound).
    static func nowFlip(now: Double, _ op: RuleComparisonOperator, _ left: EvalValue, _ right: EvalValue,
                        nowOnLeft: Bool, nowOnRight: Bool) -> Double?? {
        if case .missing = left { return .some(nil) }
        if case .missing = right { return .some(nil) }
        guard nowOnLeft != nowOnRight, case .date(let leftDate) = left, case .date(let rightDate) = right else { return nil }
        // The moving side is `now + offset`; it meets the fixed side when `now == fixed - offset`.
        let (moving, fixed) = nowOnLeft ? (leftDate, rightDate) : (rightDate, leftDate)
        let meets = fixed - (moving - now)
        // A millisecond of margin absorbs rounding in `fixed - offset`.
        let margin = 0.001
        if meets - margin > now { return .some(meets - margin) }
        if meets + margin >= now { return .some(now.nextUp) }
        return .some(nil)
    }

    /// Where a comparison has a count that never grows as time passes opposite a side that does not depend on
    /// time (decided from the rule's shape, once).
    enum ShrinkShape: Sendable {
        case none, countOnLeft, countOnRight
    }

    static func shrinkShape(_ lhs: RuleExpression, _ rhs: RuleExpression) -> ShrinkShape {
        if isShrinkingCount(lhs), isTimeless(rhs) { return .countOnLeft }
        if isShrinkingCount(rhs), isTimeless(lhs) { return .countOnRight }
        return .none
    }

    /// Whether the comparison keeps its answer however much its donation selection shrinks: its shape has a
    /// shrinking count, and the answer is on the side a shrinking count cannot leave.
    static func staysWhileShrinking(
        _ shape: ShrinkShape, _ op: RuleComparisonOperator, holds: Bool, left: EvalValue, right: EvalValue
    ) -> Bool {
        let countOnLeft: Bool
        switch shape {
        case .none: return false
        case .countOnLeft: countOnLeft = true
        case .countOnRight: countOnLeft = false
        }
        guard case .int(let count) = countOnLeft ? left : right else { return false }
        let bound: Double
        switch countOnLeft ? right : left {
        case .int(let value): bound = Double(value)
        case .double(let value): bound = value
        default: return false
        }
        switch countOnLeft ? op : op.mirrored {
        case .greaterOrEqual, .greater: return !holds
        case .less, .lessOrEqual: return holds
        case .equal: return !holds && Double(count) < bound
        case .notEqual: return holds && Double(count) < bound
        }
    }

    /// `.count` of a selection that only loses members over time, of its largest subset, or of the distinct
    /// values of a field in it. (A smallest subset can grow: when the smallest group empties, the next one
    /// is larger.)
    static func isShrinkingCount(_ expression: RuleExpression) -> Bool {
        guard case .member(let base, let member, _) = expression, member.kind == .count else { return false }
        if isMonotoneSelection(base) { return true }
        if case .member(let inner, let step, _) = base, step.kind == .largestSubset || step.kind == .distinct {
            return isMonotoneSelection(inner)
        }
        return false
    }

    /// Donations filtered one by one, by windows and by predicates that do not depend on time: each donation
    /// is in or out on its own, and once out (aged past a window) it stays out.
    static func isMonotoneSelection(_ expression: RuleExpression) -> Bool {
        switch expression {
        case .event:
            return true
        case .member(let base, let member, _):
            switch member.kind {
            case .within?:
                return isMonotoneSelection(base)
            case .where?:
                guard let predicate = member.arguments?.first?.value else { return false }
                return isTimeless(predicate) && isMonotoneSelection(base)
            default:
                return false
            }
        default:
            return false
        }
    }

    /// Whether the expression reads nothing that changes with time: no `now`, no donations, no tip states.
    static func isTimeless(_ expression: RuleExpression) -> Bool {
        switch expression {
        case .now, .event, .tip:
            return false
        case .bool, .int, .double, .string, .duration, .nil, .window, .symbol, .appParameter, .name, .tipParameter, .eventField:
            return true
        case .not(let operand, _):
            return isTimeless(operand)
        case .and(let operands, _), .or(let operands, _):
            return operands.allSatisfy(isTimeless)
        case .comparison(_, let lhs, let rhs, _), .arithmetic(_, let lhs, let rhs, _):
            return isTimeless(lhs) && isTimeless(rhs)
        case .member(let base, let member, _):
            return isTimeless(base) && (member.arguments ?? []).allSatisfy { isTimeless($0.value) }
        }
    }
}

/// How long an evaluation's answer stands if nothing but time changes — the bookkeeping the tree evaluator and
/// `RuleProgram` share.
struct RuleValidity: Sendable {
    /// The earliest time the result can change for reasons that are always relevant: a future-dated
    /// donation coming due, a comparison with `now` flipping.
    var validBefore = Double.infinity
    /// The earliest time a donation leaves a selection (a window, `maxAge`). A comparison that stays the same
    /// however its selection shrinks drops the times gathered while evaluating it.
    var leavesBefore = Double.infinity
    /// Reads of `now` not yet accounted for by a comparison; any left at the end make the result good only
    /// for this instant.
    var unhandledNow = 0

    mutating func changes(at time: Double) {
        if time < validBefore { validBefore = time }
    }

    mutating func leaves(at time: Double) {
        if time < leavesBefore { leavesBefore = time }
    }

    /// Until when the answer stands (nil: until the inputs change).
    func until(now: Double) -> Timestamp? {
        var until = min(validBefore, leavesBefore)
        if unhandledNow > 0 { until = min(until, now.nextUp) }
        return until == .infinity ? nil : Timestamp(secondsSince1970: until)
    }

    /// What a comparison saves when it starts: it gathers its own leave times and reads of `now`.
    struct Mark {
        let leavesBefore: Double
        let unhandledNow: Int
    }

    mutating func beginComparison() -> Mark {
        let mark = Mark(leavesBefore: leavesBefore, unhandledNow: unhandledNow)
        leavesBefore = .infinity
        return mark
    }

    /// Reads of `now` since the comparison began.
    func nowReads(since mark: Mark) -> Int { unhandledNow - mark.unhandledNow }

    /// Accounts for a finished comparison: its leave times count unless a shrinking selection cannot change its
    /// answer, and its reads of `now` are settled when the comparison says when it flips.
    mutating func endComparison(
        _ mark: Mark, now: Double, _ op: RuleComparisonOperator, shape: RuleEvaluation.ShrinkShape, holds: Bool,
        left: EvalValue, right: EvalValue, leftNow: Int, rightNow: Int
    ) {
        if RuleEvaluation.staysWhileShrinking(shape, op, holds: holds, left: left, right: right) {
            leavesBefore = mark.leavesBefore
        } else {
            leavesBefore = min(mark.leavesBefore, leavesBefore)
        }
        if leftNow + rightNow > 0,
           let flip = RuleEvaluation.nowFlip(now: now, op, left, right, nowOnLeft: leftNow > 0, nowOnRight: rightNow > 0) {
            unhandledNow = mark.unhandledNow
            if let flip { changes(at: flip) }
        }
    }
}
