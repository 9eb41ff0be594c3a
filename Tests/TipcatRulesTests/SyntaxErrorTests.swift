import Testing
import TipcatCore
@testable import TipcatRules

@Suite struct SyntaxErrorTests {
    /// Parses `text` and expects exactly `expected`; the expression must then be nil.
    func expectSyntax(_ text: String, _ expected: [RuleDiagnostic], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let parsed = RuleParser.parse(text)
        #expect(parsed.diagnostics == expected, "\(text)", sourceLocation: sourceLocation)
        #expect(parsed.expression == nil, sourceLocation: sourceLocation)
        // The checker reports the same syntax errors and no rule.
        let checked = RuleChecker.check(text, in: sample)
        #expect(checked.diagnostics == expected, sourceLocation: sourceLocation)
        #expect(checked.rule == nil, sourceLocation: sourceLocation)
    }

    @Test func unclosedParenthesis() {
        let text = "$a && ($b || $c"
        let end = text.utf8.count
        expectSyntax(text, [error("expected ')' to close '(' at column 7", at: end..<end)])
        let found = "($isLoggedIn $isPowerUser)"
        expectSyntax(found, [error("expected ')' to close '(' at column 1, found '$isPowerUser'",
                                   at: byteRange(of: "$isPowerUser", in: found))])
        let word = "($isLoggedIn and $isPowerUser)"
        expectSyntax(word, [error("expected ')' to close '(' at column 1, found 'and' — did you mean '&&'?",
                                  at: byteRange(of: "and", in: word))])
    }

    @Test func columnsCountCharactersNotBytes() {
        let text = "$mapMode == \"é日\" && ($isLoggedIn"
        let end = text.utf8.count
        // '(' is the 21st character but the 24th byte.
        expectSyntax(text, [error("expected ')' to close '(' at column 21", at: end..<end)])
    }

    @Test func singleAmpersandAndBar() {
        let text = "$isLoggedIn & $isPowerUser"
        expectSyntax(text, [error("unexpected '&' — did you mean '&&'?", at: byteRange(of: "&", in: text))])
        expectSyntax("$a &&& $b", [error("unexpected '&' — did you mean '&&'?", at: 5..<6)])
        expectSyntax("$a ||| $b", [error("unexpected '|' — did you mean '||'?", at: 5..<6)])
        let both = "$a & $b | $c"
        expectSyntax(both, [
            error("unexpected '&' — did you mean '&&'?", at: byteRange(of: "&", in: both)),
            error("unexpected '|' — did you mean '||'?", at: byteRange(of: "|", in: both)),
        ])
    }

    @Test func singleEquals() {
        let text = "$launchCount = 3"
        expectSyntax(text, [error("'=' is not an operator — did you mean '=='?", at: byteRange(of: "=", in: text))])
        let arrow = "$launchCount => 3"
        expectSyntax(arrow, [error("'=>' is not an operator — did you mean '>='?", at: byteRange(of: "=>", in: arrow))])
        expectSyntax("$launchCount === 3", [error("'===' is not an operator — did you mean '=='?", at: 13..<16)])
        expectSyntax("$launchCount !== 3", [error("'!==' is not an operator — did you mean '!='?", at: 13..<16)])
        let diamond = "$launchCount <> 3"
        expectSyntax(diamond, [error("'<>' is not an operator — did you mean '!='?", at: byteRange(of: "<>", in: diamond))])
    }

