public import TipcatCore

/// Evaluates checked rules against a `RuleContext`, as TipKit evaluates its `#Rule`s.
///
/// Semantics (see ENGINE-SEMANTICS.md):
/// - `#e` is the donations rules may see: the newest `maxCount` (default 1,000), none older than `maxAge`, none
///   dated after `now`.
/// - `.within(5d)` keeps donations with `now - 5d <= time <= now`; `.within(.day)` is the last 24 hours (a
///   sliding window, not the calendar day), `.hour` 60 minutes, `.week` 7 days, `.minute` 60 seconds.
/// - `.largestSubset(f)` / `.smallestSubset(f)` group the donations by the value of field `f` and keep the
///   largest / smallest non-empty group (ties: the value donated first); no donations give an empty group.
/// - A comparison with a missing value is false: `lastDonated` with no donations, a parameter without a value.
/// - An optional parameter (or record field) without a value is `nil`, as in Swift: `nil == nil` holds, `nil != x`
///   holds for any present `x`, and `==`, `<`, `<=`, `>`, `>=` between `nil` and a present value are false.
/// - Numbers compare across int and double; strings by Unicode order; dates by time.
public enum RuleEvaluator {
    /// Evaluates `rule` and records every condition with the values it saw, for explanations.
    ///
    /// Every operand of `&&` and `||` is evaluated (no short-circuit), so each unmet condition is listed.
    public static func evaluate(_ rule: CheckedRule, in context: RuleContext) -> RuleVerdict {
        var evaluation = RuleEvaluation(context: context, bytes: Array(rule.source.utf8), recording: true)
        let holds = evaluation.condition(rule.expression)
        return RuleVerdict(
            source: rule.source, holds: holds, conditions: evaluation.conditions,
            validBefore: evaluation.validBeforeTimestamp)
    }

    /// Evaluates `rule` without recording anything: the engine's fast path.
    public static func outcome(_ rule: CheckedRule, in context: RuleContext) -> RuleOutcome {
        var evaluation = RuleEvaluation(context: context, bytes: [], recording: false)
        let holds = evaluation.condition(rule.expression)
        return RuleOutcome(holds: holds, validBefore: evaluation.validBeforeTimestamp)
    }
}

/// Whether a rule holds, and until when that answer stands if nothing but time changes.
public struct RuleOutcome: Sendable, Hashable {
    public var holds: Bool
    /// See `RuleVerdict.validBefore`.
    public var validBefore: Timestamp?

    /// Creates an outcome.
    public init(holds: Bool, validBefore: Timestamp? = nil) {
        self.holds = holds
        self.validBefore = validBefore
    }
}

/// A value during evaluation. Dates and durations are seconds.
enum EvalValue {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case date(Double)
    case duration(Double)
    case collection([Value], isSet: Bool)
    case record([String: Value])
    case donations(DonationSelection)
    case tip(RuleTipState)
    /// `nil`: an absent optional value.
    case absent
    case missing(String)

    init(_ value: Value) {
        switch value {
        case .string(let string): self = .string(string)
        case .int(let int): self = .int(int)
        case .double(let double): self = .double(double)
        case .bool(let bool): self = .bool(bool)
        case .date(let timestamp): self = .date(timestamp.secondsSince1970)
        case .list(let values): self = .collection(values, isSet: false)
        case .set(let values): self = .collection(values, isSet: true)
        case .record(let fields): self = .record(fields)
        }
    }

    var isTrue: Bool {
        if case .bool(true) = self { return true }
        return false
    }

    var observed: RuleObservedValue {
        switch self {
        case .bool(let value): .value(.bool(value))
        case .int(let value): .value(.int(value))
        case .double(let value): .value(.double(value))
        case .string(let value): .value(.string(value))
        case .date(let seconds): .value(.date(Timestamp(secondsSince1970: seconds)))
        case .duration(let seconds): .duration(TimeSpan(seconds: seconds))
        case .collection(let values, let isSet): .value(isSet ? .set(values) : .list(values))
        case .record(let fields): .value(.record(fields))
        case .donations(let selection): .donations(count: selection.count)
        case .tip(let state): .tip(state)
        case .absent: .absent
        case .missing(let reason): .missing(reason)
        }
    }
}

/// A subset of one event's stored donations: a contiguous run, the donations of a run whose field has one
/// of some values (answered from the log's per-value positions), or explicit ascending indices.
struct DonationSelection {
    enum Indices {
        case range(Range<Int>)
        /// The donations in `range` whose field number `field` has one of `values` (indices into the field's
        /// pool, ascending).
        case values(range: Range<Int>, field: Int, values: [Int32])
        case list([Int])
    }

    var event: String
    var log: DonationLog?
    var indices: Indices

