import TipcatCore
import Testing
@testable import TipcatLocalization

@Suite struct MessageFormatTests {
    /// Formats `text` in `locale` with values looked up by dotted path through records.
    func format(_ text: String, _ locale: String, _ values: [String: Value]) throws -> String {
        let message = try Message.parse(text)
        return try message.format(locale: try #require(LocaleID(locale))) { path in
            var components = path.split(separator: ".").map(String.init)
            guard !components.isEmpty else { return nil }
            var current = values[components.removeFirst()]
            for component in components {
                guard case .record(let fields)? = current else { return nil }
                current = fields[component]
            }
            return current
        }
    }

    @Test func placeholdersAndRecords() throws {
        let values: [String: Value] = [
            "trail": .record(["name": .string("Butler Fork"), "region": .string("Wasatch")]),
            "visitors": .int(12),
        ]
        let text = "{trail.name} just opened. {visitors, plural, one {# hiker has} other {# hikers have}} been there this week."
        #expect(try format(text, "en", values) == "Butler Fork just opened. 12 hikers have been there this week.")
        #expect(try format(text, "en", values.merging(["visitors": .int(1)]) { $1 })
            == "Butler Fork just opened. 1 hiker has been there this week.")
        #expect(try format("Discover what's new in {trail.region}", "en", values) == "Discover what's new in Wasatch")
    }

    @Test func numbersWithAPrecision() throws {
        #expect(try format("{d, number, ::.0#} / {d, number} / {n, number, integer} / {n, number, ::.00}", "en", ["d": .double(1.25), "n": .int(7)])
            == "1.25 / 1.25 / 7 / 7.00")
        #expect(try format("{d, number, ::.0#}", "en", ["d": .double(1)]) == "1.0")
        #expect(try format("{d, number, ::.##}", "en", ["d": .double(1)]) == "1")
        #expect(try format("{d, number, integer}", "en", ["d": .double(2.5)]) == "2")  // ties to even, as printf
        #expect(throws: MessageFormatError.self) { try format("{d, number}", "en", ["d": .string("x")]) }
        #expect(try Message.parse("{d, number, ::.0}").placeholders.map(\.kind) == [.number])
    }

    @Test func valuesPrintPlainly() throws {
        #expect(try format("{a} {b} {c} {d} {e}", "en", ["a": .int(1000), "b": .double(2.5), "c": .double(3), "d": .bool(true), "e": .int(-7)])
            == "1000 2.5 3 true -7")
    }

    @Test func exactMatchesComeFirst() throws {
        let text = "{count, plural, =0 {no trails} one {# trail} other {# trails}}"
        #expect(try format(text, "en", ["count": .int(0)]) == "no trails")
        #expect(try format(text, "en", ["count": .int(1)]) == "1 trail")
        #expect(try format(text, "en", ["count": .int(2)]) == "2 trails")
        #expect(try format(text, "en", ["count": .double(0)]) == "no trails")
        #expect(try format(text, "en", ["count": .double(1.5)]) == "1.5 trails")
        // A double with an integral value is written without a fraction and selects like the integer.
        #expect(try format(text, "en", ["count": .double(1)]) == "1 trail")
        #expect(try format("{n, plural, =-1 {minus one} other {#}}", "en", ["n": .int(-1)]) == "minus one")
    }

    @Test(arguments: [(0, "zero 0"), (1, "one 1"), (2, "two 2"), (3, "few 3"), (11, "many 11"), (100, "other 100"), (103, "few 103")])
    func arabic(_ number: Int, _ expected: String) throws {
        let text = "{n, plural, zero {zero #} one {one #} two {two #} few {few #} many {many #} other {other #}}"
        #expect(try format(text, "ar", ["n": .int(number)]) == expected)
    }

    @Test func polish() throws {
        let text = "{n, plural, one {# szlak} few {# szlaki} many {# szlaków} other {# szlaku}}"
        #expect(try format(text, "pl", ["n": .int(1)]) == "1 szlak")
        #expect(try format(text, "pl", ["n": .int(2)]) == "2 szlaki")
        #expect(try format(text, "pl", ["n": .int(5)]) == "5 szlaków")
        #expect(try format(text, "pl", ["n": .int(22)]) == "22 szlaki")
        #expect(try format(text, "pl", ["n": .int(12)]) == "12 szlaków")
        #expect(try format(text, "pl", ["n": .double(1.5)]) == "1.5 szlaku")
        // Missing categories fall back to other.
        #expect(try format("{n, plural, one {#: one} other {#: other}}", "pl", ["n": .int(5)]) == "5: other")
    }

    @Test func localeFallbackAndUnknownLanguages() throws {
        let text = "{n, plural, one {# sentier} other {# sentiers}}"
        #expect(try format(text, "fr-CA", ["n": .int(0)]) == "0 sentier")
        #expect(try format(text, "en", ["n": .int(0)]) == "0 sentiers")
        #expect(try format(text, "xx", ["n": .int(1)]) == "1 sentiers")
    }

    @Test func offsets() throws {
        let text = "{n, plural, offset:1 =0 {nobody} =1 {just {host}} one {{host} and # other} other {{host} and # others}}"
        #expect(try format(text, "en", ["n": .int(0), "host": .string("Alice")]) == "nobody")
        #expect(try format(text, "en", ["n": .int(1), "host": .string("Alice")]) == "just Alice")
        #expect(try format(text, "en", ["n": .int(2), "host": .string("Alice")]) == "Alice and 1 other")
        #expect(try format(text, "en", ["n": .int(3), "host": .string("Alice")]) == "Alice and 2 others")
    }

    @Test func select() throws {
        let text = "{kind, select, hike {Hike it} bike {Ride it} other {Go}}"
        #expect(try format(text, "en", ["kind": .string("hike")]) == "Hike it")
        #expect(try format(text, "en", ["kind": .string("bike")]) == "Ride it")
        #expect(try format(text, "en", ["kind": .string("swim")]) == "Go")
        let flag = "{on, select, true {On} false {Off} other {?}}"
        #expect(try format(flag, "en", ["on": .bool(true)]) == "On")
        #expect(try format(flag, "en", ["on": .bool(false)]) == "Off")
    }

    @Test func nested() throws {
        let text = "{n, plural, one {{kind, select, hike {# hike} other {# trip}} by {who}} other {{kind, select, hike {# hikes} other {# trips}} by {who}}}"
        #expect(try format(text, "en", ["n": .int(1), "kind": .string("hike"), "who": .string("Ann")]) == "1 hike by Ann")
        #expect(try format(text, "en", ["n": .int(4), "kind": .string("bike"), "who": .string("Ann")]) == "4 trips by Ann")
        let inner = "{a, plural, other {# / {b, plural, one {#!} other {#?}}}}"
        #expect(try format(inner, "en", ["a": .int(7), "b": .int(1)]) == "7 / 1!")
    }

    @Test func quotingRoundTrip() throws {
        #expect(try format("It''s '{'{name}'}' — don't", "en", ["name": .string("Zoë")]) == "It's {Zoë} — don't")
        #expect(try format("{n, plural, other {'#'# ''#''}}", "en", ["n": .int(3)]) == "#3 '3'")
        #expect(try format("# outside", "en", [:]) == "# outside")
    }

    @Test func formatErrors() throws {
        #expect(throws: MessageFormatError("no value for 'trail.name'", path: "trail.name")) {
            try format("Hi {trail.name}", "en", [:])
        }
        #expect(throws: MessageFormatError("plural argument 'n' is not a number: \"x\"", path: "n")) {
            try format("{n, plural, other {#}}", "en", ["n": .string("x")])
        }
        #expect(throws: MessageFormatError("select argument 'k' is not a string or bool: 1.5", path: "k")) {
            try format("{k, select, other {o}}", "en", ["k": .double(1.5)])
        }
        // A missing value in the chosen branch is reported; one in another branch is not needed.
        #expect(throws: MessageFormatError("no value for 'who'", path: "who")) {
            try format("{n, plural, one {{who}} other {x}}", "en", ["n": .int(1)])
        }
        #expect(try format("{n, plural, one {{who}} other {x}}", "en", ["n": .int(2)]) == "x")
    }

    @Test func extremeNumbers() throws {
        let text = "{n, plural, one {one #} other {other #}}"
        #expect(try format(text, "en", ["n": .int(Int.min)]) == "other \(Int.min)")
        // Int.min − 5 overflows Int: the difference is computed as a double (shortest form).
        #expect(try format("{n, plural, offset:5 other {#}}", "en", ["n": .int(Int.min)]) == "-9223372036854776000")
        #expect(try format(text, "en", ["n": .double(.nan)]) == "other NaN")
        #expect(try format(text, "en", ["n": .double(.infinity)]) == "other ∞")
        #expect(try format(text, "en", ["n": .double(1e-7)]) == "other 0.0000001")
    }
}

