import Testing
import TipcatCore
import TipcatLocalization
@testable import TipcatCatalog

/// `LocaleMap` reads as the dictionary of the same pairs does, whatever the order they were set and removed in.
@Suite struct LocaleMapTests {
    static let locales = ["en", "fr", "fr-CA", "de", "ja", "zh-Hant", "zh-Hant-TW", "ar", "pt-BR", "pt", "es-419", "sr-Latn"]
        .compactMap { LocaleID($0) }

    /// Random sets, replacements and removals, against a dictionary: the same values, the locales in their
    /// identifiers' UTF-8 order, and maps of the same pairs equal (and hashed alike) however they were made.
    @Test func agreesWithADictionary() {
        var random = SeededGenerator(seed: 0x10CA1E)
        #expect(Self.locales.count == 12)
        for _ in 0..<300 {
            var map = LocaleMap<Int>()
            var model: [LocaleID: Int] = [:]
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                let locale = Self.locales[Int.random(in: 0..<Self.locales.count, using: &random)]
                let value: Int? = Int.random(in: 0..<4, using: &random) == 0 ? nil : Int.random(in: 0..<1000, using: &random)
                map[locale] = value
                model[locale] = value
            }
            for locale in Self.locales { #expect(map[locale] == model[locale]) }
            let canonical = model.keys.sorted { $0.identifier.utf8.lexicographicallyPrecedes($1.identifier.utf8) }
            #expect(map.keys == canonical)
            #expect(map.values == canonical.compactMap { model[$0] })
            #expect(map.map(\.key) == canonical && map.count == model.count && map.isEmpty == model.isEmpty)
            #expect(map.dictionary == model)
            // The same pairs set in another order, or from the dictionary, make an equal map.
            var shuffled = LocaleMap<Int>()
            for (locale, value) in model.shuffled(using: &random) { shuffled[locale] = value }
            let fromDictionary = LocaleMap(model)
            #expect(shuffled == map && fromDictionary == map)
            #expect(shuffled.hashValue == map.hashValue && fromDictionary.hashValue == map.hashValue)
            #expect(map.mapValues { $0 * 2 }.dictionary == model.mapValues { $0 * 2 })
            if let (locale, value) = model.first {
                var other = map
                other[locale] = value + 1
                #expect(other != map)
            }
        }
    }

    /// Maps with the same locales share one array of them; changing one leaves the others as they were.
    @Test func sharedLocalesStayEachMapsOwn() throws {
        let (de, en, fr) = (try #require(LocaleID("de")), try #require(LocaleID("en")), try #require(LocaleID("fr")))
        var known: [[LocaleID]] = []
        var first: LocaleMap<Int> = [en: 1, fr: 2]
        var second: LocaleMap<Int> = [fr: 3, en: 4]
        var third: LocaleMap<Int> = [de: 5]
        for index in 0..<3 {
            switch index {
            case 0: first.shareLocales(with: &known)
            case 1: second.shareLocales(with: &known)
            default: third.shareLocales(with: &known)
            }
        }
        #expect(known.count == 2)
        #expect(first.sharesLocales(with: second) && !first.sharesLocales(with: third))
        second[de] = 6
        #expect(first.keys == [en, fr] && first.values == [1, 2])
        #expect(second.keys == [de, en, fr] && second.values == [6, 4, 3])
        #expect(!first.sharesLocales(with: second))
        first[en] = nil
        #expect(first.keys == [fr] && second.keys == [de, en, fr] && known[0] == [en, fr])
    }

    @Test func literalsAndDescriptions() throws {
        let (fr, en) = (try #require(LocaleID("fr")), try #require(LocaleID("en")))
        let map: LocaleMap<String> = [fr: "bonjour", en: "hello"]
        #expect(map.keys == [en, fr])
        #expect(map.description == "[en: hello, fr: bonjour]")
        #expect(LocaleMap<String>().isEmpty && LocaleMap<String>().description == "[]")
    }
}
