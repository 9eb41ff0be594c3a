import Foundation
import Testing
import TipcatCore
import TipcatJSON
import TipcatLocalization
@testable import TipcatCatalog

/// Loader behaviour on small in-memory catalogs: model contents and exact diagnostics.
@Suite struct LoaderTests {
    static let catalogJSON = """
        {"name": "T", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en", "fr", "pl", "ar"]}
        """
    static let parameters = """
        {"parameters": [{"name": "isLoggedIn", "type": "bool", "default": false},
                        {"name": "favoritePlants", "type": "set<string>", "default": [], "lifetime": "transient"}]}
        """
    static let events = """
        {"events": [{"id": "visited-region", "fields": {"region": "string"}, "donationLimit": {"maxCount": 10, "maxAge": "7d"}}]}
        """
    static let trailTip = """
        {
          "id": "NewTrailTip",
          "customID": "NewTrailTip-{trail.id}",
          "title": "New in {trail.region}",
          "message": "{count, plural, one {# trail} other {# trails}} near you",
          "parameters": {"trail": {"id": "string", "name": "string", "region": "string"}, "count": "int"},
          "rules": ["#visited-region.where(region == trail.region).count > 3", "$isLoggedIn"],
          "options": {"maxDisplayCount": 3, "maxDisplayDuration": "5m", "ignoresDisplayFrequency": true},
          "republish": "reset",
          "actions": [{"id": "go-there", "title": "Go there now"}],
          "example": {"trail": {"id": "butler-fork", "name": "Butler Fork", "region": "Wasatch"}, "count": 2}
        }
        """

    func load(_ files: [String: String]) -> LoadResult {
        var all = ["cat/catalog.json": Self.catalogJSON, "cat/parameters.json": Self.parameters, "cat/events.json": Self.events]
        for (path, text) in files { all["cat/" + path] = text }
        return CatalogLoader(fileSystem: InMemoryFileSystem(files: all)).load(directory: "cat")
    }

    func messages(_ result: LoadResult) -> [String] { result.diagnostics.map(\.description) }

    @Test func decodesATip() throws {
        let result = load(["tips/NewTrailTip.json": Self.trailTip])
        #expect(result.diagnostics.isEmpty, "\(messages(result))")
        let tip = try #require(result.catalog.tip("NewTrailTip"))
        #expect(tip.customID?.source == "NewTrailTip-{trail.id}")
        #expect(tip.title.key == "NewTrailTip.title")
        #expect(tip.actions.map(\.title.key) == ["NewTrailTip.action.go-there"])
        #expect(tip.options == TipOptions(maxDisplayCount: 3, maxDisplayDuration: TimeSpan(seconds: 300), ignoresDisplayFrequency: true))
        #expect(tip.republish == .reset)
        #expect(tip.rules.count == 2)
        #expect(tip.parameterType(atPath: "trail.region") == .string)
        #expect(tip.example?["count"] == .int(2))
        let event = try #require(result.catalog.event("visited-region"))
        #expect(event.donationLimit == DonationLimit(maxCount: 10, maxAge: TimeSpan(seconds: 604_800)))
        #expect(result.catalog.parameter("favoritePlants")?.lifetime == .transient)
        #expect(result.catalog.parameter("favoritePlants")?.type == .set(.string))
    }

    /// `checksOnlyForErrors` (what `render` asks for) skips the lint rules whose findings are warnings, unless
    /// `lint.json` makes them errors; the checks that report errors run as always.
    @Test func checksOnlyForErrorsSkipsWhatCanOnlyWarn() {
        let strings = """
            {"sourceLanguage": "en", "version": "1.0", "strings": {"NewTrailTip.subtitle": {"localizations": {
              "fr": {"stringUnit": {"state": "translated", "value": "Sous-titre"}}}}}}
            """
        var files = ["cat/catalog.json": Self.catalogJSON, "cat/parameters.json": Self.parameters, "cat/events.json": Self.events,
                     "cat/tips/Misnamed.json": Self.trailTip, "cat/Localizable.xcstrings": strings]
        func rules(errorsOnly: Bool) -> [String] {
            var loader = CatalogLoader(fileSystem: InMemoryFileSystem(files: files))
            loader.checksOnlyForErrors = errorsOnly
            return loader.load(directory: "cat").diagnostics.map { "\($0.severity.rawValue) \($0.ruleID)" }.sorted()
        }
        #expect(rules(errorsOnly: false) == ["warning file-name-mismatch", "warning orphan-translation"])
        #expect(rules(errorsOnly: true) == [])
        files["cat/lint.json"] = #"{"rules": {"orphan-translation": "error"}}"#
        #expect(rules(errorsOnly: false) == ["error orphan-translation", "warning file-name-mismatch"])
        #expect(rules(errorsOnly: true) == ["error orphan-translation"])
        // Errors from the other stages are reported either way.
        files["cat/tips/Misnamed.json"] = Self.trailTip.replacingOccurrences(of: "\"count\": \"int\"", with: "\"count\": \"integer\"")
        #expect(rules(errorsOnly: true).contains { $0.hasPrefix("error ") && !$0.hasSuffix("orphan-translation") })
    }

