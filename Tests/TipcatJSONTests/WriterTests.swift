import Testing
import TipcatJSON

@Suite struct WriterTests {
    static let sample: JSONValue = [
        "b": [1, true, .null, 2.5],
        "a": "x",
        "empty": [:],
        "none": [],
        "nested": ["z": 1, "y": ["k": "v"]],
    ]

    @Test func compactHasNoWhitespace() {
        #expect(Self.sample.serialized() == #"{"b":[1,true,null,2.5],"a":"x","empty":{},"none":[],"nested":{"z":1,"y":{"k":"v"}}}"#)
        #expect(JSONValue.null.serialized() == "null")
        #expect(JSONValue.string("").serialized() == #""""#)
    }

    @Test func prettyIndentsByTwo() {
        let expected = """
            {
              "b": [
                1,
                true,
                null,
                2.5
              ],
              "a": "x",
              "empty": {},
              "none": [],
              "nested": {
                "z": 1,
                "y": {
                  "k": "v"
                }
              }
            }
            """
        #expect(Self.sample.serialized(pretty: true) == expected)
    }

    @Test func sortedKeysAreCanonical() throws {
        #expect(Self.sample.serialized(sortedKeys: true)
            == #"{"a":"x","b":[1,true,null,2.5],"empty":{},"nested":{"y":{"k":"v"},"z":1},"none":[]}"#)
        // Code point (UTF-8 byte) order, not locale order: "Z" < "a" < "b" < "é"; equal keys keep their order.
        let value: JSONValue = ["é": 1, "b": 2, "a": 3, "Z": 4, "a": 5]
        #expect(value.serialized(sortedKeys: true) == #"{"Z":4,"a":3,"a":5,"b":2,"é":1}"#)
        // Same content in a different order gives the same bytes.
        let first = try parse(#"{"x": {"q": 1, "p": [{"n": 2, "m": 3}]}, "w": null}"#).root.value
        let second = try parse(#"{"w": null, "x": {"p": [{"m": 3, "n": 2}], "q": 1}}"#).root.value
        #expect(first != second)
        #expect(first.serialized(sortedKeys: true) == second.serialized(sortedKeys: true))
        #expect(first.serialized(pretty: true, sortedKeys: true) == second.serialized(pretty: true, sortedKeys: true))
    }

    @Test func escapesOnlyWhatMustBeEscaped() {
        let text = "q\" b\\ \u{8}\u{C}\n\r\t \u{1}\u{1F}\u{0} / é 日 😀 \u{7F} \u{2028}\u{2029}"
        let expected = #""q\" b\\ \b\f\n\r\t \u0001\u001f\u0000 / é 日 😀 "# + "\u{7F}" + #" \u2028\u2029""#
        #expect(JSONValue.string(text).serialized() == expected)
        // Keys are escaped the same way.
        #expect(JSONValue.object([("a\"\n", 1)]).serialized() == #"{"a\"\n":1}"#)
    }

    @Test func escapesAtEveryPositionOfLongStrings() throws {
        // The writer skips 8 bytes at a time; put each special character at every offset around that.
        let specials: [(String, String)] = [
            ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{1F}", #"\u001f"#), ("\u{2028}", #"\u2028"#),
            ("é", "é"), ("\u{2030}", "\u{2030}"), ("\u{7F}", "\u{7F}"),
        ]
        for (character, escaped) in specials {
            for position in 0..<24 {
                let before = String(repeating: "a", count: position)
                let after = String(repeating: "b", count: 23 - position)
                let written = JSONValue.string(before + character + after).serialized()
                #expect(written == "\"" + before + escaped + after + "\"")
                #expect(try parse(written).root.value == .string(before + character + after))
            }
        }
    }

    @Test func numbersAreWrittenAsTheirText() throws {
        let value = try parse("[1.50e+2, -0, 100000000000000000000000, 1E-7]").root.value
        #expect(value.serialized() == "[1.50e+2,-0,100000000000000000000000,1E-7]")
    }

    @Test func builders() {
        #expect(JSONValue.int(-42).serialized() == "-42")
        #expect(JSONValue.double(0.1).serialized() == "0.1")
        #expect(JSONValue.double(1.0).serialized() == "1.0")
        #expect(JSONValue.double(1e-7).serialized() == "1e-7")
        #expect(JSONValue.double(1e20).serialized() == "1e+20")
        #expect(JSONValue.double(-2.5e-300).serialized() == "-2.5e-300")
        #expect(JSONValue.double(.nan) == .null)
        #expect(JSONValue.double(.infinity) == .null)
        #expect(JSONValue.double(0.1).numberValue?.doubleValue == 0.1)
        #expect(JSONValue.int(7).numberValue?.intValue == 7)
        #expect(JSONValue.array([1, "x"]).serialized() == #"[1,"x"]"#)
        #expect(JSONValue.object([("k", true), ("k", false)]).serialized() == #"{"k":true,"k":false}"#)
        let literal: JSONValue = ["s": "t", "i": 3, "b": false, "d": 0.5, "a": [1, [2]], "o": ["x": .null]]
        #expect(literal.serialized() == #"{"s":"t","i":3,"b":false,"d":0.5,"a":[1,[2]],"o":{"x":null}}"#)
        // Built nodes have no source offset.
        #expect(literal.objectValue?.members.first?.keyOffset == -1)
        #expect(literal.objectValue?["a"]?.offset == -1)
    }

    @Test func doublesRoundTripThroughText() throws {
        for value in [0.1, 1.0 / 3.0, 123456.789, Double.leastNonzeroMagnitude, 1.7976931348623157e308, -0.0, 1e16, 2.5e-5] {
            let text = JSONValue.double(value).serialized()
            let back = try #require(try parse(text).root.value.numberValue)
            #expect(back.doubleValue == value, "\(text)")
            #expect(back.doubleValue.sign == value.sign)
        }
    }

    @Test func parseSerializeParseRoundTrip() throws {
        let text = """
            \u{FEFF}{
              "sourceLanguage" : "en",
              "strings" : {
                "NewTrailTip.title" : {
                  "comment" : "Tab\\there, quote \\" and \\u00e9 and \\ud83d\\ude00",
                  "localizations" : {
                    "ja" : { "stringUnit" : { "state" : "translated", "value" : "新しいトレイル" } },
                    "pl" : { "variations" : { "plural" : {
                      "one" : { "stringUnit" : { "state" : "translated", "value" : "# szlak" } }
                    } } }
                  }
                }
              },
              "numbers": [0, -0.0, 1e400, 12345678901234567890, 3.14],
              "dup": 1, "dup": [null, true, false, {}, []]
            }
            """
        let document = try parse(text)
        for pretty in [false, true] {
            for sorted in [false, true] {
                let written = document.root.value.serialized(pretty: pretty, sortedKeys: sorted)
                let again = try parse(written)
                if sorted {
                    #expect(again.root.value.serialized(sortedKeys: true) == document.root.value.serialized(sortedKeys: true))
                } else {
                    #expect(again.root == document.root)
                }
                // Writing is deterministic and idempotent.
                #expect(again.root.value.serialized(pretty: pretty, sortedKeys: sorted) == written)
            }
        }
    }
}
