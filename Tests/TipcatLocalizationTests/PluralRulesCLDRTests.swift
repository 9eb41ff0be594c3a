import Foundation
import Testing
import TipcatTestSupport
@testable import TipcatLocalization

/// Checks the generated rules against every sample CLDR lists, for every locale.
@Suite struct PluralRulesCLDRTests {
    @Test func rangesExpandInTheLastWrittenPlace() throws {
        #expect(try CLDRPluralFixture.expand("0.00", "0.04") == ["0.00", "0.01", "0.02", "0.03", "0.04"])
        #expect(try CLDRPluralFixture.expand("2", "4") == ["2", "3", "4"])
        #expect(try CLDRPluralFixture.expand("0.9", "1.1") == ["0.9", "1.0", "1.1"])
        #expect(try CLDRPluralFixture.samples(of: "n = 1 @integer 1, 3~4, … @decimal 1.0, 1c3") == ["1", "3", "4", "1.0", "1c3"])
    }

    @Test func everySampleOfEveryLocale() throws {
        let fixture = try CLDRPluralFixture.load()
        #expect(fixture.count == 216)
        var checked = 0
        var compact = 0
        var failures: [String] = []
        for entry in fixture {
            let locale = try #require(LocaleID(entry.locale), "CLDR key \(entry.locale) is not a LocaleID")
            for (name, samples) in entry.samples {
                let category = try #require(PluralCategory(rawValue: name))
                for sample in samples {
                    let operands = try #require(PluralOperands(sample), "\(entry.locale): sample \(sample) does not parse")
                    let actual = PluralRules.category(for: operands, locale: locale)
                    if actual != category { failures.append("\(entry.locale) \(sample): \(actual), expected \(category)") }
                    checked += 1
                    if sample.contains("c") { compact += 1 }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(20).joined(separator: "; "))")
        // Compact-exponent samples (`1c6`, `1.1c3`) are included, not skipped.
        #expect(compact > 100)
        #expect(checked > 10_000)
    }

    @Test func categoriesAndLocalesMatchTheFixture() throws {
        let fixture = try CLDRPluralFixture.load()
        #expect(PluralRules.locales == fixture.map { $0.locale.replacingOccurrences(of: "_", with: "-") }.sorted())
        for entry in fixture {
            let locale = try #require(LocaleID(entry.locale))
            #expect(PluralRules.categories(for: locale).map(\.rawValue) == entry.samples.keys.compactMap(PluralCategory.init).sorted().map(\.rawValue), "\(entry.locale)")
            #expect(PluralRules.hasRules(for: locale))
        }
    }
}
