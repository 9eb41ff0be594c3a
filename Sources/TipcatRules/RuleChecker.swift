import TipcatCore

/// Parses and type-checks rules against the catalog's declarations.
public enum RuleChecker {
    /// Parses `text` and checks it in `environment`. The rule is nil when there is any error;
    /// warnings (`always-true`, `always-false`) come with a rule.
    public static func check(_ text: String, in environment: RuleEnvironment) -> (rule: CheckedRule?, diagnostics: [RuleDiagnostic]) {
        let bytes = Array(text.utf8)
        let parsed = RuleParser.parse(bytes: bytes)
        guard let expression = parsed.expression else { return (nil, parsed.diagnostics) }
        var checker = RuleCheckerState(bytes: bytes, environment: environment)
        let checked = checker.checkRule(expression)
        let diagnostics = parsed.diagnostics + checker.diagnostics
        guard !diagnostics.hasErrors else { return (nil, diagnostics) }
        let rule = CheckedRule(
            source: text, expression: checked,
            referencedAppParameters: checker.appParameters, referencedEvents: checker.events,
            referencedTipParameters: checker.tipParameters, referencedTips: checker.tips)
        return (rule, diagnostics)
    }
}

/// The checker's working state: the declarations, findings so far and what the rule refers to.
///
/// `check` returns the node rewritten with its type; a nil type means an error was already reported for it,
/// so enclosing nodes stay quiet instead of piling up follow-on errors.
struct RuleCheckerState {
    /// Whose fields bare names may mean: the event of the innermost `where`.
    struct Scope {
        var event: String?
    }

    let bytes: [UInt8]
    let environment: RuleEnvironment
    var diagnostics: [RuleDiagnostic] = []
    var appParameters: Set<String> = []
    var events: Set<String> = []
    var tipParameters: Set<String> = []
    var tips: Set<String> = []
    /// The node being checked is the whole rule (for "this rule is always …" versus "this condition …").
    var wholeRuleRange: Range<Int> = 0..<0

    init(bytes: [UInt8], environment: RuleEnvironment) {
        self.bytes = bytes
        self.environment = environment
    }

    /// Adds a finding of `rule` at the rule's severity.
    mutating func report(_ rule: DiagnosticRule, _ message: String, _ range: Range<Int>) {
        diagnostics.append(RuleDiagnostic(message, rule: rule, range: range))
    }

    func source(_ expression: RuleExpression) -> String {
        RuleText.snippet(expression.range, in: bytes)
    }

    /// `#opened-map.count`, or just `.count` when the expression is too long to repeat in a message.
    func countExample(_ expression: RuleExpression) -> String {
        let text = source(expression)
        return text.hasSuffix("…") ? ".count" : text + ".count"
    }

    // MARK: Rule

    mutating func checkRule(_ expression: RuleExpression) -> RuleExpression {
        wholeRuleRange = expression.range
        let checked = check(expression, in: Scope())
        switch checked {
        case .bool(let value, let info):
            let rule: DiagnosticRule = value ? .alwaysTrue : .alwaysFalse
            report(rule, "this rule is always \(value)", info.range)
        default:
            break
        }
        if let type = checked.type, type != .bool {
            var message = "rule must be a condition (bool), but this is \(type.withArticle)"
            if case .donations = type {
                message += "; compare its count, as in '\(countExample(checked)) >= 1'"
            } else if type == .optional(.bool) {
                message += "; compare it, as in '\(source(checked)) == true' (false when it is nil)"
            }
            report(.typeMismatch, message, checked.range)
        }
        return checked
    }

    // MARK: Expressions

    mutating func check(_ expression: RuleExpression, in scope: Scope) -> RuleExpression {
        switch expression {
        case .bool: return expression.with(type: .bool)
        case .int: return expression.with(type: .int)
        case .double: return expression.with(type: .double)
        case .string: return expression.with(type: .string)
        case .nil: return expression.with(type: .nilLiteral)
        case .duration: return expression.with(type: .duration)
        case .now: return expression.with(type: .date)
        case .window(_, let info):
            report(.typeMismatch, "a calendar window such as '.day' can only be the argument of 'within'", info.range)
            return expression.with(type: nil)
        case .symbol(let name, let info):
            report(.typeMismatch, "'.\(name)' can only be an argument: a calendar window of 'within' (.minute, .hour, .day, .week) "
                   + "or an invalidation reason of 'tip(…).invalidated' (\(RuleCheckerState.reasonNames))", info.range)
            return expression.with(type: nil)
        case .appParameter(let name, let info):
            return checkAppParameter(name, info)
        case .event(let id, let info):
            guard environment.events[id] != nil else {
                let suggestion = RuleSuggestions.didYouMean("#" + id, in: environment.events.keys.map { "#" + $0 })
                diagnostics.append(.unknownEvent(id, suggestion: suggestion, at: info.range))
                return expression.with(type: nil)
            }
            events.insert(id)
            return expression.with(type: .donations(event: id))
        case .tip(let id, let idRange, _):
            guard environment.tipIDs.contains(id) else {
                let suggestion = RuleSuggestions.didYouMean(id, in: environment.tipIDs)
                diagnostics.append(.unknownTip(id, suggestion: suggestion, at: idRange))
                return expression.with(type: nil)
            }
            tips.insert(id)
            return expression.with(type: .tip)
        case .name(let name, let info):
            return resolveName(name, info, in: scope)
        case .tipParameter(let name, let info):
            guard let type = environment.tipParameters[name] else { return resolveName(name, info, in: scope) }
            tipParameters.insert(name)
            return expression.with(type: RuleType(type))
        case .eventField(let name, let event, let info):
            guard let type = environment.events[event]?[name] else { return resolveName(name, info, in: scope) }
            return expression.with(type: RuleType(type))
        case .not(let operand, let info):
            let checked = check(operand, in: scope)
            requireCondition(checked, "'!' needs a condition (bool)")
            return .not(checked, RuleNodeInfo(info.range, type: .bool))
        case .and(let operands, let info):
            let checked = operands.map { check($0, in: scope) }
            for operand in checked { requireCondition(operand, "'&&' needs conditions (bool) on both sides") }
            return .and(checked, RuleNodeInfo(info.range, type: .bool))
        case .or(let operands, let info):
            let checked = operands.map { check($0, in: scope) }
            for operand in checked { requireCondition(operand, "'||' needs conditions (bool) on both sides") }
            return .or(checked, RuleNodeInfo(info.range, type: .bool))
        case .comparison(let op, let lhs, let rhs, let info):
            return checkComparison(op, check(lhs, in: scope), check(rhs, in: scope), info)
        case .arithmetic(let op, let lhs, let rhs, let info):
            return checkArithmetic(op, check(lhs, in: scope), check(rhs, in: scope), info)
        case .member(let base, let member, let info):
            return checkMember(check(base, in: scope), member, info, in: scope)
        }
    }

