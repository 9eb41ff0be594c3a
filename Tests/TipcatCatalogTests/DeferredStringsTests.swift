import Foundation
import Testing
import TipcatCore
import TipcatJSON
import TipcatLocalization
import TipcatTestSupport
@testable import TipcatCatalog

/// The String Catalog's entries are parsed one by one as they are decoded unless the loader keeps the parsed
/// file (`keepsStrings`, which parses it whole): both ways give the same table and the same findings, on the
/// fixtures Xcode writes and on broken files.
@Suite struct DeferredStringsTests {
    /// (findings with their notes, table) for the sample catalog with `strings` as its String Catalog.
    static func load(_ directory: String, keepsStrings: Bool) -> ([String], LocalizationTable) {
        var loader = CatalogLoader()
        loader.keepsStrings = keepsStrings
        let result = loader.load(directory: directory)
        let lines = result.diagnostics.map { diagnostic in
            ([diagnostic.description] + diagnostic.notes.map { "  note: \($0.location.map(\.description) ?? "") \($0.message)" })
                .joined(separator: "\n")
        }
        return (lines, result.catalog.localizations)
    }

    /// Loads the sample catalog with `strings` both ways; returns the findings (the same both ways).
    @discardableResult
    static func expectSame(_ strings: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String] {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        try directory.write("Catalog/Localizable.xcstrings", strings)
        let (deferred, deferredTable) = load(catalog, keepsStrings: false)
        let (whole, wholeTable) = load(catalog, keepsStrings: true)
        #expect(deferred == whole, sourceLocation: sourceLocation)
        #expect(deferredTable == wholeTable, sourceLocation: sourceLocation)
        return whole
    }

    /// Decoded and checked, translations keep their messages' texts only (no syntax trees: hundreds of thousands
    /// in a large catalog), and each is still the message its text parses to; the tips' own messages keep theirs.
    @Test func decodedTranslationsKeepNoSyntaxTrees() throws {
        var withSyntax = 0
        for name in ["xcode-features", "plurals", "printf", "substitutions", "device-variations"] {
            let directory = try TemporaryDirectory()
            let catalog = try directory.sampleCatalog()
            try directory.write(
                "Catalog/Localizable.xcstrings",
                try String(contentsOfFile: StringCatalogFixtureTests.fixtures + name + ".xcstrings", encoding: .utf8))
            let loaded = CatalogLoader().load(directory: catalog).catalog
            var translations: [Translation] = []
            for entry in loaded.localizations.entries.values {
                translations += entry.translations.values
                translations += entry.devices.values.flatMap(\.values)
            }
            #expect(!translations.isEmpty, "\(name)")
            for translation in translations {
                switch translation.content {
                case .message(let message):
                    #expect(!message.keepsTree, "\(name): \(message.text)")
                    #expect(try message.parts == Message.parse(message.text).parts)
                    if !message.isPlainText { withSyntax += 1 }
                case .plural(_, let forms):
                    for form in forms.values {
                        #expect(!form.keepsTree, "\(name): \(form.text)")
                        #expect(try form.parts == Message.parsePluralForm(form.text).parts)
                    }
                }
            }
            let tipMessages = loaded.tips.flatMap { [$0.title.message, $0.message?.message].compactMap(\.self) }
            #expect(tipMessages.allSatisfy { $0.keepsTree || $0.isPlainText })
            #expect(tipMessages.contains { $0.keepsTree })
        }
        #expect(withSyntax > 5)
    }