    @Test func strings() {
        let text = "$mapMode == \"satellite"
        expectSyntax(text, [error("unterminated string", at: byteRange(of: "\"satellite", in: text))])
        let newline = "$mapMode == \"sat\n|| true"
        expectSyntax(newline, [error("unterminated string", at: byteRange(of: "\"sat", in: newline))])
        let escape = "$mapMode == \"a\\qb\""
        expectSyntax(escape, [error("invalid escape '\\q' in string; use \\\", \\\\, \\n, \\t or \\uXXXX",
                                    at: byteRange(of: "\\q", in: escape))])
        let hex = "$mapMode == \"\\u12G4\""
        expectSyntax(hex, [error("expected 4 hex digits after '\\u'", at: byteRange(of: "\\u", in: hex))])
        let surrogate = "$mapMode == \"\\udc00\""
        expectSyntax(surrogate, [error("'\\u' escape is a lone surrogate; write the character or a surrogate pair",
                                       at: byteRange(of: "\\udc00", in: surrogate))])
        let single = "$favoritePlants.contains('Rose')"
        expectSyntax(single, [error("strings are written in double quotes: \"Rose\"", at: byteRange(of: "'Rose'", in: single))])
        let tab = "$mapMode == \"a\tb\""
        expectSyntax(tab, [error("control character in string; write it as an escape such as \\t", at: byteRange(of: "\t", in: tab))])
    }

    @Test func members() {
        let text = "#opened-map."
        expectSyntax(text, [error("expected a member name after '.'", at: byteRange(of: ".", in: text))])
        let paren = "#opened-map.(3)"
        expectSyntax(paren, [error("expected a member name after '.', found '('", at: byteRange(of: "(", in: paren))])
        let comma = "#opened-map.within(5d,).count > 1"
        expectSyntax(comma, [error("expected an argument after ','", at: byteRange(of: ",", in: comma))])
        let open = "#opened-map.within(5d"
        let end = open.utf8.count
        expectSyntax(open, [error("expected ')' to close 'within(' at column 19", at: end..<end)])
        let window = "#opened-map.within(.days).count > 1"
        expectSyntax("tip(A).invalidated(.tipClose)", [error(
            "unknown invalidation reason '.tipClose'; did you mean '.tipClosed'? (use .actionPerformed, .tipClosed, .displayCountExceeded, .displayDurationExceeded)",
            at: 19..<28)])
        expectSyntax(window, [error("unknown calendar window '.days'; did you mean '.day'? (use .minute, .hour, .day or .week)",
                                    at: byteRange(of: ".days", in: window))])
        let empty = "#opened-map.within(.).count > 1"
        expectSyntax(empty, [error("expected a calendar window (.minute, .hour, .day, .week) or an invalidation reason (.tipClosed …) after '.'",
                                   at: byteRange(of: ")", in: empty))])
    }

    @Test func chainedComparisons() {
        let text = "1 < $launchCount < 5"
        expectSyntax(text, [error("comparison operators cannot be chained; combine two comparisons with '&&'",
                                  at: byteRange(of: "<", in: text, occurrence: 1))])
        // Parsing goes on after the chained operator, so a later error is reported too.
        let more = "1 < $launchCount < 5 &&"
        let end = more.utf8.count
        expectSyntax(more, [
            error("comparison operators cannot be chained; combine two comparisons with '&&'", at: byteRange(of: "<", in: more, occurrence: 1)),
            error("unexpected end of rule", at: end..<end),
        ])
    }

    @Test func endOfRule() {
        for text in ["$isLoggedIn &&", "!", "$launchCount >=", "now -", "("] {
            let end = text.utf8.count
            expectSyntax(text, [error("unexpected end of rule", at: end..<end)])
        }
        expectSyntax("", [error("rule is empty", at: 0..<0)])
        expectSyntax("  \n", [error("rule is blank", at: 0..<3)])
    }

    @Test func unknownCharacters() {
        let text = "$isLoggedIn @ $isPowerUser"
        // Only the character is reported, not the follow-on "unexpected '$isPowerUser'".
        expectSyntax(text, [error("unknown character '@'", at: byteRange(of: "@", in: text))])
        let unicode = "$isLoggedIn ∧ $isPowerUser"
        expectSyntax(unicode, [error("unknown character '∧'", at: byteRange(of: "∧", in: unicode))])
        let control = "$isLoggedIn\u{7}"
        expectSyntax(control, [error("unknown character U+0007", at: 11..<12)])
        let semicolon = "$isLoggedIn; $isPowerUser"
        expectSyntax(semicolon, [error("unknown character ';'", at: 11..<12)])
    }

