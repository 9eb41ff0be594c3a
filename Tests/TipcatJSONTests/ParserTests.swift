import Testing
import TipcatCore
import TipcatJSON

@Suite struct ParserValueTests {
    @Test func scalarsAtTopLevel() throws {
        #expect(try parse("null").root.value == .null)
        #expect(try parse(" true ").root.value == .bool(true))
        #expect(try parse("\tfalse\r\n").root.value == .bool(false))
        #expect(try parse("\"hi\"").root.value == .string("hi"))
        #expect(try parse("42").root.value.numberValue?.intValue == 42)
        #expect(try parse("  7").root.offset == 2)
    }

    @Test func containersKeepOrderAndDuplicates() throws {
        let document = try parse(#"{"b": 1, "a": [true, null, "x"], "b": 2}"#)
        let object = try #require(document.root.value.objectValue)
        #expect(object.keys == ["b", "a", "b"])
        #expect(object["b"]?.value.numberValue?.intValue == 1)  // first match
        #expect(object["missing"] == nil)
        let array = try #require(object["a"]?.value.arrayValue)
        #expect(array.map(\.value) == [.bool(true), .null, .string("x")])
        #expect(try parse("[]").root.value == .array([]))
        #expect(try parse("{ }").root.value == .object(JSONObject()))
        #expect(try parse("[[],[[]],{}]").root.value.arrayValue?.count == 3)
    }

    @Test func numbers() throws {
        func number(_ text: String) throws -> JSONNumber {
            try #require(try parse(text).root.value.numberValue)
        }
        let plain = try number("-12")
        #expect(plain.text == "-12" && plain.isInteger && plain.intValue == -12 && plain.doubleValue == -12)
        let fraction = try number("1.50")
        #expect(fraction.text == "1.50" && !fraction.isInteger && fraction.intValue == nil && fraction.doubleValue == 1.5)
        let exponent = try number("2E+3")
        #expect(!exponent.isInteger && exponent.intValue == nil && exponent.doubleValue == 2000)
        #expect(try number("0").intValue == 0)
        #expect(try number("-0").doubleValue.sign == .minus)
        #expect(try number("9223372036854775807").intValue == Int.max)
        #expect(try number("-9223372036854775808").intValue == Int.min)
        // Overflow: still an integer as written, no exact Int, but a double.
        let big = try number("9223372036854775808")
        #expect(big.isInteger && big.intValue == nil && big.doubleValue == 9_223_372_036_854_775_808.0)
        let huge = try number("-123456789012345678901234567890")
        #expect(huge.intValue == nil && huge.doubleValue == -1.2345678901234568e29)
        #expect(try number("1e999").doubleValue == .infinity)
        #expect(try number("1e-999").doubleValue == 0)
        // Above 2^53 the double comes from the text, correctly rounded.
        #expect(try number("9007199254740993").doubleValue == 9_007_199_254_740_992.0)
        #expect(try number("0.1").doubleValue == 0.1)
    }

    @Test func numberTextInitializer() {
        #expect(JSONNumber(text: "12")?.intValue == 12)
        #expect(JSONNumber(text: "1.5e2")?.doubleValue == 150)
        #expect(JSONNumber(text: "") == nil)
        #expect(JSONNumber(text: "01") == nil)
        #expect(JSONNumber(text: "1 ") == nil)
        #expect(JSONNumber(text: "-") == nil)
        #expect(JSONNumber(text: "+1") == nil)
    }

    @Test func stringsDecodeEscapes() throws {
        let text = #""a\"b\\c\/d\b\f\n\r\t \u00e9\u65E5 \ud83d\ude00 \u0000""#
        #expect(try parse(text).root.value == .string("a\"b\\c/d\u{8}\u{C}\n\r\t é日 😀 \u{0}"))
        #expect(try parse("\"héllo 日本 🎉\"").root.value == .string("héllo 日本 🎉"))
        // Long strings exercise the 8-byte scanner on both sides of an escape.
        let long = String(repeating: "abcdefgh", count: 40)
        #expect(try parse("\"\(long)\\n\(long)\"").root.value == .string(long + "\n" + long))
        #expect(try parse("\"\(long)é\(long)\"").root.value == .string(long + "é" + long))
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let document = try parseBytes([0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8))
        #expect(document.root.offset == 3)
        #expect(document.root.value.objectValue?["a"]?.value.numberValue?.intValue == 1)
        // Only at the very start.
        #expect(syntaxError([0x20, 0xEF, 0xBB, 0xBF, 0x31]) != nil)
    }

    @Test func valueAccessors() throws {
        let root = try parse(#"[1, "s", true, null, {}, []]"#).root.value
        let values = try #require(root.arrayValue).map(\.value)
        #expect(values.map(\.kindName) == ["number", "string", "boolean", "null", "object", "array"])
        #expect(values[1].stringValue == "s" && values[0].stringValue == nil)
        #expect(values[2].boolValue == true && values[3].isNull && !values[2].isNull)
        #expect(values[4].objectValue?.isEmpty == true && values[5].arrayValue?.isEmpty == true)
    }

    @Test func equalityIgnoresOffsets() throws {
        let a = try parse(#"{"k": [1, 2]}"#).root
        let b = try parse(#"   {  "k"  :  [ 1 , 2 ] }"#).root
        #expect(a.offset != b.offset)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.value == ["k": [1, 2]])
        #expect(try parse("1.0").root != parse("1").root)  // numbers compare by text
    }
}

@Suite struct PositionTests {
    static let text = """
        {
          "title": "Découvrez 日本",
          "list": [1, "é", {"k": null}],
        \t"last": true
        }
        """

    @Test func valuesAndKeysHaveLineAndColumn() throws {
        let document = try parse(Self.text)
        let object = try #require(document.root.value.objectValue)
        #expect(document.location(of: document.root) == SourceLocation(file: "t.json", line: 1, column: 1))
        let title = try #require(object.member("title"))
        #expect(lineColumn(document.location(ofKey: title)) == "2:3")
        #expect(lineColumn(document.location(of: title.value)) == "2:12")
        let list = try #require(object["list"]?.value.arrayValue)
        #expect(lineColumn(document.location(of: list[0])) == "3:12")
        #expect(lineColumn(document.location(of: list[1])) == "3:15")
        // After "é" (2 bytes, 1 column): the object and its key.
        #expect(lineColumn(document.location(of: list[2])) == "3:20")
        let inner = try #require(list[2].value.objectValue?.members.first)
        #expect(lineColumn(document.location(ofKey: inner)) == "3:21")
        #expect(lineColumn(document.location(of: inner.value)) == "3:26")
        let last = try #require(object.member("last"))
        #expect(lineColumn(document.location(ofKey: last)) == "4:2")
        #expect(lineColumn(document.location(of: last.value)) == "4:10")
        #expect(document.location(ofByte: last.keyOffset) == document.location(ofKey: last))
        #expect(document.location(of: JSONNode(.null)) == SourceLocation(file: "t.json", line: 1, column: 1))
    }

    @Test func errorsOnLaterLinesAfterNonASCIIText() throws {
        let source = SourceFile(path: "tips/NewTrail.json", text: """
            {
              "title": "Découvrez 日本",
              "message": "ok" "oops"
            }
            """)
        do {
            _ = try JSONDocument.parse(source)
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "expected ',' or '}' after object member, found '\"'")
            #expect(error.location(in: source).description == "tips/NewTrail.json:3:19")
            let diagnostic = error.diagnostic(in: source)
            #expect(diagnostic.severity == .error && diagnostic.ruleID == "invalid-json")
        }
        let bad = SourceFile(path: "x.json", bytes: Array("[\"日本\",\n  \"é".utf8) + [0xFF] + Array("\"]".utf8))
        do {
            _ = try JSONDocument.parse(bad)
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "invalid UTF-8 byte 0xFF")
            #expect(lineColumn(error.location(in: bad)) == "2:5")
        }
    }
}

/// `JSONDocument.duplicateKeys()`: every object at any depth, small (scanned) and large (hashed), in source order.
@Suite struct DuplicateKeyTests {
    @Test func everyObjectIsChecked() throws {
        let many = (0..<50).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        let text = #"{"a": 1, "b": [{"x": 1, "x": 2}], "c": {\#(many), "k7": 0}, "a": 3}"#
        let document = try JSONDocument.parse(text: text)
        let found = document.duplicateKeys().map { ($0.first.key, $0.first.keyOffset, $0.duplicate.keyOffset) }
        #expect(found.map(\.0) == ["x", "k7", "a"])
        for (key, first, duplicate) in found {
            #expect(first < duplicate)
            let bytes = Array(text.utf8)
            #expect(String(decoding: bytes[first + 1 ..< first + 1 + key.utf8.count], as: UTF8.self) == key)
            #expect(String(decoding: bytes[duplicate + 1 ..< duplicate + 1 + key.utf8.count], as: UTF8.self) == key)
        }
        #expect(try JSONDocument.parse(text: #"{"a": {"b": 1}, "b": {"a": 2}}"#).duplicateKeys().isEmpty)
    }

    /// What the parser finds as objects close equals a walk over the finished tree, on random documents.
    @Test func theParserFindsWhatAWalkFinds() throws {
        var random = SeededGenerator(seed: 41)
        func value(_ depth: Int) -> String {
            switch Int.random(in: 0..<(depth > 3 ? 2 : 4), using: &random) {
            case 0: return "1"
            case 1: return "\"s\""
            case 2: return "[" + (0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
            default:
                let keys = (0..<Int.random(in: 0...12, using: &random)).map { _ in "\"k\(Int.random(in: 0..<6, using: &random))\"" }
                return "{" + keys.map { $0 + ":" + value(depth + 1) }.joined(separator: ",") + "}"
            }
        }
        for _ in 0..<300 {
            let document = try JSONDocument.parse(text: value(0))
            let parsed = document.duplicateKeys().map { [$0.first.keyOffset, $0.duplicate.keyOffset] }
            let walked = document.duplicateKeysByWalking().map { [$0.first.keyOffset, $0.duplicate.keyOffset] }
            #expect(parsed == walked)
        }
    }

    @Test func deepNestingDoesNotRecurse() throws {
        let depth = 5_000
        let text = String(repeating: #"{"a": "#, count: depth) + #"{"z": 1, "z": 2}"# + String(repeating: "}", count: depth)
        let document = try JSONDocument.parse(text: text, maxDepth: JSONDocument.depthLimit)
        #expect(document.duplicateKeys().map(\.duplicate.key) == ["z"])
    }
}

extension JSONDocument {
    /// `duplicateKeys()` found by walking the tree (what the parser must agree with). Walks with
    /// an explicit stack, so deep nesting cannot overflow the call stack.
    func duplicateKeysByWalking() -> [(first: JSONMember, duplicate: JSONMember)] {
        var found: [(first: JSONMember, duplicate: JSONMember)] = []
        var pending: [JSONNode] = [root]
        while let node = pending.popLast() {
            switch node.value {
            case .object(let object):
                found += object.duplicateKeys()
                for member in object.members.reversed() { pending.append(member.value) }
            case .array(let elements):
                for element in elements.reversed() { pending.append(element) }
            default:
                break
            }
        }
        return found.sorted { $0.duplicate.keyOffset < $1.duplicate.keyOffset }
    }
}
