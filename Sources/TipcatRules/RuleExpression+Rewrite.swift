extension RuleExpression {
    /// The same node with `info` replaced (children unchanged).
    func with(_ info: RuleNodeInfo) -> RuleExpression {
        switch self {
        case .bool(let value, _): .bool(value, info)
        case .int(let value, _): .int(value, info)
        case .double(let value, _): .double(value, info)
        case .string(let value, _): .string(value, info)
        case .duration(let value, _): .duration(value, info)
        case .window(let value, _): .window(value, info)
        case .symbol(let name, _): .symbol(name, info)
        case .now: .now(info)
        case .nil: .nil(info)
        case .appParameter(let name, _): .appParameter(name, info)
        case .event(let id, _): .event(id, info)
        case .tip(let id, let idRange, _): .tip(id, idRange: idRange, info)
        case .name(let name, _): .name(name, info)
        case .tipParameter(let name, _): .tipParameter(name, info)
        case .eventField(let name, let event, _): .eventField(name, event: event, info)
        case .not(let operand, _): .not(operand, info)
        case .and(let operands, _): .and(operands, info)
        case .or(let operands, _): .or(operands, info)
        case .comparison(let op, let lhs, let rhs, _): .comparison(op, lhs, rhs, info)
        case .arithmetic(let op, let lhs, let rhs, _): .arithmetic(op, lhs, rhs, info)
        case .member(let base, let member, _): .member(base, member, info)
        }
    }

    /// The same node spanning `range`.
    func with(range: Range<Int>) -> RuleExpression {
        with(RuleNodeInfo(range, type: type))
    }

    /// The same node with its type recorded.
    func with(type: RuleType?) -> RuleExpression {
        with(RuleNodeInfo(range, type: type))
    }
}
