import Testing
import TipcatCore
import TipcatLocalization
@testable import TipcatCatalog

/// printf-style String Catalog values: which `%` start a specifier, positions, and the message they become.
@Suite struct PrintfFormatTests {
    func kinds(_ text: String) -> [String] {
        (PrintfFormat.parse(text)?.specifiers ?? []).map { "\($0.text)@\($0.index):\($0.kind)" }
    }

    @Test func specifiers() {
        #expect(kinds("%@ %d %lld %ld %u %f %.1f %lf") == [
            "%@@0:object", "%d@1:integer", "%lld@2:integer", "%ld@3:integer", "%u@4:integer", "%f@5:double", "%.1f@6:double",
            "%lf@7:double",
        ])
        #expect(kinds("%2$lld then %1$@") == ["%2$lld@1:integer", "%1$@@0:object"])
        // Not specifiers: literal text.
        #expect(PrintfFormat.parse("50 % off") == nil)
        #expect(PrintfFormat.parse("no percent") == nil)
        #expect(PrintfFormat.parse("%@ {name}") == nil)
        #expect(kinds("%1$(count)lld %0$@ %.f %") == [])
        #expect(PrintfFormat.parse("100 %%")?.specifiers.isEmpty == true)
    }

    @Test func messageQuotesLiteralText() throws {
        let format = try #require(PrintfFormat.parse("C'è %lld sentieri # %% %2$@"))
        let text = format.message(paths: ["count", "name"], pluralForm: false, pluralArgument: nil)
        let message = try Message.parse(text)
        let values: [String: Value] = ["count": .int(2), "name": .string("Rose")]
        #expect(try message.format(locale: LocaleID("it")!) { values[$0] } == "C'è 2 sentieri # % Rose")
        let form = format.message(paths: ["count", "name"], pluralForm: true, pluralArgument: "count")
        #expect(try Message.parsePluralForm(form).format(locale: LocaleID("it")!) { values[$0] } == "C'è # sentieri # % Rose")
    }

    @Test func floatingPointPrecisionIsKept() throws {
        let format = try #require(PrintfFormat.parse("%.1f km, %f, %.0f, %@"))
        let text = format.message(paths: ["a", "b", "c", "d"], pluralForm: false, pluralArgument: nil)
        #expect(text == "{a, number, ::.0} km, {b, number, ::.000000}, {c, number, integer}, {d}")
        let message = try Message.parse(text)
        func formatted(_ a: Value, _ b: Value, _ c: Value) throws -> String {
            let values: [String: Value] = ["a": a, "b": b, "c": c, "d": .string("x")]
            return try message.format(locale: LocaleID("fr")!) { values[$0] }
        }
        // As String(format:) prints them: the exact binary value rounded, ties to even.
        #expect(try formatted(.double(2), .double(1.5), .double(2.5)) == "2.0 km, 1.500000, 2, x")
        #expect(try formatted(.double(2.25), .int(3), .double(3.5)) == "2.2 km, 3.000000, 4, x")
        #expect(try formatted(.double(0.05), .double(-0.0000004), .int(-7)) == "0.1 km, -0.000000, -7, x")
    }

    @Test func garbageNeverCrashes() {
        for text in ["%", "%%%", "%1$", "%99999999999$@", "%.", "%.9999999999f", "%llllllllllllllllld", "%\u{0}", "é%ü%@"] {
            _ = PrintfFormat.parse(text)?.message(paths: [], pluralForm: true, pluralArgument: nil)
        }
    }
}