    var count: Int {
        switch indices {
        case .range(let range): return range.count
        case .values(let range, let field, let values):
            guard let log else { return 0 }
            var total = 0
            for value in values { total += log.count(ofValue: Int(value), inField: field, in: range) }
            return total
        case .list(let list): return list.count
        }
    }

    /// The newest selected index.
    var last: Int? {
        switch indices {
        case .range(let range): return range.isEmpty ? nil : range.upperBound - 1
        case .values(let range, let field, let values):
            return values.compactMap { log?.edge(ofValue: Int($0), inField: field, in: range, first: false) }.max()
        case .list(let list): return list.last
        }
    }

    /// The oldest selected index.
    var first: Int? {
        switch indices {
        case .range(let range): return range.isEmpty ? nil : range.lowerBound
        case .values(let range, let field, let values):
            return values.compactMap { log?.edge(ofValue: Int($0), inField: field, in: range, first: true) }.min()
        case .list(let list): return list.first
        }
    }

    func forEach(_ body: (Int) -> Void) {
        switch indices {
        case .range(let range): for index in range { body(index) }
        case .values(let range, let field, let values):
            guard let log, !range.isEmpty else { return }
            let column = log.columns[field]
            var wanted = [Bool](repeating: false, count: log.pools[field].count)
            for value in values { wanted[Int(value)] = true }
            for index in range where wanted[Int(column[index])] { body(index) }
        case .list(let list): for index in list { body(index) }
        }
    }

    /// The selected indices as a list (for the general, scanning paths).
    var list: [Int] {
        if case .list(let list) = indices { return list }
        var list: [Int] = []
        list.reserveCapacity(count)
        forEach { list.append($0) }
        return list
    }

    func with(_ indices: Indices) -> DonationSelection {
        DonationSelection(event: event, log: log, indices: indices)
    }
}

/// One evaluation's working state.
struct RuleEvaluation: ValidityTracking {
    /// The donation a `where` predicate is looking at; `override` replaces one field's value when a
    /// single-field predicate is decided once per distinct value.
    struct DonationScope {
        var log: DonationLog
        var index: Int
        var override: (field: Int, value: Value)?
    }

    let context: RuleContext
    let now: Double
    let bytes: [UInt8]
    let recording: Bool
    var conditions: [RuleCondition] = []
    /// Notes gathered since the last recorded condition (recording only).
    var notes: [String] = []
    /// How long the answer stands as time passes.
    var validity = RuleValidity()
    var scope: DonationScope?

    init(context: RuleContext, bytes: [UInt8], recording: Bool) {
        self.context = context
        self.now = context.now.secondsSince1970
        self.bytes = bytes
        self.recording = recording
    }

    var validBeforeTimestamp: Timestamp? { validity.until(now: now) }

    /// Conditions are recorded at the rule's level, not for each donation a `where` looks at.
    var shouldRecord: Bool { recording && scope == nil }

    mutating func changes(at time: Double) { validity.changes(at: time) }

    mutating func leaves(at time: Double) { validity.leaves(at: time) }

    // MARK: Conditions

    /// Evaluates a condition (a bool expression); anything that is not `true` — including a missing value —
    /// counts as false.
    mutating func condition(_ expression: RuleExpression) -> Bool {
        switch expression {
        case .and(let operands, _):
            var result = true
            for operand in operands where !condition(operand) {
                result = false
                if !recording { break }
            }
            return result
        case .or(let operands, _):
            var result = false
            for operand in operands where condition(operand) {
                result = true
                if !recording { break }
            }
            return result
        case .not(let operand, _):
            guard shouldRecord else { return !condition(operand) }
            let first = conditions.count
            let holds = !condition(operand)
            recordNegation(expression, from: first, holds)
            return holds
        case .comparison:
            return value(expression).isTrue
        default:
            let result = value(expression)
            let holds = result.isTrue
            if shouldRecord { record(expression, .test(result.observed), holds) }
            return holds
        }
    }

    /// Replaces the conditions recorded inside `!(…)` (from index `first`) by one condition for the negation
    /// as it evaluated: its own text and result, with the inner values (one inner condition keeps its kind,
    /// several become notes).
    mutating func recordNegation(_ expression: RuleExpression, from first: Int, _ holds: Bool) {
        let inner = Array(conditions[first...])
        conditions.removeSubrange(first...)
        guard case .not(let operand, _) = expression else { return }
        let kind: RuleCondition.Kind
        var innerNotes: [String] = []
        let negated: String
        if inner.count == 1 {
            kind = inner[0].kind
            innerNotes = inner[0].notes
            negated = inner[0].negatedText ?? inner[0].text
        } else {
            kind = .test(.value(.bool(!holds)))
            innerNotes = inner.map { "\($0.text): \($0.summary)" }
            negated = text(of: operand)
        }
        notes = innerNotes + notes
        record(expression, kind, holds)
        conditions[conditions.count - 1].negatedText = negated
    }

