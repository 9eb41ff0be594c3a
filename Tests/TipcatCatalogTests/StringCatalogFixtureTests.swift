import Testing
import TipcatCore
import TipcatLocalization
import TipcatTestSupport
@testable import TipcatCatalog

/// String Catalogs as Xcode writes them (`Tests/Fixtures/xcstrings/`), each validated as the sample catalog's
/// `Localizable.xcstrings`: the exact findings, then what is used at runtime.
@Suite struct StringCatalogFixtureTests {
    static let fixtures = repositoryRoot + "/Tests/Fixtures/xcstrings/"

    /// A copy of the sample catalog with `fixture` as its String Catalog; `edit` may change the copy first.
    func load(_ fixture: String, edit: (TemporaryDirectory) throws -> Void = { _ in }) throws -> (LoadResult, [String]) {
        try loadSampleCatalog(strings: Self.fixtures + fixture, edit: edit)
    }

    func format(_ table: LocalizationTable, _ key: String, _ locale: String, count: Int, device: Device? = nil) throws -> String {
        let locale = try #require(LocaleID(locale))
        let found = try #require(table.lookup(key, for: locale, device: device))
        return try found.translation.content.message.format(locale: found.locale) { $0 == "count" ? .int(count) : nil }
    }

    @Test func everythingXcodeWritesIsRead() throws {
        let (result, lines) = try load("xcode-features.xcstrings")
        // Keys no tip uses are the app's, kept whatever they hold (substitutions, device variations, printf
        // formats, an unknown extractionState, a bad locale): nothing to report, not even orphan-translation.
        #expect(lines == [])
        let table = result.catalog.localizations
        #expect(table.entries["%lld trails nearby"]?.comment == "Trail list header")
        #expect(table.entries["%lld trails nearby"]?.translations.isEmpty == true)
        // shouldTranslate: false: the 'new' French title is not reported, and not used: the String Catalog's
        // English string is.
        #expect(try format(table, "RotateMapTip.title", "fr", count: 0) == "Reorient the map")
        #expect(table.lookup("RotateMapTip.title", for: LocaleID("fr")!)?.locale == LocaleID("en"))
        #expect(try format(table, "FindTrailheadTip.title", "fr", count: 0) == "Trouver le point de départ")
        #expect(try format(table, "ShowLocationTip.title", "de", count: 0) == "Standort anzeigen")
    }