    /// Reports `operand` unless it is a bool (or already in error).
    mutating func requireCondition(_ operand: RuleExpression, _ what: String) {
        guard let type = operand.type, type != .bool else { return }
        var message = "\(what), but this is \(type.withArticle)"
        if type == .optional(.bool) {
            message += "; compare it, as in '\(source(operand)) == true' (false when it is nil)"
        }
        report(.typeMismatch, message, operand.range)
    }

    mutating func checkAppParameter(_ name: String, _ info: RuleNodeInfo) -> RuleExpression {
        guard let type = environment.appParameters[name] else {
            var suggestion = RuleSuggestions.didYouMean("$" + name, in: environment.appParameters.keys.map { "$" + $0 })
            if suggestion.isEmpty, environment.tipParameters[name] != nil {
                suggestion = "; '\(name)' is a parameter of this tip: write it without '$'"
            }
            diagnostics.append(.unknownParameter(name, suggestion: suggestion, at: info.range))
            return .appParameter(name, RuleNodeInfo(info.range))
        }
        appParameters.insert(name)
        return .appParameter(name, RuleNodeInfo(info.range, type: RuleType(type)))
    }

    /// A bare name: inside `where`, a field of the event (first) or a tip parameter; elsewhere a tip parameter.
    mutating func resolveName(_ name: String, _ info: RuleNodeInfo, in scope: Scope) -> RuleExpression {
        let parameter = environment.tipParameters[name]
        if let event = scope.event, let field = environment.events[event]?[name] {
            if parameter != nil {
                diagnostics.append(.ambiguousName(name, event: event, at: info.range))
                return .name(name, RuleNodeInfo(info.range))
            }
            return .eventField(name, event: event, RuleNodeInfo(info.range, type: RuleType(field)))
        }
        if let parameter {
            tipParameters.insert(name)
            return .tipParameter(name, RuleNodeInfo(info.range, type: RuleType(parameter)))
        }
        let fields = scope.event.flatMap { environment.events[$0] }.map { Array($0.keys) } ?? []
        let local = fields + Array(environment.tipParameters.keys) + ["true", "false", "now", "nil"]
        var suggestion = RuleSuggestions.didYouMean(name, in: local)
        if suggestion.isEmpty, environment.appParameters[name] != nil {
            suggestion = "; did you mean '$\(name)'?"
        } else if suggestion.isEmpty, environment.events[name] != nil {
            suggestion = "; did you mean '#\(name)'?"
        } else if suggestion.isEmpty, scope.event == nil,
                  let owner = environment.events.keys.sorted().first(where: { environment.events[$0]?[name] != nil }) {
            suggestion = "; '\(name)' is a field of #\(owner): use it inside #\(owner).where(…)"
        }
        if suggestion.isEmpty {
            suggestion = RuleSuggestions.didYouMean("$" + name, in: environment.appParameters.keys.map { "$" + $0 })
        }
        if suggestion.isEmpty {
            suggestion = RuleSuggestions.didYouMean("#" + name, in: environment.events.keys.map { "#" + $0 })
        }
        if let event = scope.event {
            report(.unknownField, "unknown field '\(name)' of #\(event)\(suggestion)", info.range)
        } else {
            diagnostics.append(.unknownName(name, suggestion: suggestion, at: info.range))
        }
        return .name(name, RuleNodeInfo(info.range))
    }

    /// `date + duration` and `date - duration`.
    mutating func checkArithmetic(
        _ op: RuleArithmeticOperator, _ lhs: RuleExpression, _ rhs: RuleExpression, _ info: RuleNodeInfo
    ) -> RuleExpression {
        var type: RuleType?
        if let left = lhs.type, let right = rhs.type {
            if left == .date, right == .duration {
                type = .date
            } else if left == .duration, right == .date, op == .plus {
                report(.typeMismatch, "'+' needs the date first, as in '\(source(rhs)) + \(source(lhs))'", info.range)
            } else {
                var message = "'\(op.rawValue)' only adds a duration to a date or subtracts it (as in now - 3d), but this is \(left) \(op.rawValue) \(right)"
                if left == .date, case .int(let value, _) = rhs {
                    message += "; did you mean '\(value)d'?"
                }
                report(.typeMismatch, message, info.range)
            }
        }
        return .arithmetic(op, lhs, rhs, RuleNodeInfo(info.range, type: type))
    }
}
