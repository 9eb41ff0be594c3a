import Testing
import TipcatCatalog
import TipcatCore
import TipcatJSON
import TipcatLocalization

/// The byte-level XLIFF writer (`documentBytes`, `escapedBytes`) and the id sort give exactly what the general
/// string-building `document`, scalar-by-scalar `escape` and a stable sort of `id.utf8` give.
@Suite struct XLIFFTests {
    /// Characters around every branch of the escaper: ASCII controls and specials, C1 controls, the UTF-8 neighbours
    /// of U+FFFE and U+FFFF (same lead bytes, other continuation bytes), and four-byte characters.
    static let scalars: [Unicode.Scalar] = (0..<0x80).compactMap(Unicode.Scalar.init) + [
        "\u{80}", "\u{9F}", "\u{A0}", "é", "\u{301}", "\u{2028}", "\u{EFBF}", "\u{F000}", "\u{FEFF}", "\u{FFBE}", "\u{FFBF}",
        "\u{FFFC}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{10000}", "\u{1F600}", "\u{10FFFF}",
    ]

    /// Seeded random strings over `scalars`, short (small strings) and long.
    static func randomStrings(count: Int) -> [String] {
        var random = SeededGenerator(seed: 0x786C_6966)
        return (0..<count).map { index in
            let length = index % 2 == 0 ? Int(random.next() % 12) : Int(random.next() % 200)
            var text = String.UnicodeScalarView()
            for _ in 0..<length { text.append(scalars[Int(random.next() % UInt64(scalars.count))]) }
            return String(text)
        }
    }

    @Test func byteEscapingEqualsScalarEscaping() {
        var texts = [""] + Self.scalars.flatMap { ["\($0)", "a\($0)b", "\($0)\($0)", String(repeating: "x", count: 20) + "\($0)"] }
        texts += ["\r\n", "e\u{301}&", "\u{FFFF}\u{FFFE}\u{FFFD}", "\u{EF}\u{BF}\u{BE}"] + Self.randomStrings(count: 2_000)
        for text in texts {
            #expect(XLIFF.escapedBytes(text) == Array(XLIFF.escape(text).utf8), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(XLIFF.escapedBytes("a&<>\"'\r\t\n\u{7}\u{FFFE}\u{FFFF}\u{FFFD}é")
                == Array("a&amp;&lt;&gt;&quot;&apos;&#13;\t\n\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}é".utf8))
    }

