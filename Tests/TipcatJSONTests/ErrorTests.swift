import Testing
import TipcatCore
import TipcatJSON

/// Every error the parser reports: exact message and the offset of the offending byte.
@Suite struct ErrorMessageTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var input: [UInt8]
        var message: String
        var offset: Int
        var testDescription: String { String(decoding: input, as: UTF8.self) }

        init(_ text: String, _ message: String, at offset: Int) {
            input = Array(text.utf8)
            self.message = message
            self.offset = offset
        }

        init(bytes: [UInt8], _ message: String, at offset: Int) {
            input = bytes
            self.message = message
            self.offset = offset
        }
    }

    static let structural: [Case] = [
        Case("", "empty file: expected a JSON value", at: 0),
        Case(" \n\t ", "empty file: expected a JSON value", at: 4),
        Case(#"{"a": 1]"#, "expected ',' or '}' after object member, found ']'", at: 7),
        Case("[1 2]", "expected ',' or ']' after array element, found '2'", at: 3),
        Case("[1", "expected ',' or ']' after array element, found end of file", at: 2),
        Case(#"{"a":1"#, "expected ',' or '}' after object member, found end of file", at: 6),
        Case("[", "expected a value or ']', found end of file", at: 1),
        Case("[}", "expected a value or ']', found '}'", at: 1),
        Case("[1,", "expected a value after ',', found end of file", at: 3),
        Case("[1,,2]", "expected a value after ',', found ','", at: 3),
        Case("[1,]", "trailing comma is not allowed before ']'", at: 2),
        Case(#"{"a":1,}"#, "trailing comma is not allowed before '}'", at: 6),
        Case("{", "expected a string key or '}', found end of file", at: 1),
        Case("{1:2}", "expected a string key or '}', found '1'", at: 1),
        Case(#"{"a":1, 2}"#, "expected a string key after ',', found '2'", at: 8),
        Case("{a:1}", "object keys must be double-quoted strings, found 'a'", at: 1),
        Case("{'a':1}", "object keys must be double-quoted strings, not single-quoted", at: 1),
        Case(#"{"a" 1}"#, "expected ':' after object key, found '1'", at: 5),
        Case(#"{"a"}"#, "expected ':' after object key, found '}'", at: 4),
        Case(#"{"a":}"#, "expected a value after ':', found '}'", at: 5),
        Case("1 2", "unexpected data after the JSON value", at: 2),
        Case("{} x", "unexpected data after the JSON value", at: 3),
        Case("[] ]", "unexpected data after the JSON value", at: 3),
        Case(":", "expected a JSON value, found ':'", at: 0),
        Case("'a'", "strings must use double quotes, not single quotes", at: 0),
        Case("[1] // note", "unexpected data after the JSON value", at: 4),
        Case("/* c */ 1", "comments are not allowed in JSON", at: 0),
        Case("[NaN]", "'NaN' is not valid JSON: NaN and Infinity are not allowed", at: 1),
        Case("Infinity", "'Infinity' is not valid JSON: NaN and Infinity are not allowed", at: 0),
        Case("True", "invalid literal 'True': JSON literals are lowercase (true, false, null)", at: 0),
        Case("[nul]", "invalid literal 'nul'", at: 1),
        Case("truex", "invalid literal 'truex'", at: 0),
        Case("[undefined]", "expected a value or ']', found 'undefined'", at: 1),
        Case("\u{0B}1", "expected a JSON value, found control character U+000B", at: 0),
        Case("\u{A0}1", "expected a JSON value, found '\u{A0}' (U+00A0)", at: 0),
        Case("[1]\u{C}", "unexpected data after the JSON value", at: 3),
    ]

    static let numbers: [Case] = [
        Case("01", "leading zeros are not allowed in numbers", at: 0),
        Case("[-007]", "leading zeros are not allowed in numbers", at: 2),
        Case("-", "expected a digit after '-', found end of file", at: 1),
        Case("-x", "expected a digit after '-', found 'x'", at: 1),
        Case("-Infinity", "expected a digit after '-', found 'I'", at: 1),
        Case("1.", "expected a digit after '.', found end of file", at: 2),
        Case("1.e5", "expected a digit after '.', found 'e'", at: 2),
        Case("1e", "expected a digit in the exponent, found end of file", at: 2),
        Case("1E+", "expected a digit in the exponent, found end of file", at: 3),
        Case("+1", "numbers must not start with '+'", at: 0),
        Case(".5", "numbers must start with a digit (write 0.5, not .5)", at: 0),
        Case("[1.5x]", "expected ',' or ']' after array element, found 'x'", at: 4),
        Case("0x1F", "unexpected data after the JSON value", at: 1),
    ]

    static let strings: [Case] = [
        Case(#"["abc"#, "unterminated string", at: 1),
        Case(#""abc\"#, "unterminated string", at: 0),
        Case(#""a\x""#, "invalid escape '\\x'", at: 2),
        Case(#""\a""#, "invalid escape '\\a'", at: 1),
        Case("\"\\\u{1}\"", "invalid escape: '\\' followed by control character U+0001", at: 1),
        Case("\"\\é\"", "invalid escape '\\é'", at: 1),
        Case(#""\u12G4""#, "invalid unicode escape '\\u12G4': expected 4 hex digits after '\\u'", at: 1),
        Case(#""\u12""#, "invalid unicode escape '\\u12\"': expected 4 hex digits after '\\u'", at: 1),
        Case(#""\uD800""#,
             "unpaired surrogate escape '\\uD800': a high surrogate must be followed by a low surrogate escape", at: 1),
        Case(#""x\uD83D\u0041""#,
             "unpaired surrogate escape '\\uD83D': a high surrogate must be followed by a low surrogate escape", at: 2),
        Case(#""\uDBFF\uDBFF""#,
             "unpaired surrogate escape '\\uDBFF': a high surrogate must be followed by a low surrogate escape", at: 1),
        Case(#""\uDC00""#,
             "unpaired surrogate escape '\\uDC00': a low surrogate must follow a high surrogate escape", at: 1),
        Case("\"a\nb\"", "control character U+000A in string must be escaped", at: 2),
        Case("\"tab\there\"", "control character U+0009 in string must be escaped", at: 4),
        Case(bytes: [0x22, 0x61, 0x00, 0x22], "control character U+0000 in string must be escaped", at: 2),
        Case(bytes: Array(#"["0123456789abcdef"#.utf8) + [0x1F] + Array("xxxxxxxxxx\"]".utf8),
             "control character U+001F in string must be escaped", at: 18),
    ]

    static let encoding: [Case] = [
        Case(bytes: [0x00], "NUL byte in file", at: 0),
        Case(bytes: Array("[1,".utf8) + [0x00] + Array("2]".utf8), "NUL byte in file", at: 3),
        Case(bytes: Array("[1]".utf8) + [0x00], "NUL byte in file", at: 3),
        Case(bytes: [0xFF], "invalid UTF-8 byte 0xFF", at: 0),
        Case(bytes: [0xFE, 0xFF, 0x00, 0x31], "invalid UTF-8 byte 0xFE", at: 0),
        Case(bytes: [0x22, 0x61, 0xFF, 0x22], "invalid UTF-8 byte 0xFF", at: 2),
        Case(bytes: [0x22, 0x80, 0x22], "invalid UTF-8 byte 0x80 (unexpected continuation byte)", at: 1),
        Case(bytes: [0x22, 0xC0, 0xAF, 0x22], "invalid UTF-8 byte 0xC0 (overlong encoding)", at: 1),
        Case(bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], "invalid UTF-8 byte 0xE0 (overlong encoding)", at: 1),
        Case(bytes: [0x22, 0x78, 0xF0, 0x80, 0x80, 0xAF, 0x22], "invalid UTF-8 byte 0xF0 (overlong encoding)", at: 2),
        Case(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8 byte 0xED (encoded UTF-16 surrogate)", at: 1),
        Case(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "invalid UTF-8 byte 0xF4 (code point above U+10FFFF)", at: 1),
        Case(bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], "invalid UTF-8 byte 0xF5", at: 1),
        Case(bytes: [0x22, 0xE9, 0x74, 0xE9, 0x22], "invalid UTF-8 byte 0xE9 (truncated sequence)", at: 1),
        Case(bytes: [0x22, 0xE6, 0x97, 0x22], "invalid UTF-8 byte 0xE6 (truncated sequence)", at: 1),
        Case(bytes: [0x22, 0xE6, 0x97], "invalid UTF-8 byte 0xE6 (truncated sequence)", at: 1),
        // Inside an escape-decoded string too.
        Case(bytes: Array(#""\n"#.utf8) + [0xC3, 0x28, 0x22], "invalid UTF-8 byte 0xC3 (truncated sequence)", at: 3),
        Case(bytes: [0x5B, 0xC3, 0xA9, 0x5D], "expected a value or ']', found 'é' (U+00E9)", at: 1),
        Case(bytes: [0x5B, 0xC3, 0x5D], "invalid UTF-8 byte 0xC3 (truncated sequence)", at: 1),
        Case(bytes: [0x31, 0x20, 0xFF], "invalid UTF-8 byte 0xFF", at: 2),
    ]

    @Test(arguments: structural + numbers + strings + encoding)
    func reportsMessageAndOffset(_ testCase: Case) {
        let error = syntaxError(testCase.input)
        #expect(error?.message == testCase.message)
        #expect(error?.offset == testCase.offset)
    }

    @Test func nestingLimit() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(syntaxError(ok) == nil)
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(syntaxError(tooDeep) == JSONSyntaxError("nesting deeper than 512 levels", at: 512))
        let objects = String(repeating: #"{"a":"#, count: 600)
        #expect(syntaxError(objects) == JSONSyntaxError("nesting deeper than 512 levels", at: 512 * 5))
        // A custom limit.
        #expect(syntaxError(Array("[[[1]]]".utf8), maxDepth: 2) == JSONSyntaxError("nesting deeper than 2 levels", at: 2))
        #expect(syntaxError(Array("[[1]]".utf8), maxDepth: 2) == nil)
    }

    @Test func errorDescriptionMentionsOffset() {
        #expect(JSONSyntaxError("unterminated string", at: 4).description == "unterminated string (at byte 4)")
    }
}
