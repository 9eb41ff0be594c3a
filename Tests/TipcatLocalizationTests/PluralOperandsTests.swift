import Testing
@testable import TipcatLocalization

@Suite struct PluralOperandsTests {
    struct Expected: Sendable, CustomStringConvertible {
        var text: String
        var n: Double, i: Int, v: Int, w: Int, f: Int, t: Int, c: Int
        var description: String { text }
    }

    // The examples of UTS #35 "Plural Operand Meanings", plus signs and exponents.
    @Test(arguments: [
        Expected(text: "1", n: 1, i: 1, v: 0, w: 0, f: 0, t: 0, c: 0),
        Expected(text: "1.0", n: 1, i: 1, v: 1, w: 0, f: 0, t: 0, c: 0),
        Expected(text: "1.00", n: 1, i: 1, v: 2, w: 0, f: 0, t: 0, c: 0),
        Expected(text: "1.3", n: 1.3, i: 1, v: 1, w: 1, f: 3, t: 3, c: 0),
        Expected(text: "1.30", n: 1.3, i: 1, v: 2, w: 1, f: 30, t: 3, c: 0),
        Expected(text: "1.03", n: 1.03, i: 1, v: 2, w: 2, f: 3, t: 3, c: 0),
        Expected(text: "1.230", n: 1.23, i: 1, v: 3, w: 2, f: 230, t: 23, c: 0),
        Expected(text: "1200000", n: 1_200_000, i: 1_200_000, v: 0, w: 0, f: 0, t: 0, c: 0),
        Expected(text: "1.2c6", n: 1_200_000, i: 1_200_000, v: 0, w: 0, f: 0, t: 0, c: 6),
        Expected(text: "1.2e3", n: 1200, i: 1200, v: 0, w: 0, f: 0, t: 0, c: 3),
        Expected(text: "123c6", n: 123_000_000, i: 123_000_000, v: 0, w: 0, f: 0, t: 0, c: 6),
        Expected(text: "1.0000001c6", n: 1_000_000.1, i: 1_000_000, v: 1, w: 1, f: 1, t: 1, c: 6),
        Expected(text: "-3", n: 3, i: 3, v: 0, w: 0, f: 0, t: 0, c: 0),
        Expected(text: "+1.50", n: 1.5, i: 1, v: 2, w: 1, f: 50, t: 5, c: 0),
        Expected(text: "007", n: 7, i: 7, v: 0, w: 0, f: 0, t: 0, c: 0),
    ])
    func operandsOfWrittenNumbers(_ expected: Expected) throws {
        let operands = try #require(PluralOperands(expected.text))
        #expect(operands.n == expected.n)
        #expect(operands.i == expected.i)
        #expect(operands.v == expected.v)
        #expect(operands.w == expected.w)
        #expect(operands.f == expected.f)
        #expect(operands.t == expected.t)
        #expect(operands.c == expected.c)
        #expect(operands.e == expected.c)
        #expect(!operands.isIntegerTruncated && !operands.isFractionTruncated)
    }

    @Test(arguments: ["", "-", "+", ".5", "5.", "1..2", "1.2.3", "1e", "1e-3", "1,000", " 1", "1 ", "abc", "0x10", "1c3c3", "١", "1e99999999999999999999"])
    func rejectsOtherText(_ text: String) {
        #expect(PluralOperands(text) == nil)
    }

    @Test func writtenFormMatters() throws {
        #expect(PluralOperands("1") != PluralOperands("1.0"))
        #expect(PluralOperands("1") == PluralOperands(1))
        #expect(PluralOperands("-3") == PluralOperands(-3))
        let pl = try #require(LocaleID("pl"))
        #expect(PluralRules.category(for: try #require(PluralOperands("2")), locale: pl) == .few)
        #expect(PluralRules.category(for: try #require(PluralOperands("2.0")), locale: pl) == .other)
    }

    @Test func hugeNumbersDoNotOverflow() throws {
        let huge = try #require(PluralOperands("123456789012345678901234567891"))
        #expect(huge.isIntegerTruncated)
        #expect(huge.i == 345_678_901_234_567_891)
        #expect(huge.operand(.i) == -1)  // equals no small constant
        #expect(huge.operand(.i, mod: 100) == 91)
        #expect(huge.operand(.n, mod: 10) == 1)
        let ru = try #require(LocaleID("ru"))
        let en = try #require(LocaleID("en"))
        // ru: i % 10 = 1 and i % 100 != 11 → one, for any length.
        #expect(PluralRules.category(for: huge, locale: ru) == .one)
        // en: i = 1 and v = 0 → one; a 30-digit number ending in 1 is not 1.
        #expect(PluralRules.category(for: try #require(PluralOperands("1" + String(repeating: "0", count: 29) + "1")), locale: en) == .other)
        #expect(PluralRules.category(for: try #require(PluralOperands("000000000000000000000000000001")), locale: en) == .one)
        #expect(PluralOperands("000000000000000000000000000001")?.isIntegerTruncated == false)

        let longFraction = try #require(PluralOperands("0." + String(repeating: "0", count: 25) + "1"))
        #expect(longFraction.v == 26)
        #expect(longFraction.f == 1 && longFraction.t == 1)
        #expect(longFraction.isFractionTruncated == false)
        #expect(longFraction.operand(.n) == -1)
        let trailingZeros = try #require(PluralOperands("0.1" + String(repeating: "0", count: 25)))
        #expect(trailingZeros.isFractionTruncated && !trailingZeros.isTrimmedFractionTruncated)
        #expect(trailingZeros.t == 1 && trailingZeros.w == 1)
        #expect(trailingZeros.operand(.f) == -1)
        #expect(trailingZeros.operand(.f, mod: 10) == 0)

        let bigExponent = try #require(PluralOperands("1c1000"))
        #expect(bigExponent.isIntegerTruncated && bigExponent.i == 0 && bigExponent.c == 1000)
        #expect(PluralOperands(Int.min).isIntegerTruncated)
        #expect(PluralOperands(Int.max).i == Int.max % 1_000_000_000_000_000_000)
    }

