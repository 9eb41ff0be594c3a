import Testing
@testable import TipcatCore

@Suite struct SourceFileTests {
    @Test func locationsCountLinesAndScalars() {
        let file = SourceFile(path: "a.json", text: "ab\né日x\n")
        #expect(file.location(ofByte: 0) == SourceLocation(file: "a.json", line: 1, column: 1))
        #expect(file.location(ofByte: 3) == SourceLocation(file: "a.json", line: 2, column: 1))
        // "é" is 2 bytes, "日" 3 bytes: x is the third character of line 2.
        #expect(file.location(ofByte: 3 + 2 + 3) == SourceLocation(file: "a.json", line: 2, column: 3))
        #expect(file.lineText(2) == "é日x")
        #expect(file.lineText(9) == nil)
    }
}

@Suite struct SuggestionTests {
    @Test func findsCloseNames() {
        #expect(Suggestions.closest(to: "isLogedIn", in: ["isLoggedIn", "launchCount"]) == "isLoggedIn")
        #expect(Suggestions.closest(to: "--catalgo", in: ["--catalog", "--format"]) == "--catalog")
        #expect(Suggestions.closest(to: "zzz", in: ["catalog"]) == nil)
        #expect(Suggestions.editDistance(Array("ab".unicodeScalars), Array("ba".unicodeScalars)) == 1)
    }
}

@Suite struct ValueTypeTests {
    @Test func parsesTypeText() {
        #expect(ValueType.parse("list<string>") == .list(.string))
        #expect(ValueType.parse(" set<date> ") == .set(.date))
        #expect(ValueType.parse("list<nope>") == nil)
        #expect(ValueType.parse("integer") == nil)
    }

    @Test func conformance() {
        #expect(Value.int(3).conforms(to: .double))
        #expect(!Value.double(3).conforms(to: .int))
        let trail = ValueType.record([.init("id", .string), .init("region", .string)])
        #expect(Value.record(["id": .string("a"), "region": .string("b")]).conforms(to: trail))
        #expect(!Value.record(["id": .string("a")]).conforms(to: trail))
    }
}

@Suite struct TimeTests {
    @Test func isoRoundTrip() throws {
        let stamp = try #require(Timestamp(iso8601: "2026-01-01T09:00"))
        #expect(stamp.iso8601 == "2026-01-01T09:00:00Z")
        #expect(Timestamp(iso8601: "2026-01-01T10:00:00+01:00") == stamp)
        #expect(Timestamp(iso8601: "1969-12-31T23:59:59Z")?.secondsSince1970 == -1)
        #expect(Timestamp(iso8601: "2026-02-30") == nil)
        #expect(Timestamp(iso8601: "2026-01-01T25:00") == nil)
    }

    /// Extreme values print without trapping (a conversion to Int would crash past 9.2e18).
    @Test func extremeValuesDoNotCrash() {
        #expect(Timestamp(secondsSince1970: 1e19).iso8601 == "@1e+19s")
        #expect(Timestamp(secondsSince1970: -.infinity).iso8601 == "@invalid")
        #expect(Timestamp(secondsSince1970: 253_402_300_799).iso8601 == "9999-12-31T23:59:59Z")
        #expect(TimeSpan(seconds: 1e30).description == "1e+30s")
        #expect(TimeSpan("99999999999999999999999w")?.description.hasSuffix("s") == true)
        #expect(TimeSpan(String(repeating: "9", count: 400)) == nil)  // overflows to infinity: not a duration
    }

    @Test func spans() {
        #expect(TimeSpan("5d")?.seconds == 432_000)
        #expect(TimeSpan("90")?.seconds == 90)
        #expect(TimeSpan("1.5h")?.seconds == 5400)
        #expect(TimeSpan("5x") == nil)
        #expect(TimeSpan("-1m") == nil)
        #expect(TimeSpan(seconds: 432_000).description == "5d")
        #expect(TimeSpan(seconds: 5400).description == "90m")
    }
}