    /// `TranslationScope.shownIn` (what `render` asks for) decodes and checks only the translations a rendering in
    /// the locale can show — the locale's, its fallbacks' and the source language's — in entries read in place
    /// (the title) and from their trees (the message, with device variations); `everyLocale` all of them.
    @Test func aScopedLoadDecodesOnlyTheTranslationsItsLocaleCanShow() throws {
        let strings = """
            {"sourceLanguage": "en", "version": "1.0", "strings": {
              "NewTrailTip.title": {"localizations": {
                "en": {"stringUnit": {"state": "translated", "value": "New in {trail.region}"}},
                "pl": {"stringUnit": {"state": "translated", "value": "Nowość: {trail.region}"}},
                "ar": {"stringUnit": {"state": "translated", "value": "جديد في {trail.regon}"}}}},
              "NewTrailTip.message": {"localizations": {
                "pl": {"variations": {"device": {
                  "mac": {"stringUnit": {"state": "translated", "value": "{count, plural, one {# szlak} few {# szlaki} many {# szlaków} other {# szlaku}} (Mac)"}},
                  "other": {"stringUnit": {"state": "translated", "value": "{count, plural, one {# szlak} few {# szlaki} many {# szlaków} other {# szlaku}}"}}}}},
                "ar": {"variations": {"device": {
                  "other": {"stringUnit": {"state": "translated", "value": "{count, plural, one {# مسار}"}}}}}}}}}
            """
        let files = ["cat/catalog.json": Self.catalogJSON, "cat/parameters.json": Self.parameters, "cat/events.json": Self.events,
                     "cat/tips/NewTrailTip.json": Self.trailTip, "cat/Localizable.xcstrings": strings]
        func load(_ scope: CatalogLoader.TranslationScope) -> LoadResult {
            var loader = CatalogLoader(fileSystem: InMemoryFileSystem(files: files))
            loader.translations = scope
            return loader.load(directory: "cat")
        }
        /// The locales of an entry's translations, then those of its device variations.
        func locales(_ result: LoadResult, _ key: String) -> [String] {
            let entry = result.catalog.localizations.entries[key]
            return (entry?.translations.keys.map(\.identifier) ?? []).sorted()
                + (entry?.devices.keys.map { "devices " + $0.identifier } ?? []).sorted()
        }
        let every = load(.everyLocale)
        // Arabic's two broken translations are reported where they are.
        #expect(every.diagnostics.filter { $0.severity == .error }.map { $0.location?.line } == [5, 11], "\(messages(every))")
        #expect(locales(every, "NewTrailTip.title") == ["ar", "en", "pl"])
        #expect(locales(every, "NewTrailTip.message") == ["devices pl"])  // the broken one is left out
        #expect(every.catalog.localizations.entries["NewTrailTip.message"]?.devices[LocaleID("pl")!]?.keys.sorted() == ["mac", "other"])

        for scope in [CatalogLoader.TranslationScope.shownIn(LocaleID("pl")), .shownIn(LocaleID("pl-PL")), .shownIn(nil), .shownIn(LocaleID("fr"))] {
            let scoped = load(scope)
            #expect(scoped.diagnostics.isEmpty, "\(scope): \(messages(scoped))")
        }
        let polish = load(.shownIn(LocaleID("pl-PL")))
        #expect(locales(polish, "NewTrailTip.title") == ["en", "pl"])
        #expect(locales(polish, "NewTrailTip.message") == ["devices pl"])
        #expect(polish.catalog.localizations.entries["NewTrailTip.message"]?.devices[LocaleID("pl")!]?.keys.sorted() == ["mac", "other"])
        // The source language's alone, with the entries' locations kept.
        let source = load(.shownIn(nil))
        #expect(locales(source, "NewTrailTip.title") == ["en"])
        #expect(locales(source, "NewTrailTip.message") == [])
        #expect(source.catalog.localizations.entries["NewTrailTip.message"]?.location?.line == 6)
        // A rendering in Arabic checks Arabic: the same findings as a whole load.
        let arabic = load(.shownIn(LocaleID("ar")))
        #expect(messages(arabic) == messages(every))
        #expect(locales(arabic, "NewTrailTip.title") == ["ar", "en"])
        #expect(locales(arabic, "NewTrailTip.message") == [])
    }

