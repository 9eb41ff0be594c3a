import Testing
@testable import TipcatLocalization

@Suite struct LocaleIDTests {
    @Test(arguments: [
        ("en", "en"), ("fr-ca", "fr-CA"), ("zh_hant", "zh-Hant"), ("ZH-hant-tw", "zh-Hant-TW"), ("pt_PT", "pt-PT"),
        ("es-419", "es-419"), ("AST", "ast"), ("sr-LATN", "sr-Latn"),
    ])
    func normalizes(_ input: String, _ expected: String) throws {
        let locale = try #require(LocaleID(input))
        #expect(locale.identifier == expected)
        #expect(locale.description == expected)
    }

    @Test(arguments: [
        "english", "e", "en-", "123", "", "-en", "en--US", "en-US-x", "en-USA", "en-1234", "en-Latn-US-POSIX",
        "e1", "en US", "fr-CA-", "de-12", "é", "zh-Hant-Hans",
    ])
    func rejects(_ input: String) {
        #expect(LocaleID(input) == nil)
    }

    @Test func subtags() throws {
        let locale = try #require(LocaleID("zh_hant_tw"))
        #expect(locale.language == "zh")
        #expect(locale.script == "Hant")
        #expect(locale.region == "TW")
        let plain = try #require(LocaleID("de"))
        #expect(plain.script == nil && plain.region == nil)
        #expect(try #require(LocaleID("es-419")).region == "419")
    }

    @Test func fallbackChains() throws {
        func chain(_ text: String, _ source: String) throws -> [String] {
            try #require(LocaleID(text)).fallbackChain(sourceLanguage: try #require(LocaleID(source))).map(\.identifier)
        }
        #expect(try chain("fr-CA", "en") == ["fr-CA", "fr", "en"])
        #expect(try chain("zh-Hant-TW", "en") == ["zh-Hant-TW", "zh-Hant", "zh", "en"])
        #expect(try chain("sr-Latn", "en") == ["sr-Latn", "sr", "en"])
        #expect(try chain("fr", "en") == ["fr", "en"])
        #expect(try chain("en-GB", "en") == ["en-GB", "en"])
        #expect(try chain("en", "en") == ["en"])
        #expect(try chain("fr-CA", "fr-CA") == ["fr-CA", "fr"])
    }

    @Test func ordersByIdentifier() throws {
        let ids = try ["fr-CA", "de", "fr", "ar"].map { try #require(LocaleID($0)) }
        #expect(ids.sorted().map(\.identifier) == ["ar", "de", "fr", "fr-CA"])
        #expect(LocaleID("FR_ca") == LocaleID("fr-CA"))
    }
}
