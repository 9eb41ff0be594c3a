import Testing
import TipcatCore
import TipcatJSON

@Suite struct StringLocationTests {
    /// Column of the decoded string's UTF-8 offset `offset` inside the string value of `{"r": <literal>}`.
    private func column(_ literal: String, _ offset: Int) throws -> Int {
        let document = try parse(#"{"r": "# + literal + "}")
        let node = try #require(document.root.value.objectValue?["r"])
        let location = document.location(inString: node, atUTF8Offset: offset)
        #expect(location.line == 1)
        return location.column
    }

    @Test func plainStringsMapOneToOne() throws {
        // {"r": "abc"}: the quote is column 7, 'a' is column 8.
        #expect(try column(#""abc""#, 0) == 8)
        #expect(try column(#""abc""#, 2) == 10)
        #expect(try column(#""abc""#, 3) == 11)  // end: the closing quote
        #expect(try column(#""abc""#, 99) == 11)
        #expect(try column(#""abc""#, -5) == 8)
        #expect(try column(#""""#, 0) == 8)
    }

    @Test func escapesShiftColumns() throws {
        // Decoded "a\nb": 'b' is decoded offset 2, file column 8 + 1 + 2.
        #expect(try column(#""a\nb""#, 1) == 9)
        #expect(try column(#""a\nb""#, 2) == 11)
        // \u00e9 decodes to 2 bytes; both map to the escape; 'x' after it is column 8 + 6.
        #expect(try column(#""\u00e9x""#, 0) == 8)
        #expect(try column(#""\u00e9x""#, 1) == 8)
        #expect(try column(#""\u00e9x""#, 2) == 14)
        // \u65e5 decodes to 3 bytes.
        #expect(try column(#""\u65e5x""#, 3) == 14)
        // A surrogate pair (12 bytes in the file) decodes to 4 bytes.
        #expect(try column(#""\ud83d\ude00x""#, 3) == 8)
        #expect(try column(#""\ud83d\ude00x""#, 4) == 20)
        #expect(try column(#""\"q\"""#, 1) == 10)
        #expect(try column(#""\\\/z""#, 2) == 12)
    }

    @Test func rawNonASCIICountsAsOneColumn() throws {
        // "é日x": é is 2 bytes, 日 3 bytes, each one column.
        #expect(try column("\"é日x\"", 2) == 9)
        #expect(try column("\"é日x\"", 5) == 10)
        #expect(try column("\"é日x\"", 4) == 9)  // inside 日: its first byte
    }

    @Test func ruleTextErrorLandsOnTheRightCharacter() throws {
        // A rule written with an escaped quote and a tab: the rule parser reports an error at '>' (decoded
        // offset), and the location must point at '>' in the file.
        let text = """
            {
              "rules": [
                "$name == \\"Jos\\u00e9\\"\\t>> 3"
              ]
            }
            """
        let document = try parse(text)
        let rule = try #require(document.root.value.objectValue?["rules"]?.value.arrayValue?.first)
        let decoded = try #require(rule.value.stringValue)
        #expect(decoded == "$name == \"José\"\t>> 3")
        let utf8 = Array(decoded.utf8)
        let offset = try #require(utf8.firstIndex(of: UInt8(ascii: ">")))
        let location = document.location(inString: rule, atUTF8Offset: offset)
        let line = try #require(document.source.lineText(location.line))
        #expect(location.line == 3)
        #expect(Array(line)[location.column - 1] == ">")
    }

    @Test func nonStringNodesFallBackToTheirOwnLocation() throws {
        let document = try parse("[1, \"a\"]")
        let nodes = try #require(document.root.value.arrayValue)
        #expect(document.location(inString: nodes[0], atUTF8Offset: 3) == document.location(of: nodes[0]))
        #expect(document.location(inString: JSONNode("x"), atUTF8Offset: 0) == document.location(ofByte: 0))
    }
}