    func text(of expression: RuleExpression) -> String {
        let lower = max(0, min(expression.range.lowerBound, bytes.count))
        let upper = max(lower, min(expression.range.upperBound, bytes.count))
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }

    mutating func record(_ expression: RuleExpression, _ kind: RuleCondition.Kind, _ holds: Bool) {
        conditions.append(RuleCondition(text: text(of: expression), range: expression.range, kind: kind, holds: holds, notes: notes))
        notes = []
    }

    // MARK: Values

    mutating func value(_ expression: RuleExpression) -> EvalValue {
        switch expression {
        case .bool(let value, _): return .bool(value)
        case .int(let value, _): return .int(value)
        case .double(let value, _): return .double(value)
        case .string(let value, _): return .string(value)
        case .nil: return .absent
        case .duration(let span, _): return .duration(span.seconds)
        case .window(let window, _): return .duration(window.span.seconds)
        case .symbol(let name, _): return .missing(".\(name) is only an argument")
        case .now:
            validity.unhandledNow += 1
            return .date(now)
        case .appParameter(let name, _):
            return context.appParameters[name].map(EvalValue.init) ?? .missing("no value for $\(name)")
        case .event(let id, _):
            return .donations(visibleDonations(of: id))
        case .tip(let id, _, _):
            return context.tips[id].map(EvalValue.tip) ?? .missing("no state for tip \(id)")
        case .name(let name, _):
            return .missing("unresolved name '\(name)'")
        case .tipParameter(let name, _):
            if let value = context.tipParameters[name] { return EvalValue(value) }
            if case .optional? = expression.type { return .absent }
            return .missing("no value for tip parameter '\(name)'")
        case .eventField(let name, let event, _):
            return field(name, of: event)
        case .not, .and, .or:
            return .bool(condition(expression))
        case .comparison(let op, let lhs, let rhs, _):
            let outerNotes = notes
            notes = []
            let (holds, left, right) = comparison(op, lhs, rhs, shape: RuleEvaluation.shrinkShape(lhs, rhs))
            if shouldRecord { record(expression, .comparison(op, left: left.observed, right: right.observed), holds) }
            notes = outerNotes
            return .bool(holds)
        case .arithmetic(let op, let lhs, let rhs, _):
            let left = value(lhs)
            let right = value(rhs)
            switch (left, right) {
            case (.date(let date), .duration(let span)): return .date(op == .plus ? date + span : date - span)
            case (.missing, _): return left
            case (_, .missing): return right
            default: return .missing("cannot compute \(op.rawValue) here")
            }
        case .member(let base, let member, _):
            if let kind = member.kind, [.isToday, .hour, .minute, .weekday].contains(kind) {
                return calendar(kind, of: base)
            }
            let baseValue = value(base)
            let result = self.member(baseValue, member)
            if case .missing = result, member.kind == .field, case .optional? = expression.type, case .record = baseValue {
                return .absent
            }
            return result
        }
    }

    /// `date.isToday`, `.hour`, `.minute`, `.weekday` in the context's time zone. A reading of `now` in the
    /// date is settled here: the answer stands until the next local minute, hour or day starts (for `isToday`,
    /// until the next local midnight after now).
    mutating func calendar(_ kind: RuleMemberKind, of base: RuleExpression) -> EvalValue {
        let reads = validity.unhandledNow
        let date = value(base)
        let readsNow = validity.unhandledNow > reads
        validity.unhandledNow = reads
        guard case .date(let time) = date else { return date }
        let zone = context.timeZone
        let now = context.now.secondsSince1970
        // A date that moves with now (`now`, `now - 1d`) crosses its next boundary that much later than now.
        func movesUntil(_ unit: Double) {
            if readsNow { validity.changes(at: now + (zone.nextBoundary(after: time, unit: unit) - time)) }
        }
        switch kind {
        case .isToday:
            validity.changes(at: zone.nextBoundary(after: now, unit: 86_400))
            movesUntil(86_400)
            return .bool(zone.day(time) == zone.day(now))
        case .hour:
            movesUntil(3600)
            return .int(zone.hour(time))
        case .minute:
            movesUntil(60)
            return .int(zone.minute(time))
        default:
            movesUntil(86_400)
            return .int(zone.weekday(time))
        }
    }

    mutating func field(_ name: String, of event: String) -> EvalValue {
        guard let scope, let field = scope.log.fieldIndex(name) else {
            return .missing("field '\(name)' of #\(event) outside a donation")
        }
        if let override = scope.override, override.field == field { return EvalValue(override.value) }
        guard scope.index >= 0, scope.index < scope.log.count else { return .missing("no donation") }
        return EvalValue(scope.log.value(ofField: field, at: scope.index))
    }

