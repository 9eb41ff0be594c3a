import TipcatCore

/// Parses rule text into a `RuleExpression` (syntax only; names are not looked up).
public enum RuleParser {
    /// The deepest nesting a rule may have (parentheses, `!`, arguments, member and operator chains).
    public static let maximumDepth = 256

    /// Parses one rule. The expression is nil when there is any error; every diagnostic has rule id `rule-syntax`.
    public static func parse(_ text: String) -> (expression: RuleExpression?, diagnostics: [RuleDiagnostic]) {
        parse(bytes: Array(text.utf8))
    }

    static func parse(bytes: [UInt8]) -> (expression: RuleExpression?, diagnostics: [RuleDiagnostic]) {
        let lexed = RuleLexer.tokenize(bytes)
        var parser = RuleParserState(bytes: bytes, tokens: lexed.tokens)
        let expression = parser.parseRule()
        // When the lexer dropped input (an unknown character), parse errors after it are mostly echoes of it.
        var diagnostics = lexed.diagnostics
        diagnostics += parser.diagnostics.filter { diagnostic in
            lexed.firstDrop.map { diagnostic.range.lowerBound < $0 } ?? true
        }
        diagnostics.sort { $0.range.lowerBound < $1.range.lowerBound }
        if diagnostics.isEmpty, expression == nil {
            // Cannot happen (the parser reports every failure); keep the contract anyway.
            diagnostics.append(RuleDiagnostic("rule could not be parsed", rule: .ruleSyntax, range: 0..<bytes.count))
        }
        return (diagnostics.hasErrors ? nil : expression, diagnostics)
    }
}

/// Recursive-descent parser over the token array. The first hard error aborts (by throwing `Abort`);
/// chained comparisons are reported and skipped so later errors are still found.
struct RuleParserState {
    struct Abort: Error {}

    /// A parsed subtree and its height, so deep operator or member chains are caught too.
    struct Node {
        var expression: RuleExpression
        var depth: Int
    }

    let bytes: [UInt8]
    let tokens: [RuleToken]
    var position = 0
    var level = 0
    var diagnostics: [RuleDiagnostic] = []

    init(bytes: [UInt8], tokens: [RuleToken]) {
        self.bytes = bytes
        self.tokens = tokens
    }

    // MARK: Token access

    var current: RuleToken { tokens[min(position, tokens.count - 1)] }

    var next: RuleToken { tokens[min(position + 1, tokens.count - 1)] }