    /// An entry's translations take the room they need, not an array's doubling (eleven locales in room for
    /// sixteen): a catalog has tens of thousands of entries.
    @Test func translationsTakeTheRoomTheyNeed() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let locales = ["ar", "de", "es", "fr", "it", "ja", "ko", "nl", "pl", "pt-BR", "zh-Hans"]
        let localizations = locales.map { "\"\($0)\": {\"stringUnit\": {\"state\": \"translated\", \"value\": \"[\($0)] New trail\"}}" }
        try directory.write("Catalog/Localizable.xcstrings", """
            {"sourceLanguage": "en", "version": "1.0", "strings": {
              "NewTrailTip.title": {"localizations": {\(localizations.joined(separator: ", "))}}}}
            """)
        let entry = try #require(CatalogLoader().load(directory: catalog).catalog.localizations.entries["NewTrailTip.title"])
        #expect(entry.translations.count == locales.count)
        #expect(entry.translations.capacity <= locales.count + 1)
    }

    /// Each key's owner is the first tip that names it, however often tips repeat (a duplicate tip ID names the
    /// same keys again): the same as collecting the keys first to last, each kept once seen; its text is that tip's.
    @Test func aKeysOwnerIsTheFirstTipNamingIt() throws {
        let tips = CatalogLoader().load(directory: sampleCatalogPath).catalog.tips
        #expect(tips.count > 2)
        for repeated in [tips, tips + [tips[0]], [tips[1]] + tips + tips.reversed(), []] {
            let owners = StringCatalogDecoder.firstTips(repeated)
            var firstSeen: [String: Int] = [:]
            var firstText: [String: String] = [:]
            for (index, tip) in repeated.enumerated() {
                tip.forEachLocalizableText { text in
                    guard firstSeen[text.key] == nil else { return }
                    firstSeen[text.key] = index
                    firstText[text.key] = text.source
                }
            }
            #expect(owners == firstSeen)
            // A tip that does not name the key has no text for it.
            #expect(Set(owners.values).allSatisfy { StringCatalogDecoder.source(of: "Nobody.title", tip: $0, in: repeated) == nil })
            #expect(Dictionary(uniqueKeysWithValues: owners.keys.compactMap { key in
                StringCatalogDecoder.source(of: key, tip: owners[key], in: repeated).map { (key, $0.text.source) }
            }) == firstText)
            #expect(StringCatalogDecoder.source(of: "NewTrailTip.title", tip: nil, in: repeated) == nil)
            // Only the keys asked for, each with its first tip.
            let some = Set(firstSeen.keys.sorted().enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element))
            #expect(StringCatalogDecoder.firstTips(repeated, naming: some.contains) == firstSeen.filter { some.contains($0.key) })
            for (index, tip) in repeated.enumerated() {
                tip.forEachLocalizableText { #expect(owners[$0.key].map { $0 <= index } == true) }
            }
        }
    }

    @Test func entriesWithTheSameLocalesShareThem() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        func localizations(_ locales: [String]) -> String {
            locales.map { "\"\($0)\": {\"stringUnit\": {\"state\": \"translated\", \"value\": \"[\($0)] Text\"}}" }.joined(separator: ", ")
        }
        try directory.write("Catalog/Localizable.xcstrings", """
            {"sourceLanguage": "en", "version": "1.0", "strings": {
              "NewTrailTip.title": {"localizations": {\(localizations(["de", "fr", "ja"]))}},
              "NewTrailTip.message": {"localizations": {\(localizations(["ja", "fr", "de"]))}},
              "FindTrailheadTip.title": {"localizations": {\(localizations(["de", "fr"]))}}}}
            """)
        let entries = CatalogLoader().load(directory: catalog).catalog.localizations.entries
        let title = try #require(entries["NewTrailTip.title"]?.translations)
        let message = try #require(entries["NewTrailTip.message"]?.translations)
        let other = try #require(entries["FindTrailheadTip.title"]?.translations)
        #expect(title.keys.map(\.identifier) == ["de", "fr", "ja"] && message.keys == title.keys)
        #expect(title.sharesLocales(with: message))
        #expect(!title.sharesLocales(with: other))
        #expect(message[try #require(LocaleID("ja"))]?.content.text == "[ja] Text")
    }

    @Test func fixturesDecodeTheSameBothWays() throws {
        for name in ["xcode-features", "tip-findings", "plurals", "printf", "substitutions", "device-variations"] {
            let text = try String(contentsOfFile: StringCatalogFixtureTests.fixtures + name + ".xcstrings", encoding: .utf8)
            try Self.expectSame(text)
        }
        try Self.expectSame(try String(contentsOfFile: sampleCatalogPath + "/Localizable.xcstrings", encoding: .utf8))
    }

    @Test func brokenFilesReportTheSameBothWays() throws {
        let entry = #""localizations": {"fr": {"stringUnit": {"state": "translated", "value": "Trouver"}}}"#
        // A syntax error inside an entry is the file's first syntax error, and nothing else of the file is reported.
        let invalid = try Self.expectSame(#"{"sourceLanguage": "de", "strings": {"FindTrailheadTip.title": {"# + entry + #", "x": tru}}, "version": "1.0"}"#)
        #expect(invalid.contains { $0.contains("Localizable.xcstrings:1:") && $0.hasSuffix("[invalid-json]") })
        #expect(!invalid.contains { $0.contains("[source-language-mismatch]") })
        // A syntax error outside the entries, after one.
        try Self.expectSame(#"{"strings": {"FindTrailheadTip.title": {"# + entry + #"}} "version": "1.0"}"#)
        // An unfinished entry, and an entry never closed.
        try Self.expectSame(#"{"strings": {"FindTrailheadTip.title": {"# + entry + #", "comment": "}"#)
        try Self.expectSame(#"{"strings": {"FindTrailheadTip.title": {"comment": "a\"}}}"#)
        // Duplicate keys inside entries, among entries and at the top; a second "strings".
        try Self.expectSame(#"""
            {"sourceLanguage": "en", "strings": {
              "FindTrailheadTip.title": {"comment": "a", "comment": "b", "localizations": {"fr": {"stringUnit": {"state": "translated", "value": "x", "value": "y"}}, "fr": {}}},
              "FindTrailheadTip.title": {"localizations": {}},
              "Unused.key": {"localizations": {"fr": {"a": 1, "a": 2}}}
            }, "strings": {"X": {"y": 1, "y": 2}}, "version": "1.0", "version": "1.0"}
            """#)
        // Entries that are not objects, and a String Catalog that is not an object.
        try Self.expectSame(#"{"strings": {"FindTrailheadTip.title": [1, {"a": 1, "a": 2}], "FindTrailheadTip.message": 3, "Unused": null}}"#)
        try Self.expectSame(#"[{"strings": {"FindTrailheadTip.title": {}}}]"#)
        try Self.expectSame(#"{"strings": []}"#)
        try Self.expectSame("")
    }

    /// Entries in the shape Xcode writes for plain translations are read in place (`PlainEntry`, no tree); anything
    /// else is decoded from its tree. Both give the table and the findings a whole parse gives, at every edge of that
    /// shape: states, empty and escaped values, odd whitespace, findings inside plain entries, and each way out of it.
    @Test func plainEntriesReadInPlaceDecodeAsTheirTrees() throws {
        let unit = #"{"stringUnit": {"state": "translated", "value": "Trouver"}}"#
        // (entry of FindTrailheadTip.title, whether it is read in place)
        let entries: [(String, Bool)] = [
            (#"{"extractionState": "manual", "localizations": {"fr": \#(unit), "de": {"stringUnit": {"value": "Finden", "state": "needs_review"}}}}"#, true),
            ("{\n\t\"localizations\" :\r\n {\"fr\"\t: {  \"stringUnit\" :{\"state\":\"stale\",\"value\" : \"Trouver\" } } } ,\"comment\":\"c\" }\n", true),
            (#"{"comment": "c", "isCommentAutoGenerated": true, "shouldTranslate": false, "localizations": {"fr": {"stringUnit": {"state": "new", "value": ""}}}}"#, true),
            (#"{"shouldTranslate": true, "localizations": {"fr": {"stringUnit": {"state": "translated", "value": "  "}}}}"#, true),
            (#"{"extractionState": "bogus", "localizations": {}}"#, true),
            ("{}", true),
            (#"{"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "Tr\u00f6uver \"x\"\n\ud83c\udf32"}}}}"#, true),
            (#"{"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "Trouvé 🌲 日本"}}}}"#, true),
            (#"{"localizations": {"not a locale": \#(unit), "en": {"stringUnit": {"state": "translated", "value": "Not the tip's text"}}}}"#, true),
            (#"{"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "%@ sentiers %d"}}}}"#, true),
            (#"{"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "{unclosed"}}}}"#, true),
            (#"{"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "{count, plural, one {#} other {# x}}"}}}}"#, true),
            (#"{"localizations": {"fr": {"stringUnit": {"state": "done", "value": "x"}}}}"#, false),
            (#"{"localizations": {"fr": {"stringUnit": {"value": "x"}}}}"#, false),
            (#"{"localizations": {"fr": {"stringUnit": {"state": "translated"}}}}"#, false),
            (#"{"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "x", "extra": 1}}}}"#, false),
            (#"{"localizations": {"fr": {"stringUnit": {"state": "translated", "value": 3}}}}"#, false),
            (#"{"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "x"}, "variations": {}}}}"#, false),
            (#"{"localizations": {"fr": \#(unit), "fr": \#(unit)}}"#, false),
            (#"{"localizations": {"f\u0072": \#(unit)}}"#, false),
            (#"{"localizations": {"frå": \#(unit)}}"#, false),
            (#"{"localizations": {"fr": {"variations": {"plural": {"other": \#(unit)}}}}}"#, false),
            (#"{"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "%#@n@"}, "substitutions": {}}}}"#, false),
            (#"{"localizations": [\#(unit)]}"#, false),
            (#"{"comment": "a", "comment": "b"}"#, false),
            (#"{"comment": 3}"#, false),
            (#"{"shouldTranslate": "no"}"#, false),
            (#"{"extr\u0061ctionState": "manual"}"#, false),
            (#"{"unknown": 1, "localizations": {}}"#, false),
            (#"{"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "\ud800"}}}}"#, false),
        ]
        for (entry, plain) in entries {
            let text = #"{"sourceLanguage": "en", "strings": {"FindTrailheadTip.message": {"localizations": {"fr": \#(unit)}}, "FindTrailheadTip.title": \#(entry), "Unused.key": \#(entry)}, "version": "1.0"}"#
            let document = try JSONDocument.parse(SourceFile(path: "Localizable.xcstrings", text: text), deferringMembersOf: "strings")
            let strings = try #require(document.root.value.objectValue?["strings"]?.value.objectValue)
            let read = strings.members.map { member in document.withCursor(atDeferred: member.value) { PlainEntry.read(&$0) } != nil }
            #expect(read == [true, plain, plain], "\(entry)")
            try Self.expectSame(text)
        }
        // The whole file is one syntax error, however the entry reads.
        let broken = try Self.expectSame(#"{"strings": {"FindTrailheadTip.title": {"shouldTranslate": truex}}}"#)
        #expect(broken.count == 1 && broken[0].hasSuffix("[invalid-json]"))
    }

    /// Entries mutated at random, byte by byte (JSON's own characters, letters, digits, non-ASCII), decode to the same
    /// table, findings, duplicate keys and cache record whether plain entries are read in place or every entry from
    /// its tree: the cursor never takes an entry the tree would read otherwise.
    @Test func mutatedEntriesDecodeTheSameEitherWay() throws {
        let catalog = loadCatalog(sampleCatalogPath)
        let entry = #"{"comment": "c", "extractionState": "manual", "localizations": {"de": {"stringUnit": {"state": "translated", "value": "Finde {trailhead}"}}, "fr": {"stringUnit": {"value": "Trouvé %@ \"x\"", "state": "needs_review"}}}, "shouldTranslate": true}"#
        let alphabet = Array(#"{}[]":,\ tfnrue0123456789aAsSvx-_.é🌲"#.utf8) + [0x0A, 0x09, 0xFF]
        var random = SeededGenerator(seed: 0xC0125)
        var compared = 0
        var plain = 0
        for _ in 0..<1500 {
            var bytes = Array(entry.utf8)
            for _ in 0...Int(random.next() % 2) {
                let at = Int(random.next() % UInt64(bytes.count))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 3 {
                case 0: bytes[at] = byte
                case 1: bytes.insert(byte, at: at)
                default: bytes.remove(at: at)
                }
            }
            let text = Array(#"{"sourceLanguage": "en", "strings": {"FindTrailheadTip.title": "#.utf8) + bytes
                + Array(#", "FindTrailheadTip.message": "#.utf8) + bytes + Array("}}".utf8)
            let source = SourceFile(path: "Localizable.xcstrings", bytes: text)
            guard let document = try? JSONDocument.parse(source, deferringMembersOf: "strings") else { continue }
            func decode(_ plainEntries: Bool) -> ([String], LocalizationTable, [Int], [StringsDecoding.Entry])? {
                let sink = DiagnosticSink()
                let decoder = StringCatalogDecoder(document: document, sink: sink, settings: catalog.settings, tips: catalog.tips)
                guard let (table, duplicates, record) = decoder.decode(recording: { _ in [1, 2, 3] }, plainEntries: plainEntries) else { return nil }
                return (sink.diagnostics.map(\.description), table, duplicates.map(\.duplicate.keyOffset), record?.entries ?? [])
            }
            let inPlace = decode(true)
            let fromTrees = decode(false)
            #expect(inPlace?.0 == fromTrees?.0 && inPlace?.1 == fromTrees?.1 && inPlace?.2 == fromTrees?.2 && inPlace?.3 == fromTrees?.3,
                    "\(String(decoding: bytes, as: UTF8.self))")
            compared += 1
            let strings = document.root.value.objectValue?["strings"]?.value.objectValue
            if let first = strings?.members.first, document.withCursor(atDeferred: first.value, { PlainEntry.read(&$0) }) != nil { plain += 1 }
        }
        // Enough of both kinds: mutated entries that are still plain, and others.
        #expect(compared > 1000 && plain > 150 && compared - plain > 500, "\(compared) compared, \(plain) plain")
    }
}
