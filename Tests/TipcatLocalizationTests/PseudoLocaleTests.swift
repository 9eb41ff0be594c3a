import Foundation
import Testing
import TipcatCore
import TipcatLocalization

@Suite struct PseudoLocaleTests {
    static let rlm = "\u{200F}"

    func format(_ message: Message, _ values: [String: Value]) throws -> String {
        try message.format(locale: LocaleID.english) { values[$0] }
    }

    @Test func namesOnlyTheTwoPseudoLocales() throws {
        #expect(PseudoLocale(try #require(LocaleID("en-XA"))) == .accented)
        #expect(PseudoLocale(try #require(LocaleID("en_xa"))) == .accented)
        #expect(PseudoLocale(try #require(LocaleID("ar-XB"))) == .bidi)
        for other in ["en", "ar", "en-XB", "ar-XA", "fr-XA", "en-US"] {
            #expect(PseudoLocale(try #require(LocaleID(other))) == nil, "\(other)")
        }
        #expect(PseudoLocale.allCases.map(\.identifier) == ["en-XA", "ar-XB"])
        #expect(PseudoLocale.bidi.isRightToLeft && !PseudoLocale.accented.isRightToLeft)
    }

    @Test func everyASCIILetterIsAccentedAndNothingElse() {
        let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        let accented = PseudoLocale.accented.localize(literal: letters)
        #expect(accented.count == letters.count)
        #expect(accented.unicodeScalars.allSatisfy { !$0.isASCII })
        #expect(Set(accented).count == 52)
        #expect(accented.hasPrefix("áƀç"))
        let other = "0123 .,;:!?-_*#'\"()[]{} é 日本"
        #expect(PseudoLocale.accented.localize(literal: other) == other)
    }

    @Test func placeholdersAndPluralSyntaxSurvive() throws {
        let source = try Message.parse("{count, plural, =0 {No trails in {region}} one {# trail in {region}} other {# trails in {region}}}")
        for pseudo in PseudoLocale.allCases {
            let localized = pseudo.localize(source)
            #expect(localized.placeholderPaths == source.placeholderPaths)
            guard case .plural(let path, let offset, let cases) = localized.parts.first else {
                Issue.record("the plural is gone: \(localized.parts)")
                continue
            }
            #expect(path == "count" && offset == 0)
            #expect(cases.map(\.selector) == ["=0", "one", "other"])
            #expect(cases[1].parts.first == .pound)
            #expect(cases[1].parts.contains(.placeholder(path: "region")))
            // Values are substituted as they are; `#` is still the number.
            let text = try format(localized, ["count": .int(3), "region": .string("Wasatch")])
            #expect(text.contains("3") && text.contains("Wasatch"))
        }
        let accented = try format(PseudoLocale.accented.localize(source), ["count": .int(1), "region": .string("Uinta")])
        #expect(accented == "1 ţŕáîļ îñ Uinta")
        let select = try Message.parse("{mode, select, hike {Hike {trail.name}} other {Go}}")
        let localizedSelect = PseudoLocale.accented.localize(select)
        #expect(try format(localizedSelect, ["mode": .string("hike"), "trail.name": .string("Butler Fork")]) == "Ĥîķé Butler Fork")
    }

    @Test func finishedTextGrowsByAtLeastThirtyPercent() throws {
        for text in ["Go", "Save as a Favorite", "To see key trail info, tap {place} on the map.", "A much longer tip message that goes on and on about trails."] {
            let source = try Message.parse(text)
            let plain = try format(source, ["place": .string("Big Cottonwood Canyon")])
            let pseudo = PseudoLocale.accented.finish(try format(PseudoLocale.accented.localize(source), ["place": .string("Big Cottonwood Canyon")]))
            #expect(Double(pseudo.count) >= Double(plain.count) * 1.3, "\(pseudo)")
            #expect(pseudo.hasPrefix("[") && pseudo.hasSuffix("]"))
            #expect(pseudo.contains("~"))
        }
        #expect(PseudoLocale.accented.finish("") == "")
    }

    @Test func markdownMarkupStaysIntact() {
        let text = "Tap **Share**, then *Copy* `code here` or see [the guide](https://example.com/Guide_(v2)) now"
        let accented = PseudoLocale.accented.localize(literal: text)
        #expect(accented == "Ţáþ **Šĥáŕé**, ţĥéñ *Çöþý* `code here` öŕ šéé [ţĥé ĝûîðé](https://example.com/Guide_(v2)) ñöŵ")
        let bidi = PseudoLocale.bidi.localize(literal: text)
        #expect(bidi.replacingOccurrences(of: Self.rlm, with: "") == text)
        #expect(bidi.contains("`code here`"))
        #expect(bidi.contains("](https://example.com/Guide_(v2))"))
        #expect(bidi.contains("\(Self.rlm)**Share**,\(Self.rlm)"))
        // An opener without its closer is ordinary text.
        #expect(PseudoLocale.accented.localize(literal: "a `b") == "á `ƀ")
        #expect(PseudoLocale.accented.localize(literal: "[a](b c)") == "[á](ƀ ç)")
    }

    @Test func bidiMarksEveryWordAndStartsWithAMark() throws {
        #expect(PseudoLocale.bidi.localize(literal: "Go there now") == "\(Self.rlm)Go\(Self.rlm) \(Self.rlm)there\(Self.rlm) \(Self.rlm)now\(Self.rlm)")
        #expect(PseudoLocale.bidi.localize(literal: " is ") == " \(Self.rlm)is\(Self.rlm) ")
        #expect(PseudoLocale.bidi.localize(literal: "") == "")
        let message = PseudoLocale.bidi.localize(try Message.parse("{name} is open"))
        let text = PseudoLocale.bidi.finish(try format(message, ["name": .string("Butler Fork")]))
        #expect(text == "\(Self.rlm)Butler Fork \(Self.rlm)is\(Self.rlm) \(Self.rlm)open\(Self.rlm)")
        #expect(PseudoLocale.bidi.finish(text) == text)
        // No bidi override or isolate: the terminal escaper would remove them.
        #expect(!text.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
    }
}