    @Test func doublesUseTheirShortestForm() throws {
        #expect(PluralOperands(2.0) == PluralOperands("2"))
        #expect(PluralOperands(1.5) == PluralOperands("1.5"))
        #expect(PluralOperands(0.000012) == PluralOperands("0.000012"))
        #expect(PluralOperands(Double.nan) == nil)
        #expect(PluralOperands(-Double.infinity) == nil)
    }

    @Test func numberText() {
        #expect(NumberText.format(2.0) == "2")
        #expect(NumberText.format(-0.0) == "0")
        #expect(NumberText.format(1.5) == "1.5")
        #expect(NumberText.format(0.1 + 0.2) == "0.30000000000000004")
        #expect(NumberText.format(1.2e-5) == "0.000012")
        #expect(NumberText.format(-1.25e-7) == "-0.000000125")
        #expect(NumberText.format(1e20) == "100000000000000000000")
        #expect(NumberText.format(1.5e300).count == 301)
        #expect(NumberText.format(.nan) == "NaN")
        #expect(NumberText.format(-.infinity) == "-∞")
        #expect(NumberText.integer(-42) == "-42")
    }
}

@Suite struct PluralRulesTests {
    func category(_ text: String, _ locale: String) throws -> PluralCategory {
        PluralRules.category(for: try #require(PluralOperands(text)), locale: try #require(LocaleID(locale)))
    }

    @Test func arabicAndPolish() throws {
        #expect(try category("0", "ar") == .zero)
        #expect(try category("1", "ar") == .one)
        #expect(try category("2", "ar") == .two)
        #expect(try category("3", "ar") == .few)
        #expect(try category("11", "ar") == .many)
        #expect(try category("100", "ar") == .other)
        #expect(try category("1", "pl") == .one)
        #expect(try category("2", "pl") == .few)
        #expect(try category("5", "pl") == .many)
        #expect(try category("22", "pl") == .few)
        #expect(try category("12", "pl") == .many)
        #expect(try category("1.5", "pl") == .other)
    }

    @Test func localeFallback() throws {
        // pt-PT has its own rules: 0 is "other" there but "one" in pt.
        #expect(try category("0", "pt") == .one)
        #expect(try category("0", "pt-PT") == .other)
        #expect(try category("0", "pt-BR") == .one)
        // fr-CA falls back to fr, zh-Hant-TW to zh, unknown languages to root (other).
        #expect(try category("0", "fr-CA") == .one)
        #expect(try category("1", "zh-Hant-TW") == .other)
        #expect(try category("1", "xx") == .other)
        #expect(PluralRules.hasRules(for: try #require(LocaleID("fr-CA"))))
        #expect(!PluralRules.hasRules(for: try #require(LocaleID("xx"))))
        #expect(PluralRules.categories(for: try #require(LocaleID("xx"))) == [.other])
        #expect(PluralRules.categories(for: try #require(LocaleID("pl-PL"))) == [.one, .few, .many, .other])
        #expect(PluralRules.categories(for: try #require(LocaleID("ar"))) == PluralCategory.allCases)
        // A region with rules of its own takes them (pt-PT: one, many, other), not its language's (pt: also 0 is
        // one); a script and region without rules of their own fall back to the language.
        #expect(try category("0", "pt-PT") == .other)
        #expect(try category("0", "pt") == .one)
        #expect(try category("0", "pt-BR") == .one)
        #expect(PluralRules.categories(for: try #require(LocaleID("sr-Latn-RS"))) == PluralRules.categories(for: try #require(LocaleID("sr"))))
        #expect(PluralRules.locales.count == 216)
        #expect(PluralRules.locales.contains("pt-PT"))
    }

    @Test func categoryOrder() {
        #expect(PluralCategory.allCases.sorted() == [.zero, .one, .two, .few, .many, .other])
        #expect(PluralCategory.many < .other && PluralCategory.zero < .one)
    }
}
