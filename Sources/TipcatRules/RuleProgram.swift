public import TipcatCore

/// A checked rule compiled for repeated evaluation: flat arrays of plain values instead of the expression
/// tree, names replaced by numbers, so evaluating it walks no tree, looks up no names and copies almost no
/// reference-counted values (which dominate the cost of the tree evaluator when a thousand rules are decided
/// at once).
///
/// Only the common shapes compile: `and`, `or`, `!`; comparisons of literals, scalar app parameters
/// (bool, int, double, date), `now` (± a duration), other tips' states and display counts, and `.count` or
/// `.lastDonated` of a donation chain — `#event` followed by `within`, `where(field op literal)`,
/// `largestSubset` and `smallestSubset`; and bare bool parameters and tip states. `init` returns nil for any
/// other rule, which `RuleEvaluator` then evaluates. A program answers exactly as `RuleEvaluator.outcome`:
/// the same verdict and the same `validBefore`.
public struct RuleProgram: Sendable {
    /// A constant operand. Plain values only (strings are numbers into `Table.strings`), so the arrays of a
    /// table copy out their elements without reference counting.
    enum Scalar: Sendable {
        case int(Int), double(Double), bool(Bool), string(Int), date(Double), duration(Double)

        func value(_ strings: [String]) -> EvalValue {
            switch self {
            case .int(let value): .int(value)
            case .double(let value): .double(value)
            case .bool(let value): .bool(value)
            case .string(let index): .string(strings[index])
            case .date(let value): .date(value)
            case .duration(let value): .duration(value)
            }
        }
    }

    enum Operand: Sendable {
        case constant(Scalar)
        /// An app parameter, by slot.
        case parameter(Int)
        /// `now`, plus a (possibly negative) number of seconds.
        case now(offset: Double)
        /// `.count` of a chain.
        case count(Int)
        /// `.lastDonated` of a chain.
        case lastDonated(Int)
        /// `tip(ID).invalidated` / `.available` / `.pending`, by tip slot.
        case tipStatus(Int, RuleTipState.Status)
        /// `tip(X).invalidated(.reason)`.
        case tipInvalidated(Int, RuleInvalidationReason)
        /// `tip(ID).displayCount`, by tip slot.
        case tipDisplayCount(Int)
    }

    struct Comparison: Sendable {
        let op: RuleComparisonOperator
        let left: Operand
        let right: Operand
        let shape: RuleEvaluation.ShrinkShape
    }

    enum Node: Sendable {
        /// Operands are `children[range]` (node numbers).
        case and(Range<Int>)
        case or(Range<Int>)
        case not(Int)
        case comparison(Int)
        /// A bare condition: true when the operand is the bool `true`.
        case test(Operand)
    }

    /// `#event` then `steps[range]`.
    struct Chain: Sendable {
        let event: Int
        let steps: Range<Int>
    }

    enum Step: Sendable {
        case within(Double)
        /// `where(field op constant)` (`constant op field` when the field is on the right).
        case keep(field: Int, op: RuleComparisonOperator, constant: Scalar, fieldOnLeft: Bool)
        case subset(field: Int, largest: Bool)
    }

    /// The compiled rules of a batch (a tip, a chunk of a catalog), side by side in one immutable object:
    /// evaluating a batch's rules one after another reads memory in order, and a program is one reference
    /// to copy.
    final class Table: Sendable {
        let nodes: [Node]
        let children: [Int]
        let comparisons: [Comparison]
        let chains: [Chain]
        let steps: [Step]
        let strings: [String]

        init(_ builder: Builder) {
            nodes = builder.nodes
            children = builder.children
            comparisons = builder.comparisons
            chains = builder.chains
            steps = builder.steps
            strings = builder.strings
        }
    }

    let table: Table
    /// The node of the whole rule.
    let root: Int

    /// Compiles `rule` on its own, or returns nil when it has a shape programs do not cover (see `Builder`).
    public init?(_ rule: CheckedRule, events: [String: (slot: Int, fields: [String])], parameters: [String: Int], tips: [String: Int]) {
        var builder = Builder()
        guard let root = builder.add(rule, events: events, parameters: parameters, tips: tips) else { return nil }
        self = builder.programs([root])[0]
    }

    init(table: Table, root: Int) {
        self.table = table
        self.root = root
    }