    @Test func pluralVariationsFollowFoundation() throws {
        let (result, lines) = try load("plurals.xcstrings") { directory in
            try directory.edit("Catalog/catalog.json", replacing: #""pl""#, with: #""pl", "es", "it", "pt""#)
        }
        // French, Spanish, Italian and Portuguese without 'many' validate: 'other' is used (a warning).
        #expect(lines == [
            "Localizable.xcstrings:57:24: warning: the 'es' translation of 'FindTrailheadTip.message' lacks the plural category 'many', which 'es' has; 'other' is used for those numbers [plural-category-fallback]",
            "Localizable.xcstrings:75:24: warning: the 'fr' translation of 'FindTrailheadTip.message' lacks the plural category 'many', which 'fr' has; 'other' is used for those numbers [plural-category-fallback]",
            "Localizable.xcstrings:93:24: warning: the 'it' translation of 'FindTrailheadTip.message' lacks the plural category 'many', which 'it' has; 'other' is used for those numbers [plural-category-fallback]",
            "Localizable.xcstrings:111:24: warning: the 'pl' translation of 'FindTrailheadTip.message' lacks the plural categories 'few' and 'many', which 'pl' has; 'other' is used for those numbers [plural-category-fallback]",
            "Localizable.xcstrings:129:24: warning: the 'pt' translation of 'FindTrailheadTip.message' lacks the plural category 'many', which 'pt' has; 'other' is used for those numbers [plural-category-fallback]",
        ])
        #expect(!result.diagnostics.hasErrors)
        let table = result.catalog.localizations
        let key = "FindTrailheadTip.message"
        // An explicit zero form is used for 0 in every language, although neither German nor English has the category.
        #expect(try format(table, key, "de", count: 0) == "In deiner Nähe gibt es keine Wanderwege.")
        #expect(try format(table, key, "de", count: 1) == "In deiner Nähe gibt es # Wanderweg.".replacingPound(1))
        #expect(try format(table, key, "en", count: 0) == "There are no trails near you.")
        #expect(try format(table, key, "en", count: 2) == "There are 2 trails near you. Tap Directions to get to the nearest trailhead.")
        // Without 'zero', 0 takes its CLDR category; missing 'many' and 'few' fall back to 'other'.
        #expect(try format(table, key, "fr", count: 0) == "Il y a 0 sentier près de vous.")
        #expect(try format(table, key, "fr", count: 1_000_000) == "Il y a 1000000 sentiers près de vous.")
        #expect(try format(table, key, "pl", count: 3) == "3 szlaku w pobliżu.")
        #expect(try format(table, key, "pl", count: 1) == "1 szlak w pobliżu.")
        // A locale without a translation falls back to the String Catalog's source-language string.
        #expect(try format(table, key, "ja", count: 0) == "There are no trails near you.")
    }

    @Test func findingsOnKeysTipsUse() throws {
        let (result, lines) = try load("tip-findings.xcstrings")
        // Device variations are checked device by device (here an iPhone form with a placeholder the source does
        // not have, a Mac substitution without 'many').
        #expect(lines == [
            "Localizable.xcstrings:12:30: error: the 'de' translation of 'FindTrailheadTip.message' (iphone) uses {region}, which the source text does not have [placeholder-mismatch]",
            "Localizable.xcstrings:62:34: warning: the substitution 'trails' of the 'fr' translation of 'FindTrailheadTip.message' (mac) lacks the plural category 'many', which 'fr' has; 'other' is used for those numbers [plural-category-fallback]",
            "Localizable.xcstrings:85:24: error: the 'ja' translation of 'FindTrailheadTip.message' lacks the plural category 'other', which 'ja' needs [missing-plural-category]",
            "Localizable.xcstrings:103:23: warning: the 'en' string of 'FindTrailheadTip.title' is \"{trailhead, select, nil {Find a trailhead} other {Find {trailhead}}}\" but the tip's text is \"{trailhead, select, nil {Find the trailhead} other {Find {trailhead}}}\"; the String Catalog's is shown [source-text-mismatch]",
            "Localizable.xcstrings:115:27: warning: string 'RotateMapTip.title' has the extractionState 'automatic', which Xcode does not write ('extracted_with_value', 'manual', 'migrated' or 'stale') [unknown-extraction-state]",
        ])
        let table = result.catalog.localizations
        // No plain string in these locales: the device variations (or nothing) are used.
        #expect(table.translation("FindTrailheadTip.message", for: LocaleID("fr")!) == nil)
        #expect(try format(table, "FindTrailheadTip.message", "fr", count: 2, device: .mac) == "2 sentiers")
        #expect(try format(table, "FindTrailheadTip.message", "de", count: 2, device: .mac) == "2 Wanderwege in der Nähe")
        #expect(try format(table, "FindTrailheadTip.message", "de", count: 1) == "1 Wanderweg in der Nähe")
        #expect(table.translation("FindTrailheadTip.message", for: LocaleID("ja")!) == nil)
        #expect(try format(table, "FindTrailheadTip.title", "en", count: 0) == "Find a trailhead")
        #expect(try format(table, "RotateMapTip.title", "fr", count: 0) == "Réorienter la carte")
    }

    @Test func printfValuesMapByPosition() throws {
        let (result, lines) = try load("printf.xcstrings")
        // Arguments that do not fit: a type, a position past the source's placeholders, a missing argument. A value
        // without a specifier or `%%` is a message as before.
        #expect(lines == [
            "Localizable.xcstrings:34:27: error: %@ in the 'ja' translation of 'FindTrailheadTip.message' formats an object (a string), but {count} is int [printf-mismatch]",
            "Localizable.xcstrings:45:41: error: %2$@ in the 'ar' translation of 'NewTrailTip.message' is argument 2, but the source text has 1 placeholder ({trail.region}) [printf-mismatch]",
            "Localizable.xcstrings:68:23: error: the 'de' translation of 'NewTrailTip.title' has no argument for {trail.name} (placeholder 1) of the source text [printf-mismatch]",
            "Localizable.xcstrings:80:23: error: the 'pl' translation of 'NewTrailTip.title' lacks {trail.name} from the source text [placeholder-mismatch]",
        ])
        let table = result.catalog.localizations
        let values: (String) -> Value? = { path in
            ["count": .int(3), "trail.name": .string("Butler Fork"), "trail.region": .string("Wasatch")][path]
        }
        func render(_ key: String, _ locale: String) throws -> String {
            let id = try #require(LocaleID(locale))
            let found = try #require(table.lookup(key, for: id))
            return try found.translation.content.message.format(locale: found.locale, value: values)
        }
        #expect(try render("NewTrailTip.title", "fr") == "Butler Fork est maintenant disponible")
        #expect(try render("NewTrailTip.message", "fr") == "Touchez « Wasatch » sur la carte (50 % plus vite).")
        #expect(try render("NewTrailTip.message", "de") == "Tippe auf der Karte auf Wasatch, um Infos zu sehen.")
        #expect(try render("FindTrailheadTip.message", "fr") == "Il y a 3 sentiers près de vous.")
        #expect(try render("FindTrailheadTip.message", "de") == "In deiner Nähe gibt es 3 Wanderwege.")
        #expect(try format(table, "FindTrailheadTip.message", "de", count: 1) == "In deiner Nähe gibt es 1 Wanderweg (100 %).")
    }

    @Test func substitutionsArePlurals() throws {
        let (result, lines) = try load("substitutions.xcstrings")
        #expect(lines == [
            "Localizable.xcstrings:10:23: error: the 'ar' translation of 'FindTrailheadTip.message' uses %#@places@, which its substitutions do not define [printf-mismatch]",
            "Localizable.xcstrings:135:35: error: the substitution 'trails' of the 'ja' translation of 'FindTrailheadTip.message' has the formatSpecifier '@'; a plural substitution needs an integer (lld, d, u) or floating-point (f, lf) one [printf-mismatch]",
            "Localizable.xcstrings:159:28: warning: the substitution 'trails' of the 'pl' translation of 'FindTrailheadTip.message' lacks the plural categories 'few' and 'many', which 'pl' has; 'other' is used for those numbers [plural-category-fallback]",
            "Localizable.xcstrings:190:35: error: %lld in the substitution 'region' of the 'ja' translation of 'NewTrailTip.message' formats an integer, but {trail.region} is string [printf-mismatch]",
        ])
        let table = result.catalog.localizations
        let key = "FindTrailheadTip.message"
        #expect(try format(table, key, "fr", count: 1) == "Il y a 1 sentier près de vous. Touchez « Itinéraire ».")
        #expect(try format(table, key, "fr", count: 1_000_000) == "Il y a 1000000 de sentiers près de vous. Touchez « Itinéraire ».")
        #expect(try format(table, key, "de", count: 0) == "In deiner Nähe: keine Wanderwege.")
        #expect(try format(table, key, "de", count: 4) == "In deiner Nähe: 4 Wanderwege.")
        #expect(try format(table, key, "pl", count: 3) == "W pobliżu: 3 szlaku.")
    }
}

private extension String {
    func replacingPound(_ number: Int) -> String {
        split(separator: "#", omittingEmptySubsequences: false).joined(separator: String(number))
    }
}

/// Loads a copy of the sample catalog whose String Catalog is the file at `strings`; `edit` may change the copy
/// first. Returns the result and its findings as printed, with paths relative to the catalog.
func loadSampleCatalog(strings: String, edit: (TemporaryDirectory) throws -> Void = { _ in }) throws -> (LoadResult, [String]) {
    let directory = try TemporaryDirectory()
    let catalog = try directory.sampleCatalog()
    try directory.write("Catalog/Localizable.xcstrings", try String(contentsOfFile: strings, encoding: .utf8))
    try edit(directory)
    let result = CatalogLoader().load(directory: catalog)
    let lines = result.diagnostics.sortedForOutput().map { diagnostic in
        var line = diagnostic.description
        if line.hasPrefix(catalog + "/") { line.removeFirst(catalog.count + 1) }
        return line
    }
    return (result, lines)
}
