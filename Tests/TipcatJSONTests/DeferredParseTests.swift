import Testing
import TipcatCore
@testable import TipcatJSON

/// `JSONDocument.parse(_:maxDepth:deferringMembersOf:)`: the first pass plus every deferred value, parsed, are
/// exactly the document a parse of the whole file gives (tree, offsets, duplicate keys); and the document is valid
/// exactly when the first pass and all deferred values parse, with the whole parse's error when the first pass
/// fails.
@Suite struct DeferredParseTests {
    /// The whole document as `SplitParseTests.transcript` writes it, deferred values parsed and put in place
    /// ("invalid" when one does not parse).
    static func deferredTranscript(_ bytes: [UInt8], maxDepth: Int = 512) -> String {
        let document: JSONDocument
        do {
            document = try JSONDocument.parse(SourceFile(path: "t.json", bytes: bytes), maxDepth: maxDepth, deferringMembersOf: "strings")
        } catch {
            return SplitParseTests.transcript(.failure(error))
        }
        var duplicates = document.duplicateKeys()
        var root = document.root
        if case .object(var object) = root.value {
            for index in object.members.indices where object.members[index].key == "strings" {
                guard case .object(var strings) = object.members[index].value.value else { continue }
                for entry in strings.members.indices where document.isDeferred(strings.members[entry].value) {
                    guard let parsed = try? document.parseDeferred(strings.members[entry].value) else { return "invalid" }
                    strings.members[entry].value = parsed.root
                    duplicates += parsed.duplicateKeys()
                }
                object.members[index].value.value = .object(strings)
            }
            root.value = .object(object)
        }
        let whole = JSONDocument(source: document.source, root: root,
                                 duplicates: duplicates.sorted { $0.duplicate.keyOffset < $1.duplicate.keyOffset })
        return SplitParseTests.transcript(.success(whole))
    }

    /// Deferred and whole parses agree on `bytes`: the same transcript, or (only when a deferred value is
    /// invalid) both invalid.
    static func expectSame(_ bytes: [UInt8], maxDepth: Int = 512, _ comment: @autoclosure () -> String = "",
                           sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let expected = SplitParseTests.sequential(bytes, maxDepth: maxDepth)
        let got = deferredTranscript(bytes, maxDepth: maxDepth)
        if got == "invalid" {
            #expect(expected.hasPrefix("error "), "\(comment()): a deferred value failed, the whole parse did not", sourceLocation: sourceLocation)
        } else {
            #expect(got == expected, "\(comment())", sourceLocation: sourceLocation)
        }
    }

    static let catalog = """
        \u{FEFF}{
          "sourceLanguage" : "en",
          "strings" : {
            "A.title" : {
              "comment" : "c",
              "localizations" : {
                "de" : { "stringUnit" : { "state" : "translated", "value" : "Tipp \\"{x}\\" \\\\ ]}" } },
                "fr" : { "stringUnit" : { "state" : "new", "value" : "é日🙂", "state" : "x" } }
              }
            },
            "B" : [1, {"k": [true, null]}, "s"],
            "C" : "text",
            "D" : 12.5e3,
            "E" : {},
            "A.title" : {"localizations" : {"de" : {"a" : 1, "a" : 2}}},
            "F" : { "x" : "}", "y" : "{[" }
          },
          "version" : "1.0",
          "strings" : {"G" : {"h" : 1}},
          "version" : [1, {"v": {}}]
        }
        """

