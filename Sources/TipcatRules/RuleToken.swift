/// One token of the rule language.
struct RuleToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case appParameter  // `$name`; text is the name
        case event  // `#id`; text is the id
        case identifier  // bare name or keyword; text is the name
        case integer  // text is the digits
        case decimal  // text is the digits with the point
        case duration  // text is the number, `unit` its unit letter
        case string  // text is the decoded value
        case andAnd, orOr, bang
        case equalEqual, notEqual, less, lessEqual, greater, greaterEqual
        case plus, minus, dot, leftParen, rightParen, comma, colon
        case end
    }

    var kind: Kind
    var range: Range<Int>
    var text: String = ""
    var unit: UInt8 = 0

    var comparisonOperator: RuleComparisonOperator? {
        switch kind {
        case .equalEqual: .equal
        case .notEqual: .notEqual
        case .less: .less
        case .lessEqual: .lessOrEqual
        case .greater: .greater
        case .greaterEqual: .greaterOrEqual
        default: nil
        }
    }
}