    @Test func documentBytesEqualTheGeneralDocument() throws {
        let en = try #require(LocaleID("en")), fr = try #require(LocaleID("pt-BR"))
        let texts = Self.randomStrings(count: 60)
        var units: [XLIFFUnit] = []
        for (index, text) in texts.enumerated() {
            units.append(XLIFFUnit(
                key: "Tip\(index).\(text.prefix(3))", path: ["", "plural.one", "device.mac.plural.other"][index % 3], source: text,
                target: index % 4 == 0 ? nil : String(text.reversed()), state: index % 5 == 0 ? nil : XLIFF.xliffState("needs_review"),
                note: index % 2 == 0 ? nil : "note <\(index)> & 'it'"))
        }
        for version in ["1.0", "0.9 <\"dev\"> & 'x'\r"] {
            for subset in [[], Array(units.prefix(1)), units] {
                let bytes = XLIFF.documentBytes(subset, sourceLanguage: en, locale: fr, toolVersion: version)
                #expect(bytes == Array(XLIFF.document(subset, sourceLanguage: en, locale: fr, toolVersion: version).utf8))
            }
        }
        let one = XLIFF.documentBytes([XLIFFUnit(key: "A", path: "plural.one", source: "1 & 2", target: "un", state: "translated")],
                                      sourceLanguage: en, locale: fr, toolVersion: "1")
        #expect(String(decoding: one, as: UTF8.self).contains("""
                  <trans-unit id="A|==|plural.one" xml:space="preserve">
                    <source>1 &amp; 2</source>
                    <target state="translated">un</target>
                  </trans-unit>
            """))
    }

    @Test func sortedByIDIsAStableSortOfTheIDBytes() {
        // Keys that are prefixes of each other put `KEY|==|PATH` between other keys; equal ids keep their order.
        let keys = ["A", "A.x", "A|", "A|==|plural.one", "a", "", "Ä", "B.title", "é", "e\u{301}", "A.action.open", "A.action.open.x"]
        let paths = ["", "plural.one", "plural.other", "device.mac", "device.mac.plural.few"]
        var random = SeededGenerator(seed: 42)
        let units = (0..<3_000).map { index in
            XLIFFUnit(key: keys[Int(random.next() % UInt64(keys.count))], path: paths[Int(random.next() % UInt64(paths.count))],
                      source: String(index))
        }
        let expected = units.enumerated().sorted { first, second in
            first.element.id.utf8.elementsEqual(second.element.id.utf8)
                ? first.offset < second.offset
                : first.element.id.utf8.lexicographicallyPrecedes(second.element.id.utf8)
        }.map(\.element)
        let sorted = XLIFF.sortedByID(units)
        #expect(sorted == expected)
        #expect(sorted.map(\.id).prefix(3) == ["", "", ""])
        #expect(XLIFF.sortedByID([]) == [])
    }

    /// Texts are made in key order and found sorted, except when a key is a prefix of another and `KEY|==|PATH`
    /// falls after it (`A.action.open|==|plural.one` after `A.action.open2`): then they are sorted all the same.
    @Test(arguments: [true, false])
    func unitsAreSortedByID(interleaved: Bool) throws {
        func text(_ key: String) -> LocalizedText { LocalizedText(key: key, source: "tip " + key, message: nil) }
        let second = interleaved ? "open2" : "pen"
        let tips = [
            Tip(id: TipID("B"), title: text("B.title"), file: "tips/B.json"),
            Tip(id: TipID("A"), title: text("A.title"),
                actions: [TipAction(id: second, title: text("A.action." + second)), TipAction(id: "open", title: text("A.action.open"))],
                file: "tips/A.json"),
        ]
        let json = """
            {"sourceLanguage": "en", "version": "1.0", "strings": {
              "A.action.open": {"comment": "Opens.", "localizations": {
                "en": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "# one"}},
                                                 "other": {"stringUnit": {"state": "translated", "value": "# more"}}}}},
                "fr": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "# un"}},
                                                 "many": {"stringUnit": {"state": "needs_review", "value": "# beaucoup"}},
                                                 "other": {"stringUnit": {"state": "new", "value": "# autres"}}}}}}},
              "A.title": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "Titre"}}}}
            }}
            """
        let root = try JSONDocument.parse(SourceFile(path: "Localizable.xcstrings", bytes: Array(json.utf8))).root
        let en = try #require(LocaleID("en")), fr = try #require(LocaleID("fr"))
        let units = XLIFF.Export(root: root, tips: tips, sourceLanguage: en).units(locale: fr)
        let open = [
            XLIFFUnit(key: "A.action.open", path: "plural.many", source: "# more", target: "# beaucoup", state: "needs-review-translation", note: "Opens."),
            XLIFFUnit(key: "A.action.open", path: "plural.one", source: "# one", target: "# un", state: "translated", note: "Opens."),
            XLIFFUnit(key: "A.action.open", path: "plural.other", source: "# more", target: "# autres", state: "new", note: "Opens."),
        ]
        let other = [XLIFFUnit(key: "A.action." + second, source: "tip A.action." + second)]
        let titles = [
            XLIFFUnit(key: "A.title", source: "tip A.title", target: "Titre", state: "translated"),
            XLIFFUnit(key: "B.title", source: "tip B.title"),
        ]
        #expect(units == (interleaved ? other + open : open + other) + titles)
        #expect(units == XLIFF.units(root: root, tips: tips, sourceLanguage: en, locale: fr))
        let document = XLIFF.Export(root: root, tips: tips, sourceLanguage: en).document(locale: fr, toolVersion: "1")
        #expect(document.bytes == XLIFF.documentBytes(units, sourceLanguage: en, locale: fr, toolVersion: "1"))
        #expect(document.units == 6 && document.translated == 4)
    }

    /// The document written straight from the texts is the general one (`documentBytes` of the sorted units) on
    /// seeded random String Catalogs: plain strings, plural and device variations on either side, missing entries,
    /// comments to escape, and keys that prefix others.
    @Test func documentOfTheExportEqualsTheDocumentOfItsUnits() throws {
        let en = try #require(LocaleID("en"))
        let locales = try ["fr", "pl", "ja"].map { try #require(LocaleID($0)) }
        var random = SeededGenerator(seed: 7)
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        func unit(_ value: String) -> String { #"{"stringUnit": {"state": "\#(pick(["translated", "needs_review", "new", "stale"]))", "value": "\#(value)"}}"# }
        func localization(_ tag: String) -> String? {
            switch random.next() % 5 {
            case 0: return nil
            case 1, 2: return unit("\(tag) <plain> & 'x'")
            case 3:
                let forms = ["one", "few", "many", "other"].filter { _ in random.next() % 3 != 0 }
                return #"{"variations": {"plural": {"# + forms.map { #""\#($0)": "# + unit("\(tag) # \($0)") }.joined(separator: ", ") + "}}}"
            default:
                return #"{"variations": {"device": {"mac": "# + unit("\(tag) mac") + #", "iphone": {"variations": {"plural": {"other": "#
                    + unit("\(tag) iphone") + "}}}}}}"
            }
        }
        for round in 0..<20 {
            var tips: [Tip] = []
            var entries: [String] = []
            for index in 0..<12 {
                let id = "T\(index % 7)\(index)"
                func text(_ key: String) -> LocalizedText { LocalizedText(key: key, source: "\(key) \"as written\"", message: nil) }
                let actions = ["open", "open2", "o"].filter { _ in random.next() % 2 == 0 }
                tips.append(Tip(id: TipID(id), title: text(id + ".title"), message: random.next() % 2 == 0 ? text(id + ".message") : nil,
                                actions: actions.map { TipAction(id: $0, title: text("\(id).action.\($0)")) },
                                comment: random.next() % 2 == 0 ? nil : "Tip \(index) <&> \"quoted\"", file: "tips/\(id).json"))
                for key in [id + ".title", id + ".message"] + actions.map({ "\(id).action.\($0)" }) where random.next() % 4 != 0 {
                    let localizations = (["en"] + locales.map(\.identifier)).compactMap { tag in
                        localization(tag).map { #""\#(tag)": \#($0)"# }
                    }
                    entries.append(#""\#(key)": {"comment": "key comment", "localizations": {"# + localizations.joined(separator: ", ") + "}}")
                }
            }
            let json = #"{"sourceLanguage": "en", "version": "1.0", "strings": {"# + entries.joined(separator: ", ") + "}}"
            let root = try JSONDocument.parse(SourceFile(path: "Localizable.xcstrings", bytes: Array(json.utf8))).root
            let export = XLIFF.Export(root: root, tips: tips, sourceLanguage: en)
            for locale in locales {
                let units = XLIFF.units(root: root, tips: tips, sourceLanguage: en, locale: locale)
                let document = export.document(locale: locale, toolVersion: "1")
                #expect(document.bytes == XLIFF.documentBytes(units, sourceLanguage: en, locale: locale, toolVersion: "1"),
                        "round \(round), \(locale)")
                #expect(document.units == units.count)
                #expect(document.translated == units.filter { $0.target != nil }.count)
            }
        }
    }
}
