import Testing
import TipcatCore
import TipcatLocalization
import TipcatTestSupport
@testable import TipcatCatalog

/// `Tests/Fixtures/xcstrings/device-variations.xcstrings`: device variations are rendered, the device's own
/// first, then `other`, then the locale's plain string, then the next locale of the chain, then the source text.
@Suite struct DeviceVariationTests {
    static let fixture = repositoryRoot + "/Tests/Fixtures/xcstrings/device-variations.xcstrings"

    func load() throws -> (LoadResult, [String]) { try loadSampleCatalog(strings: Self.fixture) }

    func text(_ catalog: Catalog, _ tip: String, _ locale: String, device: Device?, count: Int = 2) throws -> (message: String?, title: String) {
        let tip = try #require(catalog.tip(TipID(tip)))
        let resolved = try TipResolver(catalog: catalog).resolve(
            tip, locale: try #require(LocaleID(locale)), parameters: tip.parameters.isEmpty ? [:] : ["count": .int(count)], device: device)
        return (resolved.message?.text, resolved.title.text)
    }

    @Test func noFindingsForRenderedDeviceVariations() throws {
        let (_, lines) = try load()
        #expect(!lines.contains { $0.contains("unsupported-string-catalog-feature") || $0.contains("Localizable.xcstrings:") && $0.contains("error") },
                "\(lines)")
        #expect(lines.contains { $0.contains("'de' translation of 'ShowLocationTip.message' (mac)") && $0.contains("needs_review") })
    }

    @Test func fallbackOrder() throws {
        let catalog = try load().0.catalog
        // The device's own variation.
        #expect(try text(catalog, "ShowLocationTip", "fr", device: .mac).message == "Cliquez sur la boussole pour voir votre position sur la carte.")
        #expect(try text(catalog, "ShowLocationTip", "fr", device: .iphone).message == "Touchez la boussole pour voir votre position sur la carte.")
        #expect(try text(catalog, "ShowLocationTip", "fr", device: .watch).message == "Touchez la boussole.")
        // No variation for the device, or no device: `other`.
        #expect(try text(catalog, "ShowLocationTip", "fr", device: .tv).message == "Utilisez la boussole pour voir votre position sur la carte.")
        #expect(try text(catalog, "ShowLocationTip", "fr", device: nil).message == "Utilisez la boussole pour voir votre position sur la carte.")
        // fr-CA varies only for the Mac; other devices fall back to fr (device, then other, then plain).
        #expect(try text(catalog, "ShowLocationTip", "fr-CA", device: .mac).message == "Cliquez sur la boussole (Canada).")
        #expect(try text(catalog, "ShowLocationTip", "fr-CA", device: .iphone).message == "Touchez la boussole pour voir votre position sur la carte.")
        #expect(try text(catalog, "ShowLocationTip", "fr-CA", device: .mac).title == "Afficher votre position (Mac)")
        #expect(try text(catalog, "ShowLocationTip", "fr-CA", device: .vision).title == "Afficher votre position")
        #expect(try text(catalog, "ShowLocationTip", "fr-CA", device: nil).title == "Afficher votre position")
        // Neither the device, nor `other`, nor a plain string (an untranslated Mac form is not used): the source text.
        #expect(try text(catalog, "ShowLocationTip", "de", device: .ipad).message == "Tippe auf den Kompass (iPad).")
        #expect(try text(catalog, "ShowLocationTip", "de", device: .mac).message == "Tap the compass to highlight your current location on the map.")
        #expect(try text(catalog, "ShowLocationTip", "de", device: nil).message == "Tap the compass to highlight your current location on the map.")
    }

    @Test func pluralsAndSubstitutionsUnderDevices() throws {
        let catalog = try load().0.catalog
        #expect(try text(catalog, "FindTrailheadTip", "fr", device: .iphone, count: 1).message == "Il y a 1 sentier près de vous. Touchez Itinéraire.")
        #expect(try text(catalog, "FindTrailheadTip", "fr", device: .iphone, count: 3).message == "Il y a 3 sentiers près de vous. Touchez Itinéraire.")
        #expect(try text(catalog, "FindTrailheadTip", "fr", device: .mac, count: 1).message == "1 sentier près de vous. Cliquez sur Itinéraire.")
        #expect(try text(catalog, "FindTrailheadTip", "fr", device: .mac, count: 1_000_000).message == "1000000 de sentiers près de vous. Cliquez sur Itinéraire.")
        #expect(try text(catalog, "FindTrailheadTip", "fr", device: .ipad, count: 2).message == "2 sentiers près de vous.")
        // The localization's substitutions, shared by its device variations.
        #expect(try text(catalog, "FindTrailheadTip", "de", device: .mac, count: 1).message == "1 Wanderweg in der Nähe. Klicke auf Route.")
        #expect(try text(catalog, "FindTrailheadTip", "de", device: nil, count: 4).message == "4 Wanderwege in der Nähe.")
    }

    @Test func deviceNamesMapToXcodes() {
        #expect(Device.allCases.map(\.catalogName) == ["iphone", "ipad", "mac", "applewatch", "appletv", "applevision"])
        #expect(Set(Device.allCases.map(\.catalogName) + [Device.otherCatalogName]) == Set(StringCatalogDecoder.devices))
    }

    /// A locale that varies by device counts as translated by its `other` variation (else by all of them).
    @Test func coverageCountsDeviceVariations() throws {
        let catalog = try load().0.catalog
        let entry = try #require(catalog.localizations.entries["ShowLocationTip.message"])
        #expect(entry.state(for: try #require(LocaleID("fr"))) == .translated)
        #expect(entry.state(for: try #require(LocaleID("de"))) == .needsReview)
        #expect(entry.state(for: try #require(LocaleID("ja"))) == nil)
        let coverage = TranslationCoverage(catalog: catalog)
        let french = try #require(coverage.locales.first { $0.locale == LocaleID("fr") })
        #expect(french.translated == 3, "ShowLocationTip's title and message, FindTrailheadTip's message")
    }

    /// A translation's subject in findings, built in one allocation, reads as the sentence it replaces.
    @Test func translationSubjectsReadAsBefore() {
        for (locale, key, source, device) in [
            ("fr", "ShowLocationTip.title", false, nil), ("en", "Tip.message", true, nil), ("zh-Hant-TW", "Ünïcode 🙂 key", false, "mac"),
            ("ja", "", false, "iphone"), ("de", "quote ' and \\ key", true, "watch"),
        ] as [(String, String, Bool, String?)] {
            let expected = (source ? "the '\(locale)' string of '\(key)'" : "the '\(locale)' translation of '\(key)'") + (device.map { " (\($0))" } ?? "")
            #expect(StringCatalogDecoder.subject(locale: locale, key: key, isSourceLanguage: source, device: device) == expected)
        }
    }
}
