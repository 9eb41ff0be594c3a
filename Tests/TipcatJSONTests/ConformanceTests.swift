import Foundation
import Testing
import TipcatJSON

/// RFC 8259 conformance: a hand-written table of inputs that must be accepted or rejected, plus (when the
/// files are present) the JSONTestSuite `test_parsing` corpus. See Tests/Fixtures/JSONTestSuite/README.md.
@Suite struct ConformanceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var bytes: [UInt8]
        var accept: Bool
        var note: String
        var testDescription: String { "\(accept ? "accept" : "reject") \(note)" }
    }

    private static func accept(_ text: String, _ note: String = "") -> Case {
        Case(bytes: Array(text.utf8), accept: true, note: note.isEmpty ? text : note)
    }

    private static func reject(_ text: String, _ note: String = "") -> Case {
        Case(bytes: Array(text.utf8), accept: false, note: note.isEmpty ? text : note)
    }

    private static func reject(bytes: [UInt8], _ note: String) -> Case {
        Case(bytes: bytes, accept: false, note: note)
    }

    private static func accept(bytes: [UInt8], _ note: String) -> Case {
        Case(bytes: bytes, accept: true, note: note)
    }

    /// Valid JSON (RFC 8259), including the edge cases parsers often get wrong.
    static let valid: [Case] = [
        accept("[]"), accept("{}"), accept("[null]"), accept("[true]"), accept("[false]"),
        accept("0"), accept("-0"), accept("-0.0"), accept("1E2"), accept("1e-2"), accept("1E+2"),
        accept("0.5"), accept("-1.25e-10"), accept("[0e0]"), accept("[0E-0]"), accept("[-0e+0]"),
        accept("[1.0e+01]"), accept("123456789012345678901234567890", "integer beyond Int64"),
        accept("1e999", "exponent beyond Double: infinity"), accept("1e-999", "underflow to zero"),
        accept("\"x\""), accept("null"), accept("true"), accept("false"), accept("\"\""), accept("\" \""),
        accept(#""\u0000""#, "escaped NUL"), accept(#""a\u0000b""#, "escaped NUL inside"),
        accept(#""\uD834\uDD1E""#, "surrogate pair"), accept(#""\uDBFF\uDFFF""#, "highest pair"),
        accept(#""\/""#), accept(#""\"""#), accept(#""\\u0041""#, "escaped backslash then u0041"),
        accept(#""\u0061\u00e9\u65E5""#), accept(#""\uFFFF""#, "noncharacter escape"),
        accept(#""\uFDD0""#, "noncharacter escape"), accept(#""\u2028\u2029""#),
        accept("\"日本語 é 😀\""), accept("\"\u{2028}\"", "raw U+2028"),
        accept(bytes: [0x22, 0xEF, 0xBF, 0xBF, 0x22], "raw U+FFFF"),
        accept(bytes: [0x22, 0xF4, 0x8F, 0xBF, 0xBF, 0x22], "raw U+10FFFF"),
        accept(bytes: [0x22, 0x7F, 0x22], "raw DEL is not a control character for JSON"),
        accept(#"{"":0}"#, "empty key"), accept(#"{"a":1,"a":2}"#, "duplicate keys"),
        accept("[1,[2,[3]]]"), accept(#"{"a":{"b":{}}}"#), accept(" \t\r\n[ \t\r\n1 \t\r\n, 2 ] \n", "all four whitespace bytes"),
        accept(#"{"a" : [ ] }"#), accept("[\n]"), accept("[-1]"), accept("[\"\"]"),
        accept(bytes: [0xEF, 0xBB, 0xBF] + Array("{}".utf8), "UTF-8 BOM (skipped by choice)"),
        accept(String(repeating: "[", count: 500) + String(repeating: "]", count: 500), "500 nested arrays"),
    ]

    /// Not JSON: each must throw `JSONSyntaxError`.
    static let invalid: [Case] = [
        reject("[1,]"), reject("[,1]"), reject("[1,,2]"), reject(#"{"a":1,}"#), reject("{,}"),
        reject(#"{"a"}"#), reject(#"{"a":}"#), reject(#"{"a" "b"}"#), reject("{a:1}"), reject("{'a':1}"),
        reject("['a']"), reject("[01]"), reject("[-01]"), reject("[00]"), reject("[1.]"), reject("[.1]"),
        reject("[1.e1]"), reject("[1e]"), reject("[1e+]"), reject("[+1]"), reject("[-]"), reject("[- 1]"),
        reject("[NaN]"), reject("[Infinity]"), reject("[-Infinity]"), reject("[0x10]"), reject("[1_000]"),
        reject("[True]"), reject("[nul]"), reject("[tru]"), reject("[nulll]"), reject("[tRue]"),
        reject(#"["\x"]"#), reject(#"["\'"]"#), reject(#"["\u12"]"#), reject(#"["\uZZZZ"]"#),
        reject(#"["\uD800"]"#, "lone high surrogate"), reject(#"["\uDC00"]"#, "lone low surrogate"),
        reject(#"["\uD800\u0041"]"#, "high surrogate then non-surrogate"),
        reject(#"["\uDD1E\uD834"]"#, "inverted surrogate pair"),
        reject("[\"a\nb\"]", "raw newline in string"), reject("[\"\t\"]", "raw tab in string"),
        reject(bytes: [0x5B, 0x22, 0x00, 0x22, 0x5D], "raw NUL in string"),
        reject(#"["abc"#), reject("\""), reject("["), reject("]"), reject("{"), reject("}"),
        reject(""), reject(" "), reject("[1] [2]"), reject("[1]x"), reject("[1]]"), reject(#"{"a":1}}"#),
        reject("// c\n1"), reject("/* */1"), reject("# c\n1"), reject("[1 /*c*/]"), reject("[1,2"),
        reject(#"{"a":1"#), reject(#"{"a""#), reject(#"{"a":"#), reject("[\u{0B}]", "vertical tab is not whitespace"),
        reject("[\u{0C}]", "form feed is not whitespace"), reject("[\u{A0}1]", "NBSP is not whitespace"),
        reject(bytes: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("{}".utf8), "two BOMs"),
        reject(bytes: [0xFF], "byte 0xFF"), reject(bytes: [0x5B, 0x22, 0xFF, 0x22, 0x5D], "0xFF in string"),
        reject(bytes: [0x22, 0xC0, 0x80, 0x22], "overlong NUL"),
        reject(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], "UTF-8 encoded surrogate"),
        reject(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "above U+10FFFF"),
        reject(bytes: [0x22, 0xE6, 0x97, 0x22], "truncated sequence"),
        reject(bytes: [0x22, 0x80, 0x22], "lone continuation byte"),
        reject(bytes: [0x22, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x22], "5-byte form"),
        reject(bytes: [0x22, 0xE9, 0x22], "ISO Latin-1 é"),
        reject(bytes: [0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00], "UTF-16LE with BOM"),
        reject(bytes: [0x00, 0x5B, 0x00, 0x5D], "UTF-16BE without BOM"),
        reject(bytes: Array("[1]".utf8) + [0x00], "trailing NUL"),
        reject(bytes: [0x00], "lone NUL"), reject("'x'"), reject("[undefined]"),
        reject(#"{"a":1 "b":2}"#), reject(#"{"a"::1}"#), reject(#"{"a":1,,"b":2}"#), reject("[1:2]"),
        reject(#"{"a",1}"#), reject(#"["a",]"#), reject("[[]"), reject("[]]"), reject("{[]:1}"),
        reject("{1:1}"), reject("{null:1}"), reject(#"["\"]"#), reject(#""\u00""#), reject("[1e1.5]"),
        reject("[1.5.5]"), reject("[--1]"), reject("[1-]"), reject("[2.e3]"), reject("[1 true]"),
        reject(String(repeating: "[", count: 513) + String(repeating: "]", count: 513), "513 nested arrays"),
    ]

    @Test func tableIsLargeEnough() {
        #expect(Self.valid.count + Self.invalid.count >= 80)
    }

    @Test(arguments: valid + invalid)
    func handWrittenCase(_ testCase: Case) {
        let error = syntaxError(testCase.bytes)
        if testCase.accept {
            #expect(error == nil, "\(error?.description ?? "")")
        } else {
            #expect(error != nil)
        }
    }

    // MARK: JSONTestSuite (optional)

    /// Outcomes chosen for the suite's implementation-defined (`i_`) files. Numbers out of range are
    /// accepted (no exact `Int`, `doubleValue` infinite or zero); anything that is not well-formed UTF-8
    /// or has an unpaired surrogate escape is rejected (strictness is the point of this reader); a UTF-8
    /// BOM is skipped; 500 levels of nesting are within the default limit of 512.
    static let implementationDefined: [String: Bool] = [
        "i_number_double_huge_neg_exp.json": true,
        "i_number_huge_exp.json": true,
        "i_number_neg_int_huge_exp.json": true,
        "i_number_pos_double_huge_exp.json": true,
        "i_number_real_neg_overflow.json": true,
        "i_number_real_pos_overflow.json": true,
        "i_number_real_underflow.json": true,
        "i_number_too_big_neg_int.json": true,
        "i_number_too_big_pos_int.json": true,
        "i_number_very_big_negative_int.json": true,
        "i_object_key_lone_2nd_surrogate.json": false,
        "i_string_1st_surrogate_but_2nd_missing.json": false,
        "i_string_1st_valid_surrogate_2nd_invalid.json": false,
        "i_string_UTF-16LE_with_BOM.json": false,
        "i_string_UTF-8_invalid_sequence.json": false,
        "i_string_UTF8_surrogate_U+D800.json": false,
        "i_string_incomplete_surrogate_and_escape_valid.json": false,
        "i_string_incomplete_surrogate_pair.json": false,
        "i_string_incomplete_surrogates_escape_valid.json": false,
        "i_string_invalid_lonely_surrogate.json": false,
        "i_string_invalid_surrogate.json": false,
        "i_string_invalid_utf-8.json": false,
        "i_string_inverted_surrogates_U+1D11E.json": false,
        "i_string_iso_latin_1.json": false,
        "i_string_lone_second_surrogate.json": false,
        "i_string_lone_utf8_continuation_byte.json": false,
        "i_string_not_in_unicode_range.json": false,
        "i_string_overlong_sequence_2_bytes.json": false,
        "i_string_overlong_sequence_6_bytes.json": false,
        "i_string_overlong_sequence_6_bytes_null.json": false,
        "i_string_truncated-utf-8.json": false,
        "i_string_utf16BE_no_BOM.json": false,
        "i_string_utf16LE_no_BOM.json": false,
        "i_structure_500_nested_arrays.json": true,
        "i_structure_UTF-8_BOM_empty_object.json": true,
    ]

    /// The `test_parsing` directory: `$TIPCAT_JSONTESTSUITE`, else the fixtures folder, if it has files.
    static let suiteDirectory: URL? = {
        let fixtures = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/JSONTestSuite/test_parsing")
        let candidates = [ProcessInfo.processInfo.environment["TIPCAT_JSONTESTSUITE"].map { URL(fileURLWithPath: $0) }, fixtures]
        for case let candidate? in candidates {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: candidate.path)) ?? []
            if names.contains(where: { $0.hasSuffix(".json") }) { return candidate }
        }
        return nil
    }()

    @Test(.enabled(if: suiteDirectory != nil, "JSONTestSuite files not present; see Tests/Fixtures/JSONTestSuite/README.md"))
    func jsonTestSuite() throws {
        let directory = try #require(Self.suiteDirectory)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
        var counts = (y: 0, n: 0, i: 0)
        for name in names {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            let error = syntaxError([UInt8](data))
            switch name.prefix(2) {
            case "y_":
                #expect(error == nil, "\(name): \(error?.description ?? "")")
                counts.y += 1
            case "n_":
                #expect(error != nil, "\(name) should be rejected")
                counts.n += 1
            case "i_":
                let expected = Self.implementationDefined[name]
                #expect(expected != nil, "\(name) has no recorded outcome")
                if let expected { #expect((error == nil) == expected, "\(name): \(error?.description ?? "accepted")") }
                counts.i += 1
            default:
                break
            }
        }
        #expect(counts.y > 90 && counts.n > 180 && counts.i == Self.implementationDefined.count)
    }
}