    @Test func theParsedStringCatalogIsKeptOnlyWhenAsked() throws {
        let strings = #"{"sourceLanguage": "en", "version": "1.0", "strings": {"NewTrailTip.title": {"comment": "c"}}}"#
        var files = ["cat/catalog.json": Self.catalogJSON, "cat/tips/NewTrailTip.json": Self.trailTip, "cat/Localizable.xcstrings": strings]
        var loader = CatalogLoader(fileSystem: InMemoryFileSystem(files: files))
        #expect(loader.load(directory: "cat").strings == nil)
        loader.keepsStrings = true
        let kept = try #require(loader.load(directory: "cat").strings)
        #expect(kept.value == (try JSONDocument.parse(SourceFile(path: "Localizable.xcstrings", bytes: Array(strings.utf8)))).root.value)
        files["cat/Localizable.xcstrings"] = nil
        loader.fileSystem = InMemoryFileSystem(files: files)
        #expect(loader.load(directory: "cat").strings == nil)
    }

    @Test func unknownKeyHasDidYouMeanAndPosition() {
        let result = load(["tips/A.json": "{\n  \"id\": \"A\",\n  \"title\": \"x\",\n  \"mesage\": \"y\"\n}"])
        #expect(messages(result) == ["cat/tips/A.json:4:3: error: unknown key 'mesage' in a tip; did you mean 'message'? [unknown-key]"])
    }

