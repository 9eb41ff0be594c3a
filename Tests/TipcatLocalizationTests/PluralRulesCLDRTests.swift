import Foundation
import Testing
@testable import TipcatLocalization

/// Checks the generated rules against every sample CLDR lists, for every locale.
@Suite struct PluralRulesCLDRTests {
    /// locale key → category → the rule text after the condition (`@integer …` / `@decimal …`).
    static func loadFixture() throws -> [String: [PluralCategory: String]] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/cldr/plurals.json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        let root = try #require(object as? [String: Any])
        let supplemental = try #require(root["supplemental"] as? [String: Any])
        let cardinal = try #require(supplemental["plurals-type-cardinal"] as? [String: [String: String]])
        var result: [String: [PluralCategory: String]] = [:]
        for (locale, rules) in cardinal {
            for (key, text) in rules {
                let category = try #require(PluralCategory(rawValue: String(key.dropFirst("pluralRule-count-".count))))
                result[locale, default: [:]][category] = text
            }
        }
        return result
    }

    /// The samples of one rule: `@integer 0, 2~16, 1c3, … @decimal 0.0~1.5, …`, ranges expanded, `…` skipped.
    static func samples(of ruleText: String) throws -> [String] {
        guard let at = ruleText.firstIndex(of: "@") else { return [] }
        var result: [String] = []
        for item in ruleText[at...].split(whereSeparator: { $0 == "," || $0 == " " }) {
            if item == "@integer" || item == "@decimal" || item == "…" { continue }
            let bounds = item.split(separator: "~")
            if bounds.count == 2 {
                result += try expand(String(bounds[0]), String(bounds[1]))
            } else {
                result.append(String(item))
            }
        }
        return result
    }

    /// `0.0~1.5` → 0.0, 0.1, …, 1.5: steps in the last written decimal place, keeping the written precision.
    static func expand(_ low: String, _ high: String) throws -> [String] {
        func split(_ text: String) throws -> (scaled: Int, decimals: Int) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            let decimals = parts.count == 2 ? parts[1].count : 0
            return (try #require(Int(parts.joined())), decimals)
        }
        let (from, decimals) = try split(low)
        let (to, highDecimals) = try split(high)
        try #require(decimals == highDecimals && from <= to, "bad range \(low)~\(high)")
        return (from...to).map { value in
            guard decimals > 0 else { return String(value) }
            var digits = String(value)
            while digits.count <= decimals { digits = "0" + digits }
            return digits.dropLast(decimals) + "." + digits.suffix(decimals)
        }
    }

    @Test func rangesExpandInTheLastWrittenPlace() throws {
        #expect(try Self.expand("0.00", "0.04") == ["0.00", "0.01", "0.02", "0.03", "0.04"])
        #expect(try Self.expand("2", "4") == ["2", "3", "4"])
        #expect(try Self.expand("0.9", "1.1") == ["0.9", "1.0", "1.1"])
    }

    @Test func everySampleOfEveryLocale() throws {
        let fixture = try Self.loadFixture()
        #expect(fixture.count == 216)
        var checked = 0
        var compact = 0
        var failures: [String] = []
        for (key, rules) in fixture {
            let locale = try #require(LocaleID(key), "CLDR key \(key) is not a LocaleID")
            for (category, text) in rules {
                for sample in try Self.samples(of: text) {
                    let operands = try #require(PluralOperands(sample), "\(key): sample \(sample) does not parse")
                    let actual = PluralRules.category(for: operands, locale: locale)
                    if actual != category { failures.append("\(key) \(sample): \(actual), expected \(category)") }
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
        let fixture = try Self.loadFixture()
        #expect(PluralRules.locales == fixture.keys.map { $0.replacingOccurrences(of: "_", with: "-") }.sorted())
        for (key, rules) in fixture {
            let locale = try #require(LocaleID(key))
            #expect(PluralRules.categories(for: locale) == rules.keys.sorted(), "\(key)")
            #expect(PluralRules.hasRules(for: locale))
        }
    }
}