    /// Compiles many rules into one table.
    public struct Builder: Sendable {
        var nodes: [Node] = []
        var children: [Int] = []
        var comparisons: [Comparison] = []
        var chains: [Chain] = []
        var steps: [Step] = []
        var strings: [String] = []

        public init() {}

        /// Compiles `rule` and returns its root for `programs`, or nil when it has a shape programs do not
        /// cover (nothing of it is kept).
        ///
        /// - Parameters:
        ///   - events: the slot of each event (its log's position in `Inputs.logs`) and its field names, in
        ///     the order of the logs' columns.
        ///   - parameters: the slot of each app parameter in `Inputs.parameters`.
        ///   - tips: the slot of each tip named with `tip(ID)` in the states passed to `outcome`.
        public mutating func add(_ rule: CheckedRule, events: [String: (slot: Int, fields: [String])], parameters: [String: Int], tips: [String: Int]) -> Int? {
            // The compiler takes the arrays over (no copy), and gives them back with the rule added, or as
            // they were.
            let counts = (nodes.count, children.count, comparisons.count, chains.count, steps.count, strings.count)
            var compiler = Compiler(builder: Builder(), events: events, parameters: parameters, tips: tips)
            swap(&compiler.builder, &self)
            let root = compiler.condition(rule.expression)
            swap(&compiler.builder, &self)
            if root == nil {
                nodes.removeLast(nodes.count - counts.0)
                children.removeLast(children.count - counts.1)
                comparisons.removeLast(comparisons.count - counts.2)
                chains.removeLast(chains.count - counts.3)
                steps.removeLast(steps.count - counts.4)
                strings.removeLast(strings.count - counts.5)
            }
            return root
        }

        /// The programs of these roots, sharing one table.
        public func programs(_ roots: [Int]) -> [RuleProgram] {
            let table = Table(self)
            return roots.map { RuleProgram(table: table, root: $0) }
        }
    }

    /// What programs read: the time, the donation logs by event slot and the app parameters by slot. A class:
    /// one object shared by every program evaluated in a query.
    public final class Inputs: Sendable {
        public let now: Double
        let parameters: [Scalar?]
        /// Each event's visible donations at `now`, computed once for all the programs of a query.
        let visible: [(selection: DonationSelection, leavesAt: Double, arrivesAt: Double)]

        /// `logs[slot]` must have the event's fields in the order given to `init` (as the engine builds them);
        /// a nil log has no donations, a nil parameter no value.
        public init(now: Timestamp, logs: [DonationLog?], parameters: [Value?]) {
            self.now = now.secondsSince1970
            self.visible = logs.map { DonationSelection.visible("", in: $0, at: now.secondsSince1970) }
            self.parameters = parameters.map { value in
                switch value {
                case .int(let int)?: .int(int)
                case .double(let double)?: .double(double)
                case .bool(let bool)?: .bool(bool)
                case .date(let date)?: .date(date.secondsSince1970)
                default: nil
                }
            }
        }
    }

    /// Whether the rule holds and until when that answer stands, exactly as `RuleEvaluator.outcome`.
    ///
    /// - Parameter tips: the states of the tips the rule names, by the slots given to `init`.
    public func outcome(_ inputs: Inputs, tips: [RuleTipState]) -> RuleOutcome {
        tips.withUnsafeBufferPointer { tips in
            var run = Run(table: table, inputs: inputs, tips: tips)
            let holds = run.condition(root)
            return RuleOutcome(holds: holds, validBefore: run.validity.until(now: inputs.now))
        }
    }
}

/// Evaluators that share the comparison bookkeeping of `RuleValidity`.
protocol ValidityTracking {
    associatedtype Operand
    var validity: RuleValidity { get set }
    var now: Double { get }
    mutating func value(_ operand: Operand) -> EvalValue
}

extension ValidityTracking {
    /// Evaluates `lhs op rhs` and accounts for how long its answer stands.
    mutating func comparison(
        _ op: RuleComparisonOperator, _ lhs: Operand, _ rhs: Operand, shape: RuleEvaluation.ShrinkShape
    ) -> (holds: Bool, left: EvalValue, right: EvalValue) {
        let mark = validity.beginComparison()
        let left = value(lhs)
        let leftNow = validity.nowReads(since: mark)
        let right = value(rhs)
        let rightNow = validity.nowReads(since: mark) - leftNow
        let holds = RuleEvaluation.compare(op, left, right)
        validity.endComparison(mark, now: now, op, shape: shape, holds: holds, left: left, right: right,
                               leftNow: leftNow, rightNow: rightNow)
        return (holds, left, right)
    }
}