    @Test func sigils() {
        expectSyntax("$ == 3", [error("expected a parameter name after '$'", at: 0..<1)])
        expectSyntax("#1.count > 0", [error("expected an event name after '#'", at: 0..<1)])
        expectSyntax("#-a.count > 0", [error("expected an event name after '#'", at: 0..<1)])
    }

    @Test func unexpectedTokens() {
        expectSyntax("$isLoggedIn)", [error("unexpected ')' — there is no '(' to close", at: 11..<12)])
        expectSyntax("$isLoggedIn and $isPowerUser", [error("unexpected 'and' — did you mean '&&'?", at: 12..<15)])
        expectSyntax("$isLoggedIn $isPowerUser",
                     [error("unexpected '$isPowerUser'; expected an operator such as '&&', '||' or '=='", at: 12..<24)])
        expectSyntax("$launchCount > > 3", [error("expected a value, found '>'", at: 15..<16)])
        expectSyntax("not $isLoggedIn", [error("expected a value, found 'not' — did you mean '!'?", at: 0..<3)])
        expectSyntax("groupedBy: x", [error("unexpected ':' — a label such as 'groupedBy:' may only start an argument", at: 9..<10)])
        expectSyntax("$a(3)", [error("unexpected '(' — only members such as '.within(5d)' take arguments", at: 2..<3)])
        expectSyntax(".day", [error("unexpected '.' — a calendar window such as '.day' may only be the argument of 'within'", at: 0..<1)])
    }

    @Test func numbers() {
        let big = "$launchCount > 99999999999999999999"
        expectSyntax(big, [error("number 99999999999999999999 is too large", at: byteRange(of: "99999999999999999999", in: big))])
        let negative = "$launchCount > -99999999999999999999"
        expectSyntax(negative, [error("number -99999999999999999999 is too large", at: byteRange(of: "-99999999999999999999", in: negative))])
        expectSyntax("-$launchCount > 1", [error("'-' can only negate a number, as in -2", at: 0..<1)])
        expectSyntax("now + -3d > now", [error("a duration cannot be negative; write 'now - 3d' rather than 'now + -3d'", at: 6..<9)])
        let unit = "#opened-map.within(5days).count > 1"
        expectSyntax(unit, [error("unknown duration unit 'days' — did you mean '5d'?", at: byteRange(of: "days", in: unit))])
        let odd = "#opened-map.within(5y).count > 1"
        expectSyntax(odd, [error("unknown duration unit 'y'; use s, m, h, d or w (as in 5d)", at: byteRange(of: "y", in: odd))])
        // Integers at the edges of Int parse.
        #expect(RuleParser.parse("$launchCount > -9223372036854775808").diagnostics.isEmpty)
    }

    @Test func tipSyntax() {
        expectSyntax("tip.invalidated", [error("expected '(' after 'tip', as in tip(ShowLocationTip)", at: 0..<3)])
        let open = "tip(ShowLocationTip"
        expectSyntax(open, [error("expected ')' to close 'tip(' at column 4", at: 19..<19)])
        expectSyntax("tip(\"ShowLocationTip\").pending", [error("expected a tip id after 'tip(', found '\"ShowLocationTip\"'", at: 4..<21)])
    }

    @Test func eventNamesAreKebabCase() {
        // `-` joins the name only when a name character follows it.
        let parsed = RuleParser.parse("#opened-map.count-1 > 0")
        guard case .comparison(_, .arithmetic(.minus, .member(.event(let id, _), _, _), .int(1, _), _), _, _)? = parsed.expression else {
            Issue.record("unexpected \(String(describing: parsed.expression))")
            return
        }
        #expect(id == "opened-map")
        guard case .comparison(_, .arithmetic(.minus, .member(.event("a", _), _, _), _, _), _, _)? =
            RuleParser.parse("#a.count - -1 > 0").expression
        else {
            Issue.record("expected binary minus")
            return
        }
    }
}
