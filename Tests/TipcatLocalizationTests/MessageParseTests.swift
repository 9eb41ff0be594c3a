import Testing
import TipcatCore
@testable import TipcatLocalization

/// The UTF-8 byte offset of the first occurrence of `needle` in `text` (test helper).
func byteOffset(of needle: String, in text: String) -> Int? {
    let haystack = Array(text.utf8)
    let pattern = Array(needle.utf8)
    guard !pattern.isEmpty, pattern.count <= haystack.count else { return nil }
    for start in 0...(haystack.count - pattern.count) where Array(haystack[start..<start + pattern.count]) == pattern {
        return start
    }
    return nil
}

@Suite struct MessageParseTests {
    /// What the parser itself makes of `text` (no plain-text shortcut).
    static func parsed(_ text: String, inPlural: Bool) -> ([MessagePart], [Placeholder])? {
        var copy = text
        return copy.withUTF8 { buffer in
            var parser = MessageParser(bytes: buffer)
            guard let parts = try? parser.parseMessage(openBrace: nil, inPlural: inPlural, depth: inPlural ? 1 : 0) else { return nil }
            return (parts, parser.placeholders)
        }
    }

    /// Text without a byte the syntax reads skips the parser: the message is what the parser would make of it,
    /// for messages and plural forms alike, on random texts with and without braces, apostrophes and `#`.
    @Test func plainTextShortcutAgreesWithTheParser() {
        var random = SeededGenerator(seed: 0x31A)
        let pieces = ["a", "Tap ", "日本", "🙂", "é", " ", "\n", "#", "'", "''", "{", "}", "{x}", "{n, plural, other {# x}}", "~", "!"]
        var texts = ["", "#", "'", "plain", String(repeating: "long plain text ", count: 9), "tail{", "1234567#", "12345678#"]
        for _ in 0..<4_000 {
            texts.append((0..<Int.random(in: 0...12, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined())
        }
        var plain = 0
        for text in texts {
            for inPlural in [false, true] {
                let viaParse = inPlural ? try? Message.parsePluralForm(text) : try? Message.parse(text)
                let expected = Self.parsed(text, inPlural: inPlural)
                #expect(viaParse?.parts == expected?.0 && viaParse?.placeholders == expected?.1, "\(text.debugDescription) in plural: \(inPlural)")
                if !text.utf8.contains(where: { [UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "'")].contains($0) || (inPlural && $0 == UInt8(ascii: "#")) }) {
                    plain += 1
                    #expect(viaParse?.parts == (text.isEmpty ? [] : [.text(text)]))
                }
            }
        }
        #expect(plain > 500)
    }

    /// A message that keeps only its text (`deferringTree()`) is the message it was: the same tree, equal, the same
    /// hash, the same formatted text; a plain message is exactly one literal, its text. Equality of messages of
    /// either form, and of texts parsed in either mode, is equality of their trees.
    @Test func deferredAndPlainMessagesAreTheMessagesTheyStandFor() throws {
        var random = SeededGenerator(seed: 0x5EED)
        let pieces = ["a", "Tap ", "日本", "🙂", " ", "#", "'", "''", "'{'", "{", "}", "{x}", "{n, plural, one {# x} other {# xs}}",
                      "{s, select, nil {none} other {{s}}}", "{n, number, ::.00}"]
        var texts = ["", "#", "'", "it's", "plain", "{x}"]
        for _ in 0..<3_000 {
            texts.append((0..<Int.random(in: 0...8, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined())
        }
        let values: [String: Value] = ["x": .string("ex"), "n": .int(2), "s": .string("es")]
        var deferredCount = 0
        for text in texts {
            let parsed = [try? Message.parse(text), try? Message.parsePluralForm(text)]
            for message in parsed.compactMap(\.self) {
                let deferred = message.deferringTree()
                if deferred.parts != message.parts || !message.isPlainText { deferredCount += 1 }
                #expect(deferred.parts == message.parts && deferred.placeholders == message.placeholders, "\(text.debugDescription)")
                #expect(deferred == message && message == deferred && deferred.hashValue == message.hashValue)
                #expect(deferred.isPlainText == message.isPlainText)
                #expect((try? deferred.format(locale: LocaleID.english, value: { values[$0] })) == (try? message.format(locale: LocaleID.english, value: { values[$0] })))
                #expect(message.isPlainText == (message.placeholders.isEmpty && message.parts == (text.isEmpty ? [] : [.text(text)])))
                // Built with the same tree, the message is equal too.
                #expect(Message(text: text, parts: message.parts, placeholders: message.placeholders) == deferred)
            }
            if let asMessage = parsed[0], let asForm = parsed[1] {
                let sameTree = asMessage.parts == asForm.parts && asMessage.placeholders == asForm.placeholders
                #expect((asMessage.deferringTree() == asForm.deferringTree()) == sameTree, "\(text.debugDescription)")
                #expect((asMessage == asForm.deferringTree()) == sameTree)
            }
        }
        #expect(deferredCount > 1_000)
        // A differently built tree for the same text is another message.
        let message = try Message.parse("{x}")
        #expect(Message(text: "{x}", parts: [.text("{x}")], placeholders: []) != message.deferringTree())
    }

    @Test func textAndPlaceholders() throws {
        let message = try Message.parse("Discover what's new in {trail.region}!")
        #expect(message.parts == [.text("Discover what's new in "), .placeholder(path: "trail.region"), .text("!")])
        #expect(message.placeholders == [Placeholder(path: "trail.region", kind: .value, offset: 24, length: 12)])
        #expect(message.text == "Discover what's new in {trail.region}!")
        #expect(try Message.parse("").parts == [])
        #expect(try Message.parse("plain # text").parts == [.text("plain # text")])
    }

    @Test func pluralAST() throws {
        let text = "{trail.name} just opened. {visitors, plural, one {# hiker has} other {# hikers have}} been there."
        let message = try Message.parse(text)
        #expect(message.parts == [
            .placeholder(path: "trail.name"),
            .text(" just opened. "),
            .plural(path: "visitors", offset: 0, cases: [
                MessageCase(selector: "one", parts: [.pound, .text(" hiker has")]),
                MessageCase(selector: "other", parts: [.pound, .text(" hikers have")]),
            ]),
            .text(" been there."),
        ])
        let visitors = try #require(byteOffset(of: "visitors", in: text))
        #expect(message.placeholders == [
            Placeholder(path: "trail.name", kind: .value, offset: 1, length: 10),
            Placeholder(path: "visitors", kind: .plural, offset: visitors, length: 8, selectors: ["one", "other"]),
        ])
        #expect(message.pluralArguments.map(\.path) == ["visitors"])
        #expect(message.placeholderPaths == ["trail.name", "visitors"])
    }

    @Test func nestedPlaceholdersAreListedInOrder() throws {
        let text = "{count, plural, offset:1 =0 {none} one {{host} alone} other {{kind, select, hike {{host} hikes} other {{host} and #}}}}"
        let message = try Message.parse(text)
        #expect(message.placeholders.map(\.path) == ["count", "host", "kind", "host", "host"])
        #expect(message.placeholders.map(\.kind) == [.plural, .value, .select, .value, .value])
        #expect(message.placeholders[0].selectors == ["=0", "one", "other"])
        #expect(message.placeholders[2].selectors == ["hike", "other"])
        #expect(message.placeholderPaths == ["count", "host", "kind"])
        #expect(message.pluralArguments.count == 1)
        guard case .plural(_, let offset, let cases) = message.parts.first else {
            Issue.record("expected a plural, got \(message.parts)")
            return
        }
        #expect(offset == 1)
        #expect(cases.map(\.selector) == ["=0", "one", "other"])
        // `#` inside a select nested in a plural is still the plural number.
        guard case .select(_, let selectCases) = cases[2].parts.first else {
            Issue.record("expected a nested select")
            return
        }
        #expect(selectCases[1].parts == [.placeholder(path: "host"), .text(" and "), .pound])
        // Every placeholder's offset/length points at its name in the text.
        let bytes = Array(text.utf8)
        for placeholder in message.placeholders {
            let name = String(decoding: bytes[placeholder.offset..<placeholder.offset + placeholder.length], as: UTF8.self)
            #expect(name == placeholder.path)
        }
    }

    @Test func whitespaceAroundCommasAndKeys() throws {
        let message = try Message.parse("{ count , plural , offset : 2\n =0 {none}\n\tother {#} }")
        #expect(message.parts == [.plural(path: "count", offset: 2, cases: [
            MessageCase(selector: "=0", parts: [.text("none")]),
            MessageCase(selector: "other", parts: [.pound]),
        ])])
        #expect(message.placeholders[0].offset == 2)
        let select = try Message.parse("{kind,select,hike{H}other{O}}")
        #expect(select.placeholders[0].selectors == ["hike", "other"])
    }

    @Test(arguments: [
        ("It''s", "It's"),
        ("don't", "don't"),
        ("'{name}'", "{name}"),
        ("'{'", "{"),
        ("'}'", "}"),
        ("a'b'c", "a'b'c"),
        ("I''m '{'quoted''s'}'", "I'm {quoted's}"),
        ("'#'", "'#'"),  // `#` is not special outside plurals, so the apostrophes stay.
        ("'{unterminated", "{unterminated"),  // as ICU: the quote runs to the end
        ("end'", "end'"),
        ("''''", "''"),
    ])
    func quoting(_ text: String, _ expected: String) throws {
        let message = try Message.parse(text)
        #expect(message.parts == [.text(expected)])
        #expect(message.placeholders.isEmpty)
    }

    @Test func quotingInsidePlural() throws {
        let message = try Message.parse("{n, plural, other {'#' is # and '{x}' ''ok''}}")
        #expect(message.parts == [.plural(path: "n", offset: 0, cases: [
            MessageCase(selector: "other", parts: [.text("# is "), .pound, .text(" and {x} 'ok'")]),
        ])])
        #expect(message.placeholderPaths == ["n"])
    }

    struct SyntaxCase: Sendable, CustomStringConvertible {
        var text: String
        var message: String
        var at: String  // where the error points: the first occurrence of this marker
        var nth: Int = 0  // or an explicit offset added to the marker's
        var description: String { text }
    }

    @Test(arguments: [
        SyntaxCase(text: "Hello {name", message: "unclosed '{'", at: "{"),
        SyntaxCase(text: "Café {name", message: "unclosed '{'", at: "{"),
        SyntaxCase(text: "Hello }", message: "unmatched '}'", at: "}"),
        SyntaxCase(text: "{a} b}", message: "unmatched '}'", at: "b}", nth: 1),
        SyntaxCase(text: "a {} b", message: "empty placeholder '{}'", at: "{"),
        SyntaxCase(text: "a { } b", message: "empty placeholder '{}'", at: "{"),
        SyntaxCase(text: "{1abc}", message: "expected an argument name, found '1'", at: "1"),
        SyntaxCase(text: "{trail.}", message: "expected an argument name, found '}'", at: "}"),
        SyntaxCase(text: "{.x}", message: "expected an argument name, found '.'", at: "."),
        SyntaxCase(text: "{é}", message: "expected an argument name, found 'é'", at: "é"),
        SyntaxCase(text: "{a-b}", message: "expected ',' or '}' after argument name 'a', found '-'", at: "-"),
        SyntaxCase(text: "{trail name}", message: "expected ',' or '}' after argument name 'trail', found 'n'", at: "name"),
        SyntaxCase(text: "{x, number, percent}", message: "unsupported number style 'percent'; use 'integer' or a precision such as '::.00' (two digits) or '::.0#' (one or two)", at: "percent"),
        SyntaxCase(text: "{x, number, ::.#0}", message: "unsupported number style '::.#0'; use 'integer' or a precision such as '::.00' (two digits) or '::.0#' (one or two)", at: "::"),
        SyntaxCase(text: "{x, number, integer x}", message: "expected '}' after the number style, found 'x'", at: "x}"),
        SyntaxCase(text: "{x, date, short}", message: "unsupported argument type 'date'; use plural, select or number", at: "date"),
        SyntaxCase(text: "{x,}", message: "expected 'plural', 'select' or 'number', found '}'", at: "}"),
        SyntaxCase(text: "{n, plural other {a}}", message: "expected ',' after 'plural', found 'o'", at: "other"),
        SyntaxCase(text: "{n, plural, one {a}}", message: "plural argument 'n' needs an 'other' case", at: "{"),
        SyntaxCase(text: "{n, plural,}", message: "plural argument 'n' needs an 'other' case", at: "{"),
        SyntaxCase(text: "x {k, select, a {A} b {B}}", message: "select argument 'k' needs an 'other' case", at: "{"),
        SyntaxCase(text: "{n, plural, one {a} one {b} other {c}}", message: "duplicate selector 'one'", at: "one {b}"),
        SyntaxCase(text: "{n, plural, =1 {a} =01 {b} other {c}}", message: "duplicate selector '=01'", at: "=01"),
        SyntaxCase(text: "{k, select, a {A} other {O} a {B}}", message: "duplicate selector 'a'", at: "a {B}"),
        SyntaxCase(text: "{n, plural, =x {a} other {b}}", message: "bad selector '=x': '=' must be followed by an integer, as in '=0'", at: "=x"),
        SyntaxCase(text: "{n, plural, =1.5 {a} other {b}}", message: "bad selector '=1.5': '=' must be followed by an integer, as in '=0'", at: "=1.5"),
        SyntaxCase(text: "{n, plural, = {a} other {b}}", message: "bad selector '=': '=' must be followed by an integer, as in '=0'", at: "="),
        SyntaxCase(text: "{k, select, =1 {a} other {b}}", message: "'=N' selectors are only allowed in plural arguments", at: "=1"),
        SyntaxCase(text: "{n, plural, few2 {a} other {b}}", message: "unknown plural category 'few2'; use zero, one, two, few, many, other or =N", at: "few2"),
        SyntaxCase(text: "{n, plural, one a other {b}}", message: "expected '{' after selector 'one', found 'a'", at: "a other"),
        SyntaxCase(text: "{n, plural, offset:x other {#}}", message: "expected a non-negative integer after 'offset:'", at: "x other"),
        SyntaxCase(text: "{n, plural, offset:-1 other {#}}", message: "expected a non-negative integer after 'offset:'", at: "-1"),
        SyntaxCase(text: "{k, select, (a) {A} other {B}}", message: "expected a selector or '}', found '('", at: "("),
        SyntaxCase(text: "{n, plural, other {# x}", message: "unclosed '{'", at: "{"),
        SyntaxCase(text: "{n, plural, other {# x", message: "unclosed '{'", at: "{#"),
        SyntaxCase(text: "{n, plural, other {{k, select, other {x}}", message: "unclosed '{'", at: "{{"),
        SyntaxCase(text: "{n, plural, other", message: "unclosed '{'", at: "{"),
    ])
    func syntaxErrors(_ testCase: SyntaxCase) throws {
        let expectedOffset = try #require(byteOffset(of: testCase.at, in: testCase.text)) + testCase.nth
        #expect(throws: MessageSyntaxError(testCase.message, offset: expectedOffset)) {
            try Message.parse(testCase.text)
        }
    }

    @Test func utf8Offsets() {
        // "Café " is 6 bytes: é takes two.
        #expect(throws: MessageSyntaxError("unclosed '{'", offset: 6)) { try Message.parse("Café {name") }
        #expect(throws: MessageSyntaxError("unmatched '}'", offset: 9)) { try Message.parse("日本語}") }
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        var text = ""
        for _ in 0..<200 { text += "{k, select, other {" }
        for _ in 0..<200 { text += "}}" }
        #expect(throws: MessageSyntaxError.self) { try Message.parse(text) }
        var shallow = ""
        for _ in 0..<10 { shallow += "{k, select, other {" }
        for _ in 0..<10 { shallow += "}}" }
        #expect(try Message.parse(shallow).placeholders.count == 10)
    }

    @Test func garbageNeverCrashes() throws {
        let en = try #require(LocaleID("en"))
        let pieces = ["{", "}", "'", "#", ",", " ", "a", "plural", "select", "other", "=1", "offset:", "é", ".", "one"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var text = ""
            for _ in 0..<Int.random(in: 0..<16, using: &generator) { text += pieces.randomElement(using: &generator) ?? "" }
            do {
                let message = try Message.parse(text)
                _ = try? message.format(locale: en, value: { _ in .int(1) })
            } catch {
                #expect(error.offset >= 0 && error.offset <= text.utf8.count, "\(text): \(error)")
            }
        }
    }
}
