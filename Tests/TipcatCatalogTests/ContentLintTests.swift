import Testing
import TipcatCore
import TipcatLocalization
@testable import TipcatCatalog

/// Content rules of lint.json on small in-memory catalogs: each kind triggers and does not, scope, severity.
@Suite struct ContentLintTests {
    static let catalogJSON = """
        {"name": "T", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en", "de", "de-CH", "fr", "ja"]}
        """

    /// Loads a catalog with `tips` (id → tip file text), an optional String Catalog and `lint.json` holding `rules`.
    static func load(content rules: String, tips: [String: String], strings: String? = nil) -> LoadResult {
        var files = ["cat/catalog.json": catalogJSON, "cat/lint.json": #"{"content": [\#(rules)]}"#]
        for (id, text) in tips { files["cat/tips/\(id).json"] = text }
        if let strings { files["cat/Localizable.xcstrings"] = strings }
        return CatalogLoader(fileSystem: InMemoryFileSystem(files: files)).load(directory: "cat")
    }

    static func tip(id: String = "A", title: String, message: String? = nil, extra: String = "") -> String {
        var text = #"{"id": "\#(id)", "title": "\#(title)""#
        if let message { text += #", "message": "\#(message)""# }
        return text + extra + "}"
    }

    /// A String Catalog with the given `key → locale → value` translations (state translated unless given).
    static func strings(_ entries: [String: [String: String]], state: String = "translated") -> String {
        let body = entries.map { key, locales in
            let localizations = locales.map { locale, value in
                #""\#(locale)": {"stringUnit": {"state": "\#(state)", "value": "\#(value)"}}"#
            }.joined(separator: ", ")
            return #""\#(key)": {"localizations": {\#(localizations)}}"#
        }.joined(separator: ", ")
        return #"{"sourceLanguage": "en", "version": "1.0", "strings": {\#(body)}}"#
    }

    /// The findings of content rule `id`, as text.
    static func findings(_ result: LoadResult, _ id: String) -> [String] {
        result.diagnostics.filter { $0.ruleID == id }.map(\.description)
    }

    // MARK: existence

    @Test func existenceMatchesWholeWordsIgnoringCaseAndPointsAtTheText() {
        let rule = #"{"id": "no-promotion", "kind": "existence", "tokens": ["free", "buy now"]}"#
        let result = Self.load(content: rule, tips: ["A": Self.tip(title: "Free for you", message: "Buy   now, freedom later")])
        // Columns of the match inside each string (the strings open at columns 22 and 49).
        #expect(Self.findings(result, "no-promotion") == [
            "cat/tips/A.json:1:23: warning: avoid 'Free' in the title of A [no-promotion]",
            "cat/tips/A.json:1:50: warning: avoid 'Buy   now' in the message of A [no-promotion]",
        ], "\(result.diagnostics)")
        #expect(result.diagnostics.count == 2)
    }

