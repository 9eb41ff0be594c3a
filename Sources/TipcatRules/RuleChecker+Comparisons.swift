import TipcatCore
extension RuleCheckerState {
    /// Checks `lhs op rhs`: compatible types, counts against whole numbers, and statically known results.
    mutating func checkComparison(
        _ op: RuleComparisonOperator, _ lhs: RuleExpression, _ rhs: RuleExpression, _ info: RuleNodeInfo
    ) -> RuleExpression {
        let result = RuleExpression.comparison(op, lhs, rhs, RuleNodeInfo(info.range, type: .bool))
        guard let left = lhs.type, let right = rhs.type else { return result }
        // The side the message talks about: the one that is not a constant, preferably the left.
        let (subject, other) = lhs.isLiteral && !rhs.isLiteral ? (rhs, lhs) : (lhs, rhs)
        guard RuleCheckerState.comparable(left, right, op) else {
            reportIncomparable(op, subject, other, info.range)
            return result
        }
        let what = info.range == wholeRuleRange ? "rule" : "condition"
        // An int compared with a decimal literal is widened to a double; only equality can never hold.
        if let subjectType = subject.type, subjectType == .int, case .double(let value, _) = other,
           value != value.rounded(), op == .equal || op == .notEqual {
            report(op == .notEqual ? .alwaysTrue : .alwaysFalse,
                   "this \(what) is always \(op == .notEqual): \(name(of: subject)) is an int and never equals \(source(other))",
                   info.range)
            return result
        }
        if let outcome = staticOutcome(op, lhs, rhs) {
            report(outcome.value ? .alwaysTrue : .alwaysFalse,
                    "this \(what) is always \(outcome.value): \(outcome.reason)", info.range)
        } else if let (event, limit) = unreachableDonationCount(op, lhs, rhs) {
            let declared = limit.isDeclared
            var finding = RuleDiagnostic(
                "this \(what) is always false: #\(event) keeps at most \(limit.maxCount) donations"
                    + (declared ? " (its donationLimit.maxCount)" : " (the default donation limit; set donationLimit.maxCount in events.json to keep more)"),
                rule: .alwaysFalse, range: info.range)
            finding.notes = [Diagnostic.Note(
                declared ? "#\(event) keeps at most \(limit.maxCount) donations here" : "#\(event) is declared here, without a donation limit",
                at: limit.location)]
            diagnostics.append(finding)
        }
        return result
    }

    /// The event and its limit when `lhs op rhs` needs more of the event's donations than it keeps: a count of
    /// `#event` (filtered or not) compared with a constant above the limit, as `>=`, `>` or `==`.
    func unreachableDonationCount(
        _ op: RuleComparisonOperator, _ lhs: RuleExpression, _ rhs: RuleExpression
    ) -> (String, DonationCountLimit)? {
        let (count, constant, normalized) = RuleCheckerState.isCount(lhs) ? (lhs, rhs, op) : (rhs, lhs, op.mirrored)
        guard case .member(let base, let member, _) = count, member.kind == .count,
              case .donations(let event)? = base.type, let bound = RuleCheckerState.numericValue(constant)
        else { return nil }
        let limit = environment.donationLimits[event] ?? DonationCountLimit(maxCount: DonationLog.defaultMaxCount, isDeclared: false)
        let maximum = Double(limit.maxCount)
        switch normalized {
        case .greaterOrEqual where bound > maximum, .greater where bound >= maximum, .equal where bound > maximum:
            return (event, limit)
        default:
            return nil
        }
    }

    /// Whether values of these types can be compared with `op`. `nil` compares with optionals by `==` and `!=`;
    /// an optional compares as its wrapped type (with `nil` when absent, see `RuleEvaluator`).
    static func comparable(_ left: RuleType, _ right: RuleType, _ op: RuleComparisonOperator) -> Bool {
        switch (left, right) {
        case (.nilLiteral, .optional), (.optional, .nilLiteral), (.nilLiteral, .nilLiteral): return !op.isOrdering
        case (.nilLiteral, _), (_, .nilLiteral): return false
        case (.optional, _), (_, .optional): return comparable(left.wrapped, right.wrapped, op)
        default: break
        }
        if left.isNumeric, right.isNumeric { return true }
        guard left == right else { return false }
        switch left {
        case .string, .date, .duration: return true
        case .bool: return !op.isOrdering
        default: return false
        }
    }