    @discardableResult
    mutating func advance() -> RuleToken {
        let token = current
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    mutating func report(_ message: String, _ range: Range<Int>) {
        diagnostics.append(RuleDiagnostic(message, rule: .ruleSyntax, range: range))
    }

    mutating func abort(_ message: String, _ range: Range<Int>) -> Abort {
        report(message, range)
        return Abort()
    }

    /// `'&&'`, `'$name'`, or `end of rule`.
    func describe(_ token: RuleToken) -> String {
        token.kind == .end ? "end of rule" : "'\(RuleText.snippet(token.range, in: bytes, limit: 24))'"
    }

    func column(_ token: RuleToken) -> Int {
        RuleText.column(of: token.range.lowerBound, in: bytes)
    }

    /// A hint for words people write for operators: `and`, `or`, `not`.
    func operatorWordHint(_ token: RuleToken) -> String? {
        guard token.kind == .identifier else { return nil }
        switch token.text {
        case "and", "AND": return " — did you mean '&&'?"
        case "or", "OR": return " — did you mean '||'?"
        case "not", "NOT": return " — did you mean '!'?"
        default: return nil
        }
    }

    // MARK: Nesting

    mutating func enter() throws(Abort) {
        level += 1
        if level > RuleParser.maximumDepth {
            throw abort("rule is nested too deeply (more than \(RuleParser.maximumDepth) levels)", current.range)
        }
    }

    mutating func node(_ expression: RuleExpression, depth: Int) throws(Abort) -> Node {
        if depth > RuleParser.maximumDepth {
            throw abort("rule is nested too deeply (more than \(RuleParser.maximumDepth) levels)", expression.range)
        }
        return Node(expression: expression, depth: depth)
    }

    // MARK: Grammar

    /// `rule := or EOF`
    mutating func parseRule() -> RuleExpression? {
        if current.kind == .end {
            report(bytes.isEmpty ? "rule is empty" : "rule is blank", 0..<bytes.count)
            return nil
        }
        do {
            let parsed = try parseOr()
            if current.kind != .end {
                throw unexpectedAfterExpression()
            }
            return parsed.expression
        } catch {
            return nil
        }
    }

    mutating func unexpectedAfterExpression() -> Abort {
        let token = current
        let message: String
        if let hint = operatorWordHint(token) {
            message = "unexpected '\(token.text)'\(hint)"
        } else {
            switch token.kind {
            case .rightParen: message = "unexpected ')' — there is no '(' to close"
            case .colon: message = "unexpected ':' — a label such as 'groupedBy:' may only start an argument"
            case .leftParen: message = "unexpected '(' — only members such as '.within(5d)' take arguments"
            default: message = "unexpected \(describe(token)); expected an operator such as '&&', '||' or '=='"
            }
        }
        return abort(message, token.range)
    }

    /// `or := and ( "||" and )*`
    mutating func parseOr() throws(Abort) -> Node {
        try enter()
        defer { level -= 1 }
        let first = try parseAnd()
        guard current.kind == .orOr else { return first }
        var operands = [first.expression]
        var depth = first.depth
        while current.kind == .orOr {
            advance()
            let operand = try parseAnd()
            operands.append(operand.expression)
            depth = max(depth, operand.depth)
        }
        let range = first.expression.range.lowerBound..<operands[operands.count - 1].range.upperBound
        return try node(.or(operands, RuleNodeInfo(range)), depth: depth + 1)
    }

    /// `and := not ( "&&" not )*`
    mutating func parseAnd() throws(Abort) -> Node {
        let first = try parseNot()
        guard current.kind == .andAnd else { return first }
        var operands = [first.expression]
        var depth = first.depth
        while current.kind == .andAnd {
            advance()
            let operand = try parseNot()
            operands.append(operand.expression)
            depth = max(depth, operand.depth)
        }
        let range = first.expression.range.lowerBound..<operands[operands.count - 1].range.upperBound
        return try node(.and(operands, RuleNodeInfo(range)), depth: depth + 1)
    }

    /// `not := "!" not | comparison`
    mutating func parseNot() throws(Abort) -> Node {
        guard current.kind == .bang else { return try parseComparison() }
        let bang = advance()
        try enter()
        defer { level -= 1 }
        let operand = try parseNot()
        let range = bang.range.lowerBound..<operand.expression.range.upperBound
        return try node(.not(operand.expression, RuleNodeInfo(range)), depth: operand.depth + 1)
    }

    /// `comparison := additive ( op additive )?` — a second operator is reported, not chained.
    mutating func parseComparison() throws(Abort) -> Node {
        let lhs = try parseAdditive()
        guard let op = current.comparisonOperator else { return lhs }
        advance()
        let rhs = try parseAdditive()
        while current.comparisonOperator != nil {
            report("comparison operators cannot be chained; combine two comparisons with '&&'", current.range)
            advance()
            _ = try parseAdditive()
        }
        let range = lhs.expression.range.lowerBound..<rhs.expression.range.upperBound
        return try node(
            .comparison(op, lhs.expression, rhs.expression, RuleNodeInfo(range)),
            depth: max(lhs.depth, rhs.depth) + 1)
    }

    /// `additive := postfix ( ("+"|"-") postfix )*`
    mutating func parseAdditive() throws(Abort) -> Node {
        var result = try parsePostfix()
        while current.kind == .plus || current.kind == .minus {
            let op: RuleArithmeticOperator = advance().kind == .plus ? .plus : .minus
            let rhs = try parsePostfix()
            let range = result.expression.range.lowerBound..<rhs.expression.range.upperBound
            result = try node(
                .arithmetic(op, result.expression, rhs.expression, RuleNodeInfo(range)),
                depth: max(result.depth, rhs.depth) + 1)
        }
        return result
    }

    /// `postfix := primary ( "." member )*`, `member := IDENT [ "(" args ")" ]`
    mutating func parsePostfix() throws(Abort) -> Node {
        var result = try parsePrimary()
        while current.kind == .dot {
            let dot = advance()
            guard current.kind == .identifier else {
                let found = current.kind == .end ? "" : ", found \(describe(current))"
                throw abort("expected a member name after '.'\(found)", current.kind == .end ? dot.range : current.range)
            }
            let name = advance()
            var member = RuleMember(name: name.text, nameRange: name.range)
            var depth = result.depth
            var end = name.range.upperBound
            if current.kind == .leftParen {
                let parsed = try parseArguments(of: name)
                member.arguments = parsed.arguments
                depth = max(depth, parsed.depth)
                end = parsed.end
            }
            let range = result.expression.range.lowerBound..<end
            result = try node(.member(result.expression, member, RuleNodeInfo(range)), depth: depth + 1)
        }
        return result
    }

    /// `"(" [ arg ( "," arg )* ] ")"`
    mutating func parseArguments(of name: RuleToken) throws(Abort) -> (arguments: [RuleArgument], depth: Int, end: Int) {
        let open = advance()
        try enter()
        defer { level -= 1 }
        var arguments: [RuleArgument] = []
        var depth = 0
        if current.kind == .rightParen {
            return (arguments, depth, advance().range.upperBound)
        }
        while true {
            let argument = try parseArgument()
            arguments.append(argument.argument)
            depth = max(depth, argument.depth)
            if current.kind == .comma {
                let comma = advance()
                if current.kind == .rightParen {
                    throw abort("expected an argument after ','", comma.range)
                }
            } else if current.kind == .rightParen {
                return (arguments, depth, advance().range.upperBound)
            } else {
                throw expectedClose(open, what: "'\(name.text)('")
            }
        }
    }

    mutating func expectedClose(_ open: RuleToken, what: String = "'('") -> Abort {
        var message = "expected ')' to close \(what) at column \(column(open))"
        if current.kind != .end {
            message += ", found \(describe(current))" + (operatorWordHint(current) ?? "")
        }
        return abort(message, current.range)
    }

    /// `arg := [ IDENT ":" ] ( or | "." IDENT )`
    mutating func parseArgument() throws(Abort) -> (argument: RuleArgument, depth: Int) {
        var label: String?
        var labelRange: Range<Int>?
        if current.kind == .identifier, next.kind == .colon {
            let token = advance()
            label = token.text
            labelRange = token.range
            advance()
        }
        if current.kind == .dot {
            let dot = advance()
            guard current.kind == .identifier else {
                throw abort("expected a calendar window (.minute, .hour, .day, .week) or an invalidation reason (.tipClosed …) after '.'",
                            current.kind == .end ? dot.range : current.range)
            }
            let name = advance()
            let range = dot.range.lowerBound..<name.range.upperBound
            // A calendar window, or an invalidation reason (the member decides which it takes).
            let expression: RuleExpression
            if let window = RuleWindow(rawValue: name.text) {
                expression = .window(window, RuleNodeInfo(range))
            } else if RuleInvalidationReason(rawValue: name.text) != nil {
                expression = .symbol(name.text, RuleNodeInfo(range))
            } else {
                let windows = RuleWindow.allCases.map { ".\($0.rawValue)" }
                let reasons = RuleInvalidationReason.allCases.map { ".\($0.rawValue)" }
                let reasonSuggestion = RuleSuggestions.didYouMean(".\(name.text)", in: reasons)
                if !reasonSuggestion.isEmpty, RuleSuggestions.didYouMean(".\(name.text)", in: windows).isEmpty {
                    throw abort("unknown invalidation reason '.\(name.text)'\(reasonSuggestion) (use \(reasons.joined(separator: ", ")))", range)
                }
                let suggestion = RuleSuggestions.didYouMean(".\(name.text)", in: windows)
                throw abort("unknown calendar window '.\(name.text)'\(suggestion) (use .minute, .hour, .day or .week)", range)
            }
            let value = try node(expression, depth: 1)
            return (RuleArgument(label: label, labelRange: labelRange, value: value.expression), 1)
        }
        let value = try parseOr()
        return (RuleArgument(label: label, labelRange: labelRange, value: value.expression), value.depth)
    }

    /// `primary := "$" IDENT | "#" EVENT | IDENT | "tip" "(" IDENT ")" | "now" | "nil" | literals | "(" or ")" | "-" NUMBER`
    mutating func parsePrimary() throws(Abort) -> Node {
        let token = current
        let info = RuleNodeInfo(token.range)
        switch token.kind {
        case .appParameter:
            advance()
            return Node(expression: .appParameter(token.text, info), depth: 1)
        case .event:
            advance()
            return Node(expression: .event(token.text, info), depth: 1)
        case .identifier:
            switch token.text {
            case "true", "false":
                advance()
                return Node(expression: .bool(token.text == "true", info), depth: 1)
            case "now":
                advance()
                return Node(expression: .now(info), depth: 1)
            case "nil":
                advance()
                return Node(expression: .nil(info), depth: 1)
            case "tip":
                return try parseTip()
            default:
                if let hint = operatorWordHint(token) {
                    throw abort("expected a value, found '\(token.text)'\(hint)", token.range)
                }
                advance()
                return Node(expression: .name(token.text, info), depth: 1)
            }
        case .integer, .decimal, .duration:
            advance()
            return try number(token, negative: false, range: token.range)
        case .minus:
            advance()
            let operand = current
            switch operand.kind {
            case .integer, .decimal:
                advance()
                return try number(operand, negative: true, range: token.range.lowerBound..<operand.range.upperBound)
            case .duration:
                throw abort("a duration cannot be negative; write 'now - 3d' rather than 'now + -3d'",
                            token.range.lowerBound..<operand.range.upperBound)
            default:
                throw abort("'-' can only negate a number, as in -2", token.range)
            }
        case .string:
            advance()
            return Node(expression: .string(token.text, info), depth: 1)
        case .leftParen:
            advance()
            let inner = try parseOr()
            guard current.kind == .rightParen else { throw expectedClose(token) }
            let close = advance()
            return Node(expression: inner.expression.with(range: token.range.lowerBound..<close.range.upperBound),
                        depth: inner.depth)
        case .end:
            throw abort("unexpected end of rule", token.range)
        case .colon:
            throw abort("unexpected ':' — a label such as 'groupedBy:' may only start an argument", token.range)
        case .dot:
            throw abort("unexpected '.' — a calendar window such as '.day' may only be the argument of 'within'", token.range)
        default:
            throw abort("expected a value, found \(describe(token))", token.range)
        }
    }

    /// `tip(ID)`
    mutating func parseTip() throws(Abort) -> Node {
        let keyword = advance()
        guard current.kind == .leftParen else {
            throw abort("expected '(' after 'tip', as in tip(ShowLocationTip)", keyword.range)
        }
        let open = advance()
        guard current.kind == .identifier else {
            let found = current.kind == .end ? "" : ", found \(describe(current))"
            throw abort("expected a tip id after 'tip('\(found)", current.range)
        }
        let first = advance()
        // Tip ids may be dotted and dashed (`com.example.share-tip`): written without spaces, they lex as
        // identifiers, numbers, `.` and `-`; the id is their source text.
        var idText = first.text
        var idEnd = first.range.upperBound
        while current.kind == .dot || current.kind == .minus, current.range.lowerBound == idEnd,
              next.kind == .identifier || next.kind == .integer, next.range.lowerBound == current.range.upperBound {
            let separator = advance()
            let part = advance()
            idText += (separator.kind == .dot ? "." : "-") + part.text
            idEnd = part.range.upperBound
        }
        guard current.kind == .rightParen else { throw expectedClose(open, what: "'tip('") }
        let close = advance()
        let range = keyword.range.lowerBound..<close.range.upperBound
        return Node(expression: .tip(idText, idRange: first.range.lowerBound..<idEnd, RuleNodeInfo(range)), depth: 1)
    }

    /// An integer, decimal or duration literal.
    mutating func number(_ token: RuleToken, negative: Bool, range: Range<Int>) throws(Abort) -> Node {
        let info = RuleNodeInfo(range)
        let text = (negative ? "-" : "") + token.text
        switch token.kind {
        case .integer:
            guard let value = Int(text) else { throw abort("number \(text) is too large", range) }
            return Node(expression: .int(value, info), depth: 1)
        case .decimal:
            guard let value = Double(text), value.isFinite else { throw abort("number \(text) is too large", range) }
            return Node(expression: .double(value, info), depth: 1)
        default:
            let seconds = TimeSpan.unitSeconds.first { $0.suffix.asciiValue == token.unit }?.seconds ?? 1
            guard let value = Double(token.text), (value * seconds).isFinite else {
                throw abort("duration \(token.text) is too large", range)
            }
            return Node(expression: .duration(TimeSpan(seconds: value * seconds), info), depth: 1)
        }
    }
}