    @Test func findingsPointInsideVerbatimStringsAndAtTheStringOtherwise() {
        let rule = #"{"id": "no-free", "kind": "existence", "tokens": ["free"]}"#
        let tips = [
            "A": Self.tip(id: "A", title: "Café is free"),           // no escapes: the match's column (scalars)
            "B": Self.tip(id: "B", title: #"Caf\u00e9 is free"#),     // an escape: the string's column
            "C": Self.tip(id: "C", title: "free, so free"),           // two occurrences: the string's column
        ]
        let strings = Self.strings(["A.title": ["de": "Kostenlos: free"]])
        let result = Self.load(content: rule, tips: tips, strings: strings)
        let locations = result.diagnostics.map { $0.location.map(\.description) ?? "" }
        #expect(locations == [
            "cat/Localizable.xcstrings:1:152", "cat/tips/A.json:1:31", "cat/tips/B.json:1:22", "cat/tips/C.json:1:22",
        ], "\(result.diagnostics)")
    }

    @Test func existenceDoesNotTriggerOnPartsOfWordsOrOtherCase() {
        let sensitive = #"{"id": "no-free", "kind": "existence", "tokens": ["free", "buy now"], "ignoreCase": false}"#
        let result = Self.load(content: sensitive, tips: ["A": Self.tip(title: "Free freedom", message: "buy nowhere, carefree")])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    }

    @Test func existenceRegexTokensMatchWholeWords() {
        let rule = #"{"id": "colour", "kind": "existence", "tokens": ["colou?r"], "regex": true}"#
        let result = Self.load(content: rule, tips: [
            "A": Self.tip(id: "A", title: "Pick a color"), "B": Self.tip(id: "B", title: "Pick a COLOUR"),
            "C": Self.tip(id: "C", title: "More colors"),
        ])
        #expect(result.diagnostics.map(\.message) == ["avoid 'color' in the title of A", "avoid 'COLOUR' in the title of B"])
    }

    @Test func existenceMatchesInScriptsWithoutSpaces() {
        let rule = #"{"id": "no-click", "kind": "existence", "tokens": ["クリック"]}"#
        let result = Self.load(content: rule, tips: ["A": Self.tip(title: "Tap here")],
                               strings: Self.strings(["A.title": ["ja": "ここをクリックしてください"]]))
        #expect(result.diagnostics.map(\.message) == ["avoid 'クリック' in the 'ja' translation of A.title"])
        #expect(result.diagnostics.first?.location?.file == "cat/Localizable.xcstrings")
    }

    // MARK: substitution

    @Test func substitutionNamesBothWords() {
        let rule = #"{"id": "sign-in", "kind": "substitution", "message": "Use '{expected}' instead of '{match}'.", "swap": {"log in": "sign in", "login": "sign in"}}"#
        let result = Self.load(content: rule, tips: ["A": Self.tip(title: "Log in faster", message: "Your login is safe; logging in is quick.")])
        #expect(result.diagnostics.map(\.message) == ["Use 'sign in' instead of 'Log in'.", "Use 'sign in' instead of 'login'."])
        #expect(result.diagnostics.allSatisfy { $0.ruleID == "sign-in" && $0.severity == .warning })
    }

    @Test func substitutionThatOnlyFixesCaseIgnoresItsOwnFix() {
        let rule = #"{"id": "iphone", "kind": "substitution", "swap": {"iphone": "iPhone"}}"#
        let result = Self.load(content: rule, tips: ["A": Self.tip(title: "On iPhone", message: "On your Iphone")])
        #expect(result.diagnostics.map(\.message) == ["use 'iPhone' instead of 'Iphone' in the message of A"])
    }

    // MARK: capitalization

    @Test func titleCase() {
        let rule = #"{"id": "title-case", "kind": "capitalization", "style": "title", "exceptions": ["iOS"]}"#
        let good = Self.load(content: rule, tips: [
            "A": Self.tip(id: "A", title: "Save as a Favorite"), "B": Self.tip(id: "B", title: "View Our FAQ on iOS"),
            "C": Self.tip(id: "C", title: "Trails: A Guide to Go By"), "D": Self.tip(id: "D", title: "Make It Yours", message: "all lower case here"),
        ])
        #expect(good.diagnostics.isEmpty, "\(good.diagnostics)")
        let bad = Self.load(content: rule, tips: ["A": Self.tip(title: "save As a favorite")])
        #expect(bad.diagnostics.map(\.message) == [
            "'save' should be 'Save' in the title of A (title case)",
            "'As' should be 'as' in the title of A (title case)",
            "'favorite' should be 'Favorite' in the title of A (title case)",
        ])
    }

    @Test func sentenceCase() {
        let rule = #"{"id": "sentence-case", "kind": "capitalization", "style": "sentence", "exceptions": ["Wi-Fi"]}"#
        let good = Self.load(content: rule, tips: [
            "A": Self.tip(id: "A", title: "Save as a favorite"), "B": Self.tip(id: "B", title: "Join Wi-Fi. Then view the FAQ"),
            "C": Self.tip(id: "C", title: "Note: Turn it on"),
        ])
        #expect(good.diagnostics.isEmpty, "\(good.diagnostics)")
        let bad = Self.load(content: rule, tips: ["A": Self.tip(title: "save as a Favorite")])
        #expect(bad.diagnostics.map(\.message) == [
            "'save' should be 'Save' in the title of A (sentence case)",
            "'Favorite' should be 'favorite' in the title of A (sentence case)",
        ])
    }

    @Test func capitalizationSkipsPlaceholdersAndTextGluedToThem() {
        let parameters = #", "parameters": {"name": "string"}"#
        let sentence = #"{"id": "sentence-case", "kind": "capitalization", "style": "sentence"}"#
        let result = Self.load(content: sentence, tips: ["A": Self.tip(title: "{name} is now available", extra: parameters),
                                                        "B": Self.tip(id: "B", title: "Visit {name}'s Page", extra: parameters)])
        #expect(result.diagnostics.map(\.message) == ["'Page' should be 'page' in the title of B (sentence case)"])
        let title = #"{"id": "title-case", "kind": "capitalization", "style": "title"}"#
        let titled = Self.load(content: title, tips: ["A": Self.tip(title: "{name} is now available", extra: parameters)])
        #expect(titled.diagnostics.map(\.message).first == "'is' should be 'Is' in the title of A (title case)")
    }

    @Test func capitalizationChecksTheSourceLanguageByDefaultAndOnlyScriptsWithCase() {
        let strings = Self.strings(["A.title": ["de": "Standort Anzeigen", "ja": "現在地を表示"]])
        let byDefault = #"{"id": "sentence-case", "kind": "capitalization", "style": "sentence"}"#
        #expect(Self.load(content: byDefault, tips: ["A": Self.tip(title: "Show location")], strings: strings).diagnostics.isEmpty)
        let everywhere = #"{"id": "sentence-case", "kind": "capitalization", "style": "sentence", "scope": {"locales": ["en", "de", "ja"]}}"#
        let result = Self.load(content: everywhere, tips: ["A": Self.tip(title: "Show location")], strings: strings)
        #expect(result.diagnostics.map(\.message) == ["'Anzeigen' should be 'anzeigen' in the 'de' translation of A.title (sentence case)"])
    }

    // MARK: length

    @Test func lengthCountsDisplayColumns() {
        let rule = #"{"id": "short-title", "kind": "length", "max": 10}"#
        let strings = Self.strings(["A.title": ["ja": "現在地を表示", "fr": "Une astuce"]])
        let result = Self.load(content: rule, tips: ["A": Self.tip(title: "0123456789"), "B": Self.tip(id: "B", title: "Hello world")],
                               strings: strings)
        // Six wide characters are twelve columns; ten narrow ones fit.
        #expect(result.diagnostics.map(\.message) == [
            "the 'ja' translation of A.title is 12 columns wide; keep it within 10",
            "the title of B is 11 columns wide; keep it within 10",
        ])
    }

    @Test func lengthHasPerLocaleLimitsForGermanAndItsRegions() {
        let rule = #"{"id": "short-title", "kind": "length", "max": 20, "maxByLocale": {"de": 26}, "message": "{actual} > {max}"}"#
        let strings = Self.strings(["A.title": [
            "de": "Standort auf der Karte zeigen",  // 29 columns: over the German limit
            "de-CH": "Standort zeigen, bitte",      // 22: within it
            "fr": "Afficher votre position",       // 23: over the default limit
        ]])
        let result = Self.load(content: rule, tips: ["A": Self.tip(title: "Show your location")], strings: strings)
        #expect(result.diagnostics.map(\.message).sorted() == ["23 > 20", "29 > 26"])
    }

    @Test func placeholdersCountAsTheirExampleValuesOrAFixedWidth() {
        let parameters = #", "parameters": {"trail": {"name": "string"}}"#
        let example = #", "example": {"trail": {"name": "Butler Fork"}}"#
        let rule = #"{"id": "short-title", "kind": "length", "max": 20, "message": "{actual}"}"#
        // "Butler Fork" (11) + " is open" (8) = 19 with the example; 10 + 8 = 18 without.
        let result = Self.load(content: rule, tips: [
            "A": Self.tip(id: "A", title: "{trail.name} is open", extra: parameters + example),
            "B": Self.tip(id: "B", title: "{trail.name} is open now", extra: parameters + example),
            "C": Self.tip(id: "C", title: "{trail.name} is open right now", extra: parameters),
        ])
        #expect(result.diagnostics.map(\.message) == ["23", "28"])
        #expect(LintText.placeholderWidth == 10)
    }

    @Test func everyPluralFormIsMeasured() {
        let tip = Self.tip(title: "Trails", message: "{count, plural, one {# trail} other {# trails are near you right now}}",
                           extra: #", "parameters": {"count": "int"}, "example": {"count": 12}"#)
        let rule = #"{"id": "short-message", "kind": "length", "max": 30, "message": "{actual}", "scope": {"fields": ["message"]}}"#
        let result = Self.load(content: rule, tips: ["A": tip])
        #expect(result.diagnostics.map(\.message) == ["32"])  // "12 trails are near you right now"
    }

    @Test func lengthCountsWhatAReaderSeesNotTheMarkdownMarkup() {
        let parameters = #", "parameters": {"name": "string"}, "example": {"name": "Ann"}"#
        let rule = #"{"id": "short-message", "kind": "length", "max": 12, "message": "{actual}", "scope": {"fields": ["message"]}}"#
        let result = Self.load(content: rule, tips: [
            // "Tap Save now" is 12 columns: the asterisks are not seen.
            "A": Self.tip(id: "A", title: "A", message: "Tap **Save** now"),
            // A link shows its label only: "See the map" is 11.
            "B": Self.tip(id: "B", title: "B", message: "See [the map](https://example.com/a/long/path)"),
            // Markup around a placeholder: "Hi Ann, hello" is 13, over the limit.
            "C": Self.tip(id: "C", title: "C", message: "Hi **{name}**, hello", extra: parameters),
            // Escaped asterisks are seen: "2 \\* 3 \\* 4 \\* 5" is 13.
            "D": Self.tip(id: "D", title: "D", message: #"2 \\* 3 \\* 4 \\* 5"#),
        ])
        #expect(result.diagnostics.map(\.message) == ["13", "13"], "\(result.diagnostics)")
    }

    @Test func deviceVariationsAndPlatformTextsAreLintedToo() {
        let rule = #"{"id": "no-click", "kind": "existence", "tokens": ["click", "cliquez"]}"#
        let strings = #"""
            {"sourceLanguage": "en", "version": "1.0", "strings": {"A.message": {"localizations": {"fr": {"variations": {"device": {
              "mac": {"stringUnit": {"state": "translated", "value": "Cliquez ici"}},
              "other": {"stringUnit": {"state": "translated", "value": "Touchez ici"}}}}}}}}}
            """#
        let tip = Self.tip(title: "A", message: "Tap here", extra: #", "platforms": {"mac": {"title": "Click here"}}"#)
        let result = Self.load(content: rule, tips: ["A": tip], strings: strings)
        #expect(result.diagnostics.map(\.message).sorted() == [
            "avoid 'Click' in the mac title of A",
            "avoid 'Cliquez' in the 'fr' translation of A.message on mac",
        ], "\(result.diagnostics)")
    }

    // MARK: punctuation

    @Test func punctuation() {
        let parameters = #", "parameters": {"place": "string"}"#
        let rule = #"{"id": "title-punctuation", "kind": "punctuation", "forbidEnding": ["."], "forbid": ["!"], "scope": {"fields": ["title"]}}"#
        let result = Self.load(content: rule, tips: [
            "A": Self.tip(id: "A", title: "Done. ", message: "A sentence."), "B": Self.tip(id: "B", title: "Wow! Nice"),
            "C": Self.tip(id: "C", title: "Go to {place}", extra: parameters), "D": Self.tip(id: "D", title: "Need help?"),
        ])
        #expect(result.diagnostics.map(\.message) == ["the title of A ends with '.'", "the title of B contains '!'"])
    }

    @Test func punctuationEndingsOfSeveralBytes() {
        let rule = #"{"id": "no-ellipsis", "kind": "punctuation", "forbidEnding": ["…", "..."]}"#
        let result = Self.load(content: rule, tips: ["A": Self.tip(id: "A", title: "Wait…"), "B": Self.tip(id: "B", title: "Wait...  "),
                                                     "C": Self.tip(id: "C", title: "… and go")])
        #expect(result.diagnostics.map(\.message) == ["the title of A ends with '…'", "the title of B ends with '...'"])
        #expect(result.diagnostics.first?.location?.column == 27)  // the '…' inside "Wait…"
    }

    @Test func wordsAreSplitTheSameWayInASCIIAndOtherText() {
        func words(_ text: String) -> [String] { WordScanner.words(in: text).map { String(text[$0]) } }
        #expect(words("Don't sign-in -- now, 2x! -x") == ["Don't", "sign-in", "now", "2x", "x"])
        #expect(words("Don’t sign-in -- café, 2x! -x") == ["Don’t", "sign-in", "café", "2x", "x"])
        #expect(words("地図をタップ map") == ["地", "図", "を", "タ", "ッ", "プ", "map"])
    }

    // MARK: scope, enabled, severity

    @Test func scopeByFieldAndLocale() {
        let strings = Self.strings(["A.title": ["de": "Kostenlos free", "fr": "Gratuit free"], "A.message": ["de": "free"]])
        let tip = Self.tip(title: "Free", message: "free", extra: #", "actions": [{"id": "go", "title": "Free"}]"#)
        let titles = #"{"id": "no-free", "kind": "existence", "tokens": ["free"], "scope": {"fields": ["title", "action"]}}"#
        #expect(Self.load(content: titles, tips: ["A": tip], strings: strings).diagnostics.map(\.message).sorted() == [
            "avoid 'Free' in the action title of A", "avoid 'Free' in the title of A",
            "avoid 'free' in the 'de' translation of A.title", "avoid 'free' in the 'fr' translation of A.title",
        ])
        let german = #"{"id": "no-free", "kind": "existence", "tokens": ["free"], "scope": {"locales": ["de"]}}"#
        #expect(Self.load(content: german, tips: ["A": tip], strings: strings).diagnostics.map(\.message).sorted() == [
            "avoid 'free' in the 'de' translation of A.message", "avoid 'free' in the 'de' translation of A.title",
        ])
    }

    @Test func translationsThatAreNotTranslatedAreNotChecked() {
        let rule = #"{"id": "no-free", "kind": "existence", "tokens": ["free"], "scope": {"locales": ["de"]}}"#
        let result = Self.load(content: rule, tips: ["A": Self.tip(title: "A tip")],
                               strings: Self.strings(["A.title": ["de": "free"]], state: "needs_review"))
        #expect(result.diagnostics.map(\.ruleID) == ["not-translated"])
    }

    @Test func disabledRulesDoNotRun() {
        let rule = #"{"id": "no-free", "kind": "existence", "tokens": ["free"], "enabled": false}"#
        let result = Self.load(content: rule, tips: ["A": Self.tip(title: "Free")])
        #expect(result.diagnostics.isEmpty)
        #expect(result.catalog.lint.contentRules.map(\.enabled) == [false])
    }

    @Test func severityIsTheRules() {
        let rules = """
            {"id": "e", "kind": "existence", "tokens": ["free"], "severity": "error"},
            {"id": "n", "kind": "existence", "tokens": ["free"], "severity": "note"},
            {"id": "w", "kind": "existence", "tokens": ["free"]}
            """
        let result = Self.load(content: rules, tips: ["A": Self.tip(title: "Free")])
        #expect(result.diagnostics.map(\.ruleID) == ["e", "w", "n"])
        #expect(result.diagnostics.map(\.severity) == [.error, .warning, .note])
    }

    @Test func sampleCatalogHasContentRulesAndNoFindings() {
        let result = CatalogLoader().load(directory: SchemaTests.schemaDirectory.replacingSuffix("/schemas", with: ""))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.catalog.lint.contentRules.count >= 5)
        #expect(result.catalog.lint.levels["orphan-translation"] == .error)
    }
}

extension String {
    func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
    }
}