extension RuleProgram {
    /// One evaluation.
    ///
    /// It only lives inside `outcome`, which keeps the tip states alive.
    struct Run: ValidityTracking {
        let code: Table
        let inputs: Inputs
        let tips: UnsafeBufferPointer<RuleTipState>
        var validity = RuleValidity()
        let now: Double

        init(table: Table, inputs: Inputs, tips: UnsafeBufferPointer<RuleTipState>) {
            self.now = inputs.now
            self.code = table
            self.inputs = inputs
            self.tips = tips
        }

        mutating func condition(_ node: Int) -> Bool {
            switch code.nodes[node] {
            case .and(let range):
                for child in range where !condition(code.children[child]) { return false }
                return true
            case .or(let range):
                for child in range where condition(code.children[child]) { return true }
                return false
            case .not(let operand):
                return !condition(operand)
            case .comparison(let index):
                let comparison = code.comparisons[index]
                return self.comparison(comparison.op, comparison.left, comparison.right, shape: comparison.shape).holds
            case .test(let operand):
                return value(operand).isTrue
            }
        }

        mutating func value(_ operand: Operand) -> EvalValue {
            switch operand {
            case .constant(let scalar):
                return scalar.value(code.strings)
            case .parameter(let slot):
                guard slot < inputs.parameters.count, let scalar = inputs.parameters[slot] else { return .missing("") }
                return scalar.value(code.strings)
            case .now(let offset):
                validity.unhandledNow += 1
                return .date(offset == 0 ? now : now + offset)
            case .count(let chain):
                return .int(selection(code.chains[chain]).count)
            case .lastDonated(let chain):
                let selection = selection(code.chains[chain])
                guard let log = selection.log, let last = selection.last else { return .missing("") }
                return .date(log.times[last])
            case .tipStatus(let slot, let status):
                guard slot < tips.count else { return .missing("") }
                return .bool(tips[slot].status == status)
            case .tipInvalidated(let slot, let reason):
                guard slot < tips.count else { return .missing("") }
                return .bool(tips[slot].status == .invalidated && tips[slot].invalidationReasons.contains(reason))
            case .tipDisplayCount(let slot):
                guard slot < tips.count else { return .missing("") }
                return .int(tips[slot].displayCount)
            }
        }

        /// The donations a chain selects, with the validity effects of each step.
        mutating func selection(_ chain: Chain) -> DonationSelection {
            var selection = DonationSelection(event: "", log: nil, indices: .range(0..<0))
            if chain.event < inputs.visible.count {
                let visible = inputs.visible[chain.event]
                selection = visible.selection
                validity.leaves(at: visible.leavesAt)
                validity.changes(at: visible.arrivesAt)
            }
            for index in chain.steps {
                switch code.steps[index] {
                case .within(let span):
                    let (narrowed, leaves) = selection.within(span, now: now)
                    if let leaves { validity.leaves(at: leaves) }
                    selection = narrowed
                case .keep(let field, let op, let constant, let fieldOnLeft):
                    guard let log = selection.log, selection.count > 0 else {
                        selection = selection.with(.list([]))
                        continue
                    }
                    let table = DonationSelection.table(log.pools[field].values, op, constant.value(code.strings), fieldOnLeft: fieldOnLeft)
                    selection = selection.keeping(field: field, where: table)
                case .subset(let field, let largest):
                    guard selection.count > 0, let subset = selection.subset(field: field, largest: largest) else {
                        selection = selection.with(.list([]))
                        continue
                    }
                    selection = subset.selection
                }
            }
            return selection
        }
    }

    /// Appends a checked tree to a builder's arrays; every function returns nil for a shape programs do not
    /// cover.
    struct Compiler {
        var builder: Builder
        let events: [String: (slot: Int, fields: [String])]
        let parameters: [String: Int]
        let tips: [String: Int]

        mutating func add(_ node: Node) -> Int {
            builder.nodes.append(node)
            return builder.nodes.count - 1
        }

        /// A literal as a constant.
        mutating func scalar(_ expression: RuleExpression) -> Scalar? {
            switch expression {
            case .int(let value, _): return .int(value)
            case .double(let value, _): return .double(value)
            case .bool(let value, _): return .bool(value)
            case .duration(let span, _): return .duration(span.seconds)
            case .string(let value, _):
                builder.strings.append(value)
                return .string(builder.strings.count - 1)
            default: return nil
            }
        }