    // MARK: Members

    mutating func member(_ base: EvalValue, _ member: RuleMember) -> EvalValue {
        if case .missing = base { return base }
        guard let kind = member.kind else { return .missing("unchecked member '\(member.name)'") }
        let argument = member.arguments?.first?.value
        switch kind {
        case .count:
            switch base {
            case .donations(let selection): return .int(selection.count)
            case .collection(let values, _): return .int(values.count)
            case .string(let string): return .int(string.count)
            default: return .missing("no count")
            }
        case .isEmpty:
            switch base {
            case .collection(let values, _): return .bool(values.isEmpty)
            case .string(let string): return .bool(string.isEmpty)
            default: return .missing("no isEmpty")
            }
        case .contains:
            guard let argument else { return .missing("contains needs an argument") }
            let needle = value(argument)
            if case .missing = needle { return needle }
            switch (base, needle) {
            case (.collection(let values, _), _):
                return .bool(values.contains { RuleEvaluation.equal(EvalValue($0), needle) })
            case (.string(let string), .string(let part)):
                return .bool(part.isEmpty || string.contains(part))
            default:
                return .missing("cannot test contains here")
            }
        case .within:
            guard case .donations(let selection) = base, let argument else { return .missing("within needs events") }
            guard case .duration(let span) = value(argument) else { return .missing("within needs a duration") }
            return .donations(within(selection, span))
        case .where:
            guard case .donations(let selection) = base, let argument else { return .missing("where needs events") }
            return .donations(filter(selection, argument))
        case .largestSubset, .smallestSubset:
            guard case .donations(let selection) = base, case .eventField(let name, _, _)? = argument else {
                return .missing("\(member.name) needs events and a field")
            }
            return .donations(subset(selection, field: name, largest: kind == .largestSubset))
        case .distinct:
            guard case .donations(let selection) = base, case .eventField(let name, _, _)? = argument else {
                return .missing("distinct needs events and a field")
            }
            return .collection(distinct(selection, field: name), isSet: true)
        case .lastDonated:
            guard case .donations(let selection) = base else { return .missing("lastDonated needs events") }
            guard let log = selection.log, let last = selection.last else {
                return .missing("no donations of #\(selection.event)")
            }
            return .date(log.times[last])
        case .field:
            guard case .record(let fields) = base else { return .missing("not a record") }
            return fields[member.name].map(EvalValue.init) ?? .missing("no field '\(member.name)'")
        case .isToday, .hour, .minute, .weekday:
            return .missing("calendar members are evaluated with their base")
        case .invalidated, .available, .pending, .displayCount:
            guard case .tip(let state) = base else { return .missing("not a tip") }
            switch kind {
            case .invalidated:
                guard let reason = member.arguments?.first.flatMap({ argument -> RuleInvalidationReason? in
                    if case .symbol(let name, _) = argument.value { return RuleInvalidationReason(rawValue: name) }
                    return nil
                }) else { return .bool(state.status == .invalidated) }
                return .bool(state.status == .invalidated && state.invalidationReasons.contains(reason))
            case .available: return .bool(state.status == .available)
            case .pending: return .bool(state.status == .pending)
            default: return .int(state.displayCount)
            }
        }
    }

    // MARK: Comparisons

    static func compare(_ op: RuleComparisonOperator, _ left: EvalValue, _ right: EvalValue) -> Bool {
        func apply<T: Comparable>(_ a: T, _ b: T) -> Bool { op.holds(a, b) }
        switch (left, right) {
        case (.absent, .absent): return op == .equal
        case (.absent, .missing), (.missing, .absent): return false
        case (.absent, _), (_, .absent): return op == .notEqual
        case (.int(let a), .int(let b)): return apply(a, b)
        case (.int(let a), .double(let b)): return apply(Double(a), b)
        case (.double(let a), .int(let b)): return apply(a, Double(b))
        case (.double(let a), .double(let b)): return apply(a, b)
        case (.string(let a), .string(let b)): return apply(a, b)
        case (.date(let a), .date(let b)), (.duration(let a), .duration(let b)): return apply(a, b)
        case (.bool(let a), .bool(let b)):
            switch op {
            case .equal: return a == b
            case .notEqual: return a != b
            default: return false
            }
        default:
            // Missing values (and pairs the checker rejects) never satisfy a comparison.
            return false
        }
    }

    /// Equality across int and double, as comparisons do; false for anything else that differs in kind.
    static func equal(_ left: EvalValue, _ right: EvalValue) -> Bool {
        switch (left, right) {
        case (.collection(let a, let aSet), .collection(let b, let bSet)): return aSet == bSet && a == b
        case (.record(let a), .record(let b)): return a == b
        default: return compare(.equal, left, right)
        }
    }
}