    /// `'$isLoggedIn'`, `'count'` (a member by its name), or the source of other expressions, quoted.
    func name(of expression: RuleExpression) -> String {
        if case .member(_, let member, _) = expression, member.kind != .field, member.arguments == nil {
            return "'\(member.name)'"
        }
        return "'\(source(expression))'"
    }

    mutating func reportIncomparable(
        _ op: RuleComparisonOperator, _ subject: RuleExpression, _ other: RuleExpression, _ range: Range<Int>
    ) {
        guard let type = subject.type, let otherType = other.type else { return }
        let otherText = other.isLiteral ? source(other) : "\(name(of: other)) (\(otherType.withArticle))"
        var message: String
        if otherType == .nilLiteral || type == .nilLiteral {
            let (value, valueType) = type == .nilLiteral ? (other, otherType) : (subject, type)
            if case .optional = valueType {
                message = "nil can only be compared with '==' or '!=': \(name(of: value)) is \(valueType), "
                    + "and '\(op.rawValue)' with nil is never true"
            } else if valueType == .nilLiteral {
                message = "nil can only be compared with '==' or '!='"
            } else {
                message = "\(name(of: value)) is \(valueType), which always has a value: only optional values "
                    + "(declared with a trailing '?', as \"string?\") can be compared with nil"
            }
            report(.typeMismatch, message, range)
            return
        } else if type == .bool, otherType == .bool {
            message = "\(name(of: subject)) is bool; it can only be compared with '==' or '!='"
        } else {
            message = "\(name(of: subject)) is \(type); it cannot be compared with \(otherText) using '\(op.rawValue)'"
            switch type {
            case .donations:
                message += "; did you mean '\(countExample(subject))'?"
            case .list, .set:
                message += "; compare its .count, or use .contains(…) or .isEmpty"
            case .tip:
                message += "; compare one of its members: .invalidated, .available, .pending or .displayCount"
            default:
                break
            }
        }
        report(.typeMismatch, message, range)
    }

    /// The result of a comparison known without running it, and why.
    func staticOutcome(
        _ op: RuleComparisonOperator, _ lhs: RuleExpression, _ rhs: RuleExpression
    ) -> (value: Bool, reason: String)? {
        if let value = RuleCheckerState.compareConstants(op, lhs, rhs) {
            return (value, "it compares two constants")
        }
        // A count against a constant: counts are never negative.
        let (count, constant, normalized) = RuleCheckerState.isCount(lhs) ? (lhs, rhs, op) : (rhs, lhs, op.mirrored)
        guard RuleCheckerState.isCount(count), let bound = RuleCheckerState.numericValue(constant) else { return nil }
        let value: Bool
        switch normalized {
        case .less where bound <= 0: value = false
        case .lessOrEqual where bound < 0: value = false
        case .equal where bound < 0: value = false
        case .greaterOrEqual where bound <= 0: value = true
        case .greater where bound < 0: value = true
        case .notEqual where bound < 0: value = true
        default: return nil
        }
        return (value, "a count is never negative")
    }

    /// `.count` (of donations, collections or strings) and `.displayCount`: ints that are never negative.
    static func isCount(_ expression: RuleExpression) -> Bool {
        guard case .member(_, let member, _) = expression else { return false }
        return member.kind == .count || member.kind == .displayCount
    }

    static func numericValue(_ expression: RuleExpression) -> Double? {
        switch expression {
        case .int(let value, _): Double(value)
        case .double(let value, _): value
        default: nil
        }
    }

    /// The result of comparing two literals, if both are literals of comparable types.
    static func compareConstants(_ op: RuleComparisonOperator, _ lhs: RuleExpression, _ rhs: RuleExpression) -> Bool? {
        func apply<T: Comparable>(_ a: T, _ b: T) -> Bool { op.holds(a, b) }
        switch (lhs, rhs) {
        case (.string(let a, _), .string(let b, _)): return apply(a, b)
        case (.nil, .nil): return op == .equal ? true : (op == .notEqual ? false : nil)
        case (.duration(let a, _), .duration(let b, _)): return apply(a, b)
        case (.bool(let a, _), .bool(let b, _)):
            return op == .equal ? a == b : (op == .notEqual ? a != b : nil)
        default:
            // Compare ints exactly; mixed int/double as doubles.
            if case .int(let a, _) = lhs, case .int(let b, _) = rhs { return apply(a, b) }
            guard let a = numericValue(lhs), let b = numericValue(rhs) else { return nil }
            return apply(a, b)
        }
    }
}