    @Test func duplicateKey() {
        let result = load(["tips/A.json": #"{"id": "A", "title": "x", "title": "y"}"#])
        #expect(messages(result) == ["cat/tips/A.json:1:27: error: duplicate key 'title' in a tip [duplicate-key]"])
        #expect(result.diagnostics.first?.notes.first?.location == SourceLocation(file: "cat/tips/A.json", line: 1, column: 13))
    }

    @Test func undeclaredPlaceholderIsLocatedInsideTheString() {
        let result = load(["tips/A.json": #"{"id": "A", "title": "Hi {trail.nme}", "parameters": {"trail": {"name": "string"}}}"#])
        #expect(messages(result) == [
            "cat/tips/A.json:1:27: error: '{trail.nme}' in the title of A is not a parameter of A; did you mean 'trail.name'? [undeclared-placeholder]",
        ])
    }

    @Test func placeholderAfterAnEscapeIsStillLocatedExactly() {
        // "\u00e9" is six characters in the file but one in the text; the column is the placeholder name's.
        let result = load(["tips/A.json": #"{"id": "A", "title": "Caf\u00e9 {nope}"}"#])
        #expect(messages(result).first?.hasPrefix("cat/tips/A.json:1:34: error: '{nope}'") == true, "\(messages(result))")
    }

    @Test func ruleErrorsAreLocatedInsideTheRuleText() {
        let result = load(["tips/A.json": #"{"id": "A", "title": "x", "rules": ["$isLogedIn"]}"#])
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.location == SourceLocation(file: "cat/tips/A.json", line: 1, column: 38))
        #expect(result.diagnostics.first?.ruleID == "unknown-parameter")
        #expect(result.diagnostics.first?.message.contains("isLoggedIn") == true)
    }

    @Test func messageSyntaxError() {
        let result = load(["tips/A.json": #"{"id": "A", "title": "{count, plural, one {# x}}", "parameters": {"count": "int"}}"#])
        #expect(result.diagnostics.map(\.ruleID) == ["message-syntax"])
    }

    @Test func sourcePluralLackingACategoryFallsBackToOther() {
        let result = load(["tips/A.json": #"{"id": "A", "title": "{count, plural, other {# x}}", "parameters": {"count": "int"}}"#])
        #expect(messages(result) == [
            "cat/tips/A.json:1:24: warning: the plural of 'count' in the title of A lacks 'one', which 'en' has; 'other' is used for those numbers [plural-category-fallback]",
        ])
    }

    @Test func typeErrors() {
        let result = load(["tips/A.json": #"{"id": "A", "title": "{n}", "parameters": {"n": "integer", "when": "date"}, "example": {"when": "tomorrow"}}"#])
        #expect(messages(result).contains { $0.contains("unknown type 'integer'") && $0.contains("did you mean 'int'?") && $0.hasSuffix("[unknown-type]") })
        #expect(messages(result).contains { $0.contains("must be an ISO 8601 date") && $0.hasSuffix("[type-mismatch]") })
    }

    /// Every entry's own unsupported locales, whether its locales are those of the entry before or not (the rule
    /// works them out again only when they differ).
    @Test func unsupportedLocalesAreFoundInEveryEntry() {
        func entry(_ locales: [String]) -> String {
            "{\"localizations\": {" + locales.map { "\"\($0)\": {\"stringUnit\": {\"state\": \"translated\", \"value\": \"x\"}}" }
                .joined(separator: ", ") + "}}"
        }
        let lists = [["fr", "de"], ["fr", "de"], ["fr"], ["de", "it"], ["fr", "de"], [], ["it", "de"], ["pl", "ar"], ["de"]]
        let keys = lists.indices.map { "Tip\($0).title" }
        let strings = #"{"sourceLanguage": "en", "version": "1.0", "strings": {"#
            + zip(keys, lists).map { "\"\($0)\": \(entry($1))" }.joined(separator: ", ") + "}}"
        var files = ["Localizable.xcstrings": strings]
        for index in lists.indices { files["tips/Tip\(index).json"] = #"{"id": "Tip\#(index)", "title": "x"}"# }
        let result = load(files)
        let found = Set(result.diagnostics.filter { $0.ruleID == "unsupported-locale" }.map { diagnostic in
            keys.first { diagnostic.message.hasPrefix("'\($0)' ") }.map { key in
                key + " " + ["de", "it"].filter { diagnostic.message.contains("into '\($0)'") }.joined()
            } ?? diagnostic.message
        })
        let expected = Set(zip(keys, lists).flatMap { key, locales in locales.filter { ["de", "it"].contains($0) }.map { key + " " + $0 } })
        #expect(found == expected)
        #expect(result.diagnostics.filter { $0.ruleID == "unsupported-locale" }.count == expected.count)
    }

    @Test func translationsAreChecked() {
        let strings = """
            {"sourceLanguage": "en", "version": "1.0", "strings": {
              "NewTrailTip.title": {"localizations": {
                "fr": {"stringUnit": {"state": "translated", "value": "Nouveau à {trail.regon}"}},
                "de": {"stringUnit": {"state": "translated", "value": "Neu in {trail.region}"}}}},
              "NewTrailTip.message": {"localizations": {
                "pl": {"variations": {"plural": {
                  "one": {"stringUnit": {"state": "translated", "value": "# szlak"}},
                  "other": {"stringUnit": {"state": "translated", "value": "# szlaku"}}}}},
                "ar": {"stringUnit": {"state": "needs_review", "value": "{count, plural, zero {#} one {#} two {#} few {#} many {#} other {#}}"}}}},
              "NewTrailTip.titel": {"localizations": {}}
            }}
            """
        let result = load(["tips/NewTrailTip.json": Self.trailTip, "Localizable.xcstrings": strings])
        let rules = result.diagnostics.map(\.ruleID).sorted()
        #expect(rules == ["not-translated", "orphan-translation", "placeholder-mismatch", "plural-category-fallback", "unsupported-locale"],
                "\(messages(result))")
        let mismatch = result.diagnostics.first { $0.ruleID == "placeholder-mismatch" }
        #expect(mismatch?.message.contains("{trail.regon}") == true)
        #expect(mismatch?.message.contains("did you mean 'trail.region'?") == true)
        let plural = result.diagnostics.first { $0.ruleID == "plural-category-fallback" }
        #expect(plural?.message.contains("'few' and 'many'") == true, "\(plural?.message ?? "")")
        // Runtime lookup: only translated values, along the fallback chain.
        let table = result.catalog.localizations
        #expect(table.translation("NewTrailTip.title", for: LocaleID("fr-CA")!) != nil)
        #expect(table.translation("NewTrailTip.message", for: LocaleID("ar")!) == nil)
    }

    @Test func groupsAndDuplicates() {
        let groups = """
            {"groups": [{"id": "g", "priority": "sequential", "tips": ["A"]}]}
            """
        let result = load(["tips/A.json": #"{"id": "A", "title": "x"}"#, "groups.json": groups])
        #expect(messages(result).first?.contains("'priority' in a group must be one of 'ordered', 'firstAvailable', found 'sequential'") == true)
    }

    @Test func settingsAreValidated() {
        let result = CatalogLoader(fileSystem: InMemoryFileSystem(files: [
            "cat/catalog.json": #"{"name": "T", "schemaVersion": 2, "sourceLanguage": "english", "supportedLocales": ["en"], "displayFrequency": "dayly"}"#,
        ])).load(directory: "cat")
        let rules = result.diagnostics.map(\.ruleID)
        #expect(rules.contains("unsupported-schema-version"))
        #expect(rules.contains("invalid-locale"))
        #expect(messages(result).contains { $0.contains("did you mean 'daily'?") })
    }

    @Test func displayFrequencyForms() {
        for (text, expected) in [(#""weekly""#, DisplayFrequency.weekly), ("3600", .custom(TimeSpan(seconds: 3600))), (#""12h""#, .custom(TimeSpan(seconds: 43_200)))] {
            let result = CatalogLoader(fileSystem: InMemoryFileSystem(files: [
                "cat/catalog.json": #"{"name": "T", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en"], "displayFrequency": \#(text)}"#,
            ])).load(directory: "cat")
            #expect(result.diagnostics.isEmpty)
            #expect(result.catalog.settings.displayFrequency == expected)
        }
    }
}
