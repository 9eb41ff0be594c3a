import Testing
import TipcatCore
@testable import TipcatJSON

/// The two-core parse of large documents (a second parser started at a guessed offset, its work taken over
/// when the guess was a key of an object): whatever the offset, the tree (offsets included), the duplicate keys
/// and the syntax errors are exactly those of a parse on one core.
@Suite struct SplitParseTests {
    /// Everything about a parse, offsets included (`JSONNode ==` ignores them).
    static func transcript(_ result: Result<JSONDocument, JSONSyntaxError>) -> String {
        switch result {
        case .failure(let error): return "error \(error.offset): \(error.message)"
        case .success(let document):
            var out = ""
            var pending: [(String, JSONNode)] = [("", document.root)]
            while let (prefix, node) = pending.popLast() {
                out += prefix + "@\(node.offset) "
                switch node.value {
                case .null: out += "null\n"
                case .bool(let value): out += "\(value)\n"
                case .number(let number): out += "#\(number.text)\n"
                case .string(let text): out += "\"\(text)\"\n"
                case .array(let elements):
                    out += "[\(elements.count)]\n"
                    for element in elements.reversed() { pending.append((prefix + " ", element)) }
                case .object(let object):
                    out += "{\(object.count)}\n"
                    for member in object.members.reversed() { pending.append((prefix + " \(member.key)@\(member.keyOffset):", member.value)) }
                }
            }
            for (first, duplicate) in document.duplicates { out += "dup \(first.key)@\(first.keyOffset) \(duplicate.keyOffset)\n" }
            return out
        }
    }

    static func sequential(_ bytes: [UInt8], maxDepth: Int = 512) -> String {
        transcript(Result { () throws(JSONSyntaxError) in try JSONDocument.parse(SourceFile(path: "t.json", bytes: bytes), maxDepth: maxDepth, splitAt: -1).document })
    }

    /// The parse with the second parser started at `offset`, and whether its work was taken over.
    static func split(_ bytes: [UInt8], at offset: Int, maxDepth: Int = 512) -> (String, Bool) {
        var took = false
        let result = Result { () throws(JSONSyntaxError) -> JSONDocument in
            let (document, split) = try JSONDocument.parse(SourceFile(path: "t.json", bytes: bytes), maxDepth: maxDepth, splitAt: offset)
            took = split
            return document
        }
        return (transcript(result), took)
    }

