import Testing
import TipcatCatalog
import TipcatLocalization

@Suite struct TranslationCoverageTests {
    func coverage(translated: Int, missing: Int) throws -> TranslationCoverage.LocaleCoverage {
        TranslationCoverage.LocaleCoverage(locale: try #require(LocaleID("fr")), translated: translated, missing: missing)
    }

    @Test func percentIsRoundedHalfUpToOneDecimal() throws {
        #expect(try coverage(translated: 1, missing: 7).percentText == "12.5")
        #expect(try coverage(translated: 2, missing: 1).percentText == "66.7")
        #expect(try coverage(translated: 1, missing: 2).percentText == "33.3")
        #expect(try coverage(translated: 13, missing: 23).percentText == "36.1")
        #expect(try coverage(translated: 1, missing: 1999).percentText == "0.1")  // 0.05 rounds up
        #expect(try coverage(translated: 0, missing: 3).percentText == "0.0")
        #expect(try coverage(translated: 3, missing: 0).percentText == "100.0")
        #expect(try coverage(translated: 0, missing: 0).percentText == "100.0")
    }

    @Test func belowComparesTheExactShare() throws {
        let twoThirds = try coverage(translated: 2, missing: 1)  // 66.666…, shown as 66.7
        #expect(twoThirds.isBelow(66.7))
        #expect(!twoThirds.isBelow(66.6))
        #expect(!(try coverage(translated: 1, missing: 1)).isBelow(50))
        #expect((try coverage(translated: 1, missing: 1)).isBelow(50.1))
        #expect(!(try coverage(translated: 0, missing: 0)).isBelow(100))
        #expect(!(try coverage(translated: 0, missing: 5)).isBelow(0))
    }
}
