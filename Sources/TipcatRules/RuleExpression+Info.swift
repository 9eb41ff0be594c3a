extension RuleExpression {
    /// Position and type of this node.
    public var info: RuleNodeInfo {
        switch self {
        case .bool(_, let info), .int(_, let info), .double(_, let info), .string(_, let info),
             .duration(_, let info), .window(_, let info), .symbol(_, let info), .now(let info), .nil(let info), .appParameter(_, let info),
             .event(_, let info), .tip(_, _, let info), .name(_, let info), .tipParameter(_, let info),
             .eventField(_, _, let info), .not(_, let info), .and(_, let info), .or(_, let info),
             .comparison(_, _, _, let info), .arithmetic(_, _, _, let info), .member(_, _, let info):
            info
        }
    }

    /// UTF-8 byte offsets of this node in the rule text.
    public var range: Range<Int> { info.range }

    /// The node's type once checked; nil in the parser's output.
    public var type: RuleType? { info.type }

    /// Whether the node is a literal (a constant written in the rule).
    public var isLiteral: Bool {
        switch self {
        case .bool, .int, .double, .string, .duration, .nil: true
        default: false
        }
    }
}
