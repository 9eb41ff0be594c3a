import Foundation

/// The vendored CLDR plural rules (`Tests/Fixtures/cldr/plurals.json`) and their sample numbers, for tests.
public enum CLDRPluralFixture {
    /// `Tests/Fixtures` in this checkout (found from this file's path; no ../shared needed).
    public static let fixturesDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    public struct LocaleSamples: Sendable, CustomStringConvertible {
        /// The CLDR key as written (`pt-PT`, `en`).
        public var locale: String
        /// category → sample numbers as written, ranges expanded, `…` skipped.
        public var samples: [String: [String]]
        public var description: String { locale }
    }

    public enum FixtureError: Error { case malformed(String) }

    /// Every locale of the fixture, sorted by key.
    public static func load() throws -> [LocaleSamples] {
        let data = try Data(contentsOf: fixturesDirectory.appendingPathComponent("cldr/plurals.json"))
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let supplemental = root["supplemental"] as? [String: Any],
              let cardinal = supplemental["plurals-type-cardinal"] as? [String: [String: String]]
        else { throw FixtureError.malformed("plurals.json has no supplemental/plurals-type-cardinal") }
        return try cardinal.keys.sorted().map { key in
            var samples: [String: [String]] = [:]
            for (ruleKey, text) in cardinal[key] ?? [:] {
                samples[String(ruleKey.dropFirst("pluralRule-count-".count))] = try Self.samples(of: text)
            }
            return LocaleSamples(locale: key, samples: samples)
        }
    }

    /// The samples of one rule: `@integer 0, 2~16, 1c3, … @decimal 0.0~1.5, …`, ranges expanded, `…` skipped.
    public static func samples(of ruleText: String) throws -> [String] {
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
    public static func expand(_ low: String, _ high: String) throws -> [String] {
        func split(_ text: String) throws -> (scaled: Int, decimals: Int) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            let decimals = parts.count == 2 ? parts[1].count : 0
            guard let scaled = Int(parts.joined()) else { throw FixtureError.malformed("bad sample \(text)") }
            return (scaled, decimals)
        }
        let (from, decimals) = try split(low)
        let (to, highDecimals) = try split(high)
        guard decimals == highDecimals, from <= to else { throw FixtureError.malformed("bad range \(low)~\(high)") }
        return (from...to).map { value in
            guard decimals > 0 else { return String(value) }
            var digits = String(value)
            while digits.count <= decimals { digits = "0" + digits }
            return digits.dropLast(decimals) + "." + digits.suffix(decimals)
        }
    }
}