        mutating func condition(_ expression: RuleExpression) -> Int? {
            switch expression {
            case .and(let operands, _), .or(let operands, _):
                var compiled: [Int] = []
                for operand in operands {
                    guard let node = condition(operand) else { return nil }
                    compiled.append(node)
                }
                let range = builder.children.count..<(builder.children.count + compiled.count)
                builder.children += compiled
                if case .and = expression { return add(.and(range)) }
                return add(.or(range))
            case .not(let operand, _):
                return condition(operand).map { add(.not($0)) }
            case .comparison(let op, let lhs, let rhs, _):
                guard let left = operand(lhs), let right = operand(rhs) else { return nil }
                builder.comparisons.append(Comparison(op: op, left: left, right: right, shape: RuleEvaluation.shrinkShape(lhs, rhs)))
                return add(.comparison(builder.comparisons.count - 1))
            case .bool, .appParameter, .member:
                return operand(expression).map { add(.test($0)) }
            default:
                return nil
            }
        }

        mutating func operand(_ expression: RuleExpression) -> Operand? {
            switch expression {
            case .int, .double, .bool, .string, .duration:
                return scalar(expression).map(Operand.constant)
            case .now:
                return .now(offset: 0)
            case .arithmetic(let op, .now, .duration(let span, _), _):
                return .now(offset: op == .plus ? span.seconds : -span.seconds)
            case .appParameter(let name, let info):
                guard let slot = parameters[name] else { return nil }
                switch info.type {
                case .bool?, .int?, .double?, .date?: return .parameter(slot)
                default: return nil
                }
            case .member(let base, let member, _):
                switch member.kind {
                case .count?: return chain(base).map(Operand.count)
                case .lastDonated?: return chain(base).map(Operand.lastDonated)
                case .invalidated?, .available?, .pending?, .displayCount?:
                    guard case .tip(let id, _, _) = base, let slot = tips[id] else { return nil }
                    switch member.kind {
                    case .invalidated?:
                        if case .symbol(let name, _)? = member.arguments?.first?.value, let reason = RuleInvalidationReason(rawValue: name) {
                            return .tipInvalidated(slot, reason)
                        }
                        return .tipStatus(slot, .invalidated)
                    case .available?: return .tipStatus(slot, .available)
                    case .pending?: return .tipStatus(slot, .pending)
                    default: return .tipDisplayCount(slot)
                    }
                default:
                    return nil
                }
            default:
                return nil
            }
        }

        /// `#event` and its steps, innermost first.
        mutating func chain(_ expression: RuleExpression) -> Int? {
            var members: [RuleMember] = []
            var current = expression
            while case .member(let base, let member, _) = current {
                members.append(member)
                current = base
            }
            guard case .event(let id, _) = current, let event = events[id] else { return nil }
            var compiled: [Step] = []
            for member in members.reversed() {
                let argument = member.arguments?.first?.value
                switch member.kind {
                case .within?:
                    switch argument {
                    case .duration(let span, _)?: compiled.append(.within(span.seconds))
                    case .window(let window, _)?: compiled.append(.within(window.span.seconds))
                    default: return nil
                    }
                case .where?:
                    guard let predicate = argument,
                          let (op, literal, fieldOnLeft) = RuleEvaluation.literalComparison(predicate, of: id),
                          case .comparison(_, let lhs, let rhs, _) = predicate,
                          case .eventField(let name, _, _) = fieldOnLeft ? lhs : rhs,
                          let field = event.fields.firstIndex(of: name),
                          let constant = scalar(literal)
                    else { return nil }
                    compiled.append(.keep(field: field, op: op, constant: constant, fieldOnLeft: fieldOnLeft))
                case .largestSubset?, .smallestSubset?:
                    guard case .eventField(let name, _, _)? = argument, let field = event.fields.firstIndex(of: name) else { return nil }
                    compiled.append(.subset(field: field, largest: member.kind == .largestSubset))
                default:
                    return nil
                }
            }
            let range = builder.steps.count..<(builder.steps.count + compiled.count)
            builder.steps += compiled
            builder.chains.append(Chain(event: event.slot, steps: range))
            return builder.chains.count - 1
        }
    }
}