    /// Every offset of the document as the guess: same transcript; returns how many guesses were taken over.
    @discardableResult
    static func expectSameAtEveryOffset(_ text: String, maxDepth: Int = 512, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Int {
        let bytes = Array(text.utf8)
        let expected = sequential(bytes, maxDepth: maxDepth)
        var taken = 0
        for offset in 1..<bytes.count {
            let (got, took) = split(bytes, at: offset, maxDepth: maxDepth)
            if took { taken += 1 }
            #expect(got == expected, "split at \(offset) of \(text)", sourceLocation: sourceLocation)
            if got != expected { break }
        }
        return taken
    }

    @Test func keysOfNestedObjectsAreTakenOverExactly() {
        let text = #"{"strings": {"a": {"x": [1, {"y": "},\"z\": 2"}]}, "b": {"c": 3}, "b": 4, "d": [{"e": null}, "f", {"g": true}]}, "version": "1.0", "list": ["h", {"i": []}]}"#
        let taken = Self.expectSameAtEveryOffset(text)
        // Every key that follows a comma in an object is a place where the work is taken over: strings' second
        // "b", both "b"s… (b, b, d), version and list.
        #expect(taken == 5)
    }

    @Test func arraysStringsAndKindsAboveTheGuessAreLearntFromTheSyntax() {
        Self.expectSameAtEveryOffset(#"[{"a": 1, "b": 2}, "s", {"c": [3, {"d": 4, "e": {"f": 5, "g": 6}}, "t"], "h": "u"}]"#)
        Self.expectSameAtEveryOffset(#"[[{"a": 1, "b": {"c": 2}}, "k", 1], {"m": "n", "o": "p"}]"#)
        Self.expectSameAtEveryOffset(#"{"a": [{"b": 1, "c": 2}], "d": {"e": {"f": {"g": 1, "h": 2}, "i": 3}, "j": 4}}   "#)
    }

    @Test func syntaxErrorsAnywhereAreTheSequentialOnes() {
        for text in [
            #"{"a": {"b": 1, "c": 2}, "d": {"e": 3,}, "f": 4}"#,
            #"{"a": {"b": 1, "c": 2}, "d": {"e": 3} "f": 4}"#,
            #"{"a": {"b": 1, "c": 2}, "d": {"e": 3}, "f": 4]"#,
            #"{"a": {"b": 1, "c": 2}, "d": {"e": 3}, "f": 4} x"#,
            #"{"a": {"b": 1, "c": 2}, "d": {"e": 3}, "f": 4"#,
            #"{"a": {"b": 1, "c": 2}, "d": {"e": tru}, "f": 4}"#,
            #"[{"a": 1, "b": 2}, {"c": 3, "d": 4}}"#,
            #"{"a": {"b": 1, "c": 2}, "d": ["e": 3]}"#,
        ] {
            Self.expectSameAtEveryOffset(text)
        }
    }

    @Test func theDepthLimitHoldsAcrossTheGuess() {
        let text = #"{"a": {"b": 1, "c": {"d": {"e": [[1]], "f": 2}}}, "g": 3}"#
        for depth in 1...7 { Self.expectSameAtEveryOffset(text, maxDepth: depth) }
    }

    /// Random documents whose strings are full of brackets, commas and escaped quotes, some with duplicate keys,
    /// some damaged by one byte: the same transcript for every offset.
    @Test func randomDocumentsAtEveryOffset() {
        var random = SeededGenerator(seed: 0x5EED_5917)
        let pieces = ["},", "\\\"", ", \\\"k\\\": ", "]", "{", "\\\\", "x", "é", "日本"]
        func string() -> String {
            "\"" + (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined() + "\""
        }
        func value(_ depth: Int) -> String {
            switch Int.random(in: 0..<(depth > 3 ? 3 : 5), using: &random) {
            case 0: return ["1", "-2.5e3", "true", "null"][Int.random(in: 0..<4, using: &random)]
            case 1, 2: return string()
            case 3: return "[" + (0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth + 1) }.joined(separator: ", ") + "]"
            default:
                let keys = (0..<Int.random(in: 0...5, using: &random)).map { _ in "\"k\(Int.random(in: 0..<5, using: &random))\"" }
                return "{" + keys.map { $0 + ": " + value(depth + 1) }.joined(separator: ",\n ") + "}"
            }
        }
        var taken = 0
        for round in 0..<150 {
            var bytes = Array(("{\"root\": " + value(1) + ", \"tail\": " + value(1) + "}").utf8)
            if round % 3 == 2 {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = Array("{}[],:\" x".utf8)[Int.random(in: 0..<9, using: &random)]
            }
            taken += Self.expectSameAtEveryOffset(String(decoding: bytes, as: UTF8.self))
        }
        #expect(taken > 200)
    }

    /// A large String Catalog-like document is split on its own (no offset given) and parses as on one core.
    @Test func largeDocumentsAreSplitByThemselves() throws {
        var text = "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n"
        var index = 0
        while text.utf8.count < JSONParser.splitThreshold + 1000 {
            text += "    \"Tip\(index).title\" : {\n      \"localizations\" : {\n        \"de\" : {\n          \"stringUnit\" : {\n"
                + "            \"state\" : \"translated\",\n            \"value\" : \"Titel \(index), \\\"zitiert\\\" },\"\n          }\n        }\n      }\n    },\n"
            index += 1
        }
        text += "    \"last\" : {}\n  },\n  \"version\" : \"1.0\"\n}\n"
        let bytes = Array(text.utf8)
        let (document, split) = try JSONDocument.parse(SourceFile(path: "t.json", bytes: bytes), maxDepth: 512, splitAt: nil)
        #expect(split)
        #expect(Self.transcript(.success(document)) == Self.sequential(bytes))
        if case .object(let root) = document.root.value, case .object(let strings)? = root["strings"]?.value {
            #expect(strings.count == index + 1)
        } else {
            Issue.record("no strings object")
        }
    }
}