/// A select's `nil` case: the text for an argument without a value (an absent optional parameter).
@Suite struct MessageNilCaseTests {
    func format(_ text: String, _ values: [String: Value]) throws -> String {
        try Message.parse(text).format(locale: try #require(LocaleID("en"))) { values[$0] }
    }

    @Test func theNilCaseIsChosenOnlyWithoutAValue() throws {
        let text = "Hi {name, select, nil {there} other {{name}}}!"
        #expect(try format(text, [:]) == "Hi there!")
        #expect(try format(text, ["name": .string("Sam")]) == "Hi Sam!")
        // A present value never selects nil, even the string "nil".
        #expect(try format(text, ["name": .string("nil")]) == "Hi nil!")
        // Other keys still select present values; any type tells presence from absence with only nil and other.
        let keyed = "{mode, select, nil {No mode} hybrid {Hybrid} other {Mode {mode}}}"
        #expect(try format(keyed, ["mode": .string("hybrid")]) == "Hybrid")
        #expect(try format(keyed, [:]) == "No mode")
        let dated = "{since, select, nil {new} other {since {since}}}"
        #expect(try format(dated, ["since": .date(Timestamp(secondsSince1970: 0))]) == "since 1970-01-01T00:00:00Z")
        #expect(try format("{n, select, nil {none} other {{n, plural, one {# hike} other {# hikes}}}}", ["n": .int(2)]) == "2 hikes")
        #expect(try format("{n, select, nil {none} other {{n, plural, one {# hike} other {# hikes}}}}", [:]) == "none")
        // Without a nil case an absent value is still an error.
        #expect(throws: MessageFormatError("no value for 'name'", path: "name")) { try format("Hi {name}", [:]) }
    }

    @Test func argumentsWithoutANilCaseAreFound() throws {
        let optional: Set<String> = ["name", "trail", "trail.grade"]
        func unhandled(_ text: String) throws -> [String] {
            try Message.parse(text).placeholdersWithoutAbsentCase(mayBeAbsent: optional.contains).map { "\($0.path)@\($0.offset)" }
        }
        #expect(try unhandled("Hi {name}") == ["name@4"])
        #expect(try unhandled("Hi {name, select, nil {you} other {{name}}}") == [])
        // Inside the nil case the value is still absent.
        #expect(try unhandled("{name, select, nil {{name}} other {x}}") == ["name@21"])
        // A field of an optional record needs the record (or the field) handled; a nil case on the record covers it.
        #expect(try unhandled("{trail.id}") == ["trail.id@1"])
        #expect(try unhandled("{trail, select, nil {} other {{trail.id} {trail.grade}}}") == ["trail.grade@42"])
        #expect(try unhandled("{count} {count, plural, other {#}}") == [])
        #expect(try Message.parse("a {x, select, nil {b} other {c}} {y, select, k {d} other {e}}").pathsWithAbsentCase == ["x"])
        // A select nested in a plural branch is found (messages without a select are not walked); a deferred
        // message's tree is parsed again for it; no select, no path.
        let nested = try Message.parse("{n, plural, one {{t, select, nil {none} other {{t}}}} other {#}}")
        #expect(nested.pathsWithAbsentCase == ["t"])
        #expect(nested.deferringTree().pathsWithAbsentCase == ["t"])
        #expect(try Message.parse("{n, plural, one {{t}} other {# {nil}}}").pathsWithAbsentCase == [])
        #expect(try Message.parse("plain nil text").pathsWithAbsentCase == [])
    }
}