    @Test func aValidCatalogIsTheWholeParse() {
        Self.expectSame(Array(Self.catalog.utf8))
        Self.expectSame(Array(#"{"strings": {}}"#.utf8))
        Self.expectSame(Array(#"{}"#.utf8))
        Self.expectSame(Array(#"{"strings": 3, "x": {"strings": {"a": {}}}}"#.utf8))
        Self.expectSame(Array(#"[{"strings": {"a": {}}}]"#.utf8))
        Self.expectSame(Array(#""strings""#.utf8))
    }

    @Test func theDepthLimitIsTheWholeParse() {
        let text = #"{"strings": {"a": {"b": [[1]]}, "c": [2]}, "d": [[3]]}"#
        for depth in 1...6 { Self.expectSame(Array(text.utf8), maxDepth: depth, "depth \(depth)") }
    }

    /// Every byte of the catalog replaced by characters that matter to JSON, and every byte deleted: valid
    /// results are the whole parse's, and a document is invalid exactly when the whole parse says so.
    @Test func everyCorruptionAgreesWithTheWholeParse() {
        let bytes = Array(Self.catalog.utf8)
        let replacements: [UInt8] = Array("\"\\{}[],: x0".utf8) + [0x00, 0x0A, 0xC3, 0xFF]
        for index in bytes.indices {
            var deleted = bytes
            deleted.remove(at: index)
            Self.expectSame(deleted, "without byte \(index)")
            for replacement in replacements where replacement != bytes[index] {
                var changed = bytes
                changed[index] = replacement
                Self.expectSame(changed, "byte \(index) as \(replacement)")
            }
        }
        for length in 0..<bytes.count { Self.expectSame(Array(bytes[..<length]), "first \(length) bytes") }
    }

    /// A deferred value's extent is found sixteen bytes at a time: escaped quotes, escaped backslashes and
    /// brackets inside strings at every position around those blocks, and strings cut short, agree with the
    /// whole parse.
    @Test func escapesAndBracketsAtEveryBlockPosition() {
        let pieces = [#"\""#, #"\\"#, "{", "]", "[", "}", #"\\\""#]
        for piece in pieces {
            for padding in 0..<40 {
                let string = String(repeating: "a", count: padding) + piece + String(repeating: "b", count: 40 - padding)
                let text = #"{"strings": {"k": {"v": [""# + string + #"", {"w": "x"}]}, "m": {}}, "n": 1}"#
                #expect(SplitParseTests.sequential(Array(text.utf8), maxDepth: 512).hasPrefix("error ") == false, "\(text)")
                Self.expectSame(Array(text.utf8), "\(piece) after \(padding) bytes")
                // The first pass found the value's end itself (a wrong end would fall back to the whole parse).
                let document = try? JSONDocument.parse(SourceFile(path: "t.json", bytes: Array(text.utf8)), deferringMembersOf: "strings")
                let strings = document?.root.value.objectValue?["strings"]?.value.objectValue
                #expect(strings?["k"].map { document?.isDeferred($0) == true } == true, "\(piece) after \(padding) bytes: not deferred")
                // Cut inside the deferred value (an unterminated string, or an unclosed container).
                for cut in stride(from: 24, to: text.utf8.count, by: 7) {
                    Self.expectSame(Array(text.utf8.prefix(cut)), "\(piece) after \(padding) bytes, first \(cut)")
                }
            }
        }
    }

    @Test func onlyContainerValuesOfTheFirstObjectAreDeferred() throws {
        let document = try JSONDocument.parse(SourceFile(path: "t.json", bytes: Array(Self.catalog.utf8)), deferringMembersOf: "strings")
        let root = try #require(document.root.value.objectValue)
        let strings = try #require(root["strings"]?.value.objectValue)
        #expect(strings.members.map { document.isDeferred($0.value) } == [true, true, false, false, true, true, true])
        #expect(root.members.filter { $0.key == "strings" }.last?.value.value.objectValue?["G"]?.value.objectValue?["h"] != nil)
        // Not a placeholder: a real null, or a node of another document.
        #expect(try document.parseDeferred(JSONNode(.null, offset: 0)) == nil)
        #expect(document.isDeferred(JSONNode(.null, offset: 0)) == false)
        let entry = try #require(try document.parseDeferred(strings.members[0].value))
        #expect(entry.root.offset == strings.members[0].value.offset)
        #expect(entry.duplicateKeys().map(\.duplicate.key) == ["state"])
        #expect(document.duplicateKeys().map(\.duplicate.key) == ["A.title", "strings", "version"])
    }
}
