import Foundation
import Testing
@testable import TipcatCLI
import TipcatTestSupport

/// Every kind of bad input: a located diagnostic and exit 1, never a crash or a hang.
@Suite struct ValidateBadInputTests {
    /// Writes `tips/Bad.json` into a valid catalog and validates it.
    private func validateWithBadTip(_ data: Data) throws -> (RunResult, String) {
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        try directory.write("Catalog/tips/Bad.json", data)
        return (tipcat("validate", "--catalog", catalog), catalog + "/tips/Bad.json")
    }

    @Test func invalidJSONIsReportedAtTheErrorPosition() throws {
        let (result, file) = try validateWithBadTip(Data("{\n  \"id\": \"Bad\",\n  \"title\": \"x\",,\n}".utf8))
        #expect(result.status == .failure)
        #expect(result.stdout.hasPrefix("\(file):3:16: error: "), "\(result.stdout)")
        #expect(result.stdout.contains("[invalid-json]"))
    }

    @Test func invalidUTF8() throws {
        var bytes = Array(#"{"id": "Bad", "title": "caf"#.utf8)
        bytes += [0xC3, 0x28]  // a lead byte followed by a non-continuation byte
        bytes += Array("\"}".utf8)
        let (result, file) = try validateWithBadTip(Data(bytes))
        #expect(result.status == .failure)
        #expect(result.stdout.contains("\(file):1:"))
        #expect(result.stdout.contains("UTF-8"))
    }

    @Test func nulByte() throws {
        let (result, file) = try validateWithBadTip(Data(#"{"id": "Bad", "title": "a"#.utf8 + [0] + #""}"#.utf8))
        #expect(result.status == .failure)
        #expect(result.stdout.contains("\(file):1:"))
        #expect(result.stdout.contains("[invalid-json]"))
    }

    @Test func wrongTypes() throws {
        let (result, file) = try validateWithBadTip(Data(#"{"id": "Bad", "title": 42, "options": {"maxDisplayCount": "five"}}"#.utf8))
        #expect(result.status == .failure)
        #expect(result.stdout.contains("\(file):1:24: error: 'title' in a tip must be a string, found a number [wrong-type]"), "\(result.stdout)")
        #expect(result.stdout.contains("'maxDisplayCount' in the options of tip 'Bad' must be an integer, found a string [wrong-type]"))
    }

    @Test func emptyFile() throws {
        let (result, file) = try validateWithBadTip(Data())
        #expect(result.status == .failure)
        #expect(result.stdout.contains("\(file):1:1: error: "), "\(result.stdout)")
    }

    @Test func randomBinaryBytes() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let bytes = (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let (result, file) = try validateWithBadTip(Data(bytes))
            #expect(result.status == .failure)
            #expect(result.stdout.contains("\(file):"))
        }
    }

    @Test func deeplyNestedArrayDoesNotOverflowTheStack() throws {
        let depth = 100_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let (result, file) = try validateWithBadTip(Data(text.utf8))
        #expect(result.status == .failure)
        #expect(result.stdout.contains("\(file):1:"))
        #expect(result.stdout.contains("nesting"))
    }

    @Test func fiftyMegabyteStringValueIsHandled() throws {
        let big = String(repeating: "a", count: 50 * 1024 * 1024)
        let (result, file) = try validateWithBadTip(Data("{\"id\": \"Bad\", \"title\": \"x\", \"comment\": \"\(big)\", \"nope\": 1}".utf8))
        // The file parses; the unknown key after the huge string is still located precisely:
        // 40 characters before the string, 50 MiB of it, then `", "` — the key's quote is column 52,428,844.
        #expect(result.status == .failure)
        #expect(result.stdout.contains("\(file):1:\(52_428_800 + 44): error: unknown key 'nope'"), "\(result.stdout.prefix(300))")
    }

    @Test func directoryWhereAFileIsExpected() throws {
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        try FileManager.default.createDirectory(atPath: catalog + "/tips/Dir.json", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: catalog + "/events.json", withIntermediateDirectories: true)
        let result = tipcat("validate", "--catalog", catalog)
        #expect(result.status == .failure)
        #expect(result.stdout.contains("\(catalog)/tips/Dir.json:1:1: error: cannot read file: it is a directory, not a file [unreadable-file]"), "\(result.stdout)")
        #expect(result.stdout.contains("\(catalog)/events.json:1:1: error: cannot read file: it is a directory"))
    }

    @Test func symlinkLoop() throws {
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        try FileManager.default.createSymbolicLink(atPath: catalog + "/tips/Loop.json", withDestinationPath: catalog + "/tips/Loop2.json")
        try FileManager.default.createSymbolicLink(atPath: catalog + "/tips/Loop2.json", withDestinationPath: catalog + "/tips/Loop.json")
        let result = tipcat("validate", "--catalog", catalog)
        #expect(result.status == .failure)
        #expect(result.stdout.contains("\(catalog)/tips/Loop.json:1:1: error: cannot read file: too many levels of symbolic links"), "\(result.stdout)")
    }

    /// A FIFO (no writer), a socket and a device where catalog files are read: each is `unreadable-file`, and
    /// `validate` returns at once instead of waiting for a writer (run as a child process, killed after 20 s).
    @Test func fifoSocketAndDeviceAreUnreadableAndDoNotHang() throws {
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        #expect(mkfifo(catalog + "/tips/Pipe.json", 0o644) == 0)
        #expect(mkfifo(catalog + "/events.json", 0o644) == 0)
        #expect(mkfifo(catalog + "/Localizable.xcstrings", 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: catalog + "/tips/Null.json", withDestinationPath: "/dev/zero")
        let socket = try UnixSocket(path: catalog + "/tips/Socket.json")
        defer { socket.close() }
        let run = try tipcatProcess(["validate", "--catalog", catalog], timeout: 20)
        let result = try #require(run.result, "validate was still waiting after \(run.seconds) s")
        #expect(run.seconds < 5)
        #expect(result.status == .failure)
        #expect(result.stdout.contains("\(catalog)/tips/Pipe.json:1:1: error: cannot read file: it is a FIFO (named pipe), not a regular file [unreadable-file]"), "\(result.stdout)")
        #expect(result.stdout.contains("\(catalog)/events.json:1:1: error: cannot read file: it is a FIFO (named pipe), not a regular file [unreadable-file]"))
        #expect(result.stdout.contains("\(catalog)/Localizable.xcstrings:1:1: error: cannot read file: it is a FIFO (named pipe), not a regular file [unreadable-file]"))
        #expect(result.stdout.contains("\(catalog)/tips/Null.json:1:1: error: cannot read file: it is a device, not a regular file [unreadable-file]"))
        #expect(result.stdout.contains("\(catalog)/tips/Socket.json:1:1: error: cannot read file: it is a socket, not a regular file [unreadable-file]"))
    }

    /// Durations above 100 years and counts above a million are `out-of-range` at validate (located at the
    /// value), so they can never reach `publish` and the engine.
    @Test func durationsAndCountsOutOfRange() throws {
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        try directory.write("Catalog/events.json", #"{"events": [{"id": "opened", "donationLimit": {"maxCount": 9999999999, "maxAge": 4e9}}]}"#)
        try directory.write("Catalog/tips/Bad.json", #"{"id": "Bad", "title": "x", "options": {"maxDisplayCount": 1000001, "maxDisplayDuration": "36501d"}}"#)
        let result = tipcat("validate", "--catalog", catalog)
        #expect(result.status == .failure)
        for expected in [
            "\(catalog)/events.json:1:60: error: 'maxCount' in the donation limit of event 'opened' must be between 1 and 1000000, found 9999999999 [out-of-range]",
            "\(catalog)/events.json:1:82: error: 'maxAge' in the donation limit of event 'opened' must be at most 36500d (100 years), found 4000000000s [out-of-range]",
            "\(catalog)/tips/Bad.json:1:60: error: 'maxDisplayCount' in the options of tip 'Bad' must be between 1 and 1000000, found 1000001 [out-of-range]",
            "\(catalog)/tips/Bad.json:1:91: error: 'maxDisplayDuration' in the options of tip 'Bad' must be at most 36500d (100 years), found 36501d [out-of-range]",
        ] {
            #expect(result.stdout.contains(expected), "missing: \(expected)\n\(result.stdout)")
        }
        // catalog.json's display frequency (its errors stop the check before the other files).
        try directory.write("Catalog/catalog.json", #"{"name": "T", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en"], "displayFrequency": "10000000w"}"#)
        let frequency = tipcat("validate", "--catalog", catalog)
        #expect(frequency.status == .failure)
        #expect(frequency.stdout.contains("\(catalog)/catalog.json:1:107: error: 'displayFrequency' in catalog.json must be at most 36500d (100 years), found 10000000w [out-of-range]"), "\(frequency.stdout)")
        try directory.write("Catalog/catalog.json", #"{"name": "T", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en"], "displayFrequency": 3153600001}"#)
        #expect(tipcat("validate", "--catalog", catalog).stdout.contains("'displayFrequency' in catalog.json must be at most 36500d (100 years), found 3153600001s [out-of-range]"))
        // The limits themselves are accepted.
        try directory.write("Catalog/catalog.json", #"{"name": "T", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en"], "displayFrequency": "36500d"}"#)
        try directory.write("Catalog/events.json", #"{"events": [{"id": "opened", "donationLimit": {"maxCount": 1000000, "maxAge": "36500d"}}]}"#)
        try directory.write("Catalog/tips/Bad.json", #"{"id": "Bad", "title": "x", "options": {"maxDisplayCount": 1000000, "maxDisplayDuration": 3153600000}}"#)
        let accepted = tipcat("validate", "--catalog", catalog)
        #expect(!accepted.stdout.contains("out-of-range"), "\(accepted.stdout)")
    }

    /// A custom ID equal to another tip's id, or with no fixed text (so a parameter can make it empty), is an
    /// error at validate rather than a warning the engine then trips over.
    @Test func customIDsThatCollideOrCanBeEmpty() throws {
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        try directory.write("Catalog/tips/Twin.json", #"{"id": "Twin", "title": "x", "customID": "A"}"#)
        try directory.write("Catalog/tips/Blank.json", #"{"id": "Blank", "title": "x", "parameters": {"name": "string"}, "customID": "{name}"}"#)
        try directory.write("Catalog/tips/Spaces.json", #"{"id": "Spaces", "title": "x", "parameters": {"name": "string"}, "customID": " {name} "}"#)
        try directory.write("Catalog/tips/Fine.json", #"{"id": "Fine", "title": "x", "parameters": {"name": "string"}, "customID": "Fine-{name}"}"#)
        let result = tipcat("validate", "--catalog", catalog)
        #expect(result.status == .failure)
        #expect(result.stdout.contains("\(catalog)/tips/Twin.json:1:42: error: the custom ID of Twin is 'A', the id of another tip, so the two cannot be told apart; give it a placeholder or another name [invalid-custom-id]"), "\(result.stdout)")
        #expect(result.stdout.contains("\(catalog)/tips/Blank.json:1:77: error: the custom ID of Blank has no fixed text, so it can be empty (a parameter may be \"\"); start it with text such as the tip's id [invalid-custom-id]"), "\(result.stdout)")
        #expect(result.stdout.contains("/tips/Spaces.json:1:78: error: the custom ID of Spaces has no fixed text"), "\(result.stdout)")
        #expect(!result.stdout.contains("Fine.json"), "\(result.stdout)")
    }

    /// A `stringUnit` without `state` counts as translated only when it has a value (as in Xcode); an empty value
    /// is warned about and the source text is shown instead of a blank title.
    /// A plain unit (a known state and a value, nothing else) is read without an object reader; any other unit
    /// is read with one: both give exactly the findings, locations and order of the reader alone (the lines
    /// below are what the reader gave for this file).
    @Test func plainAndOtherStringUnitsReportAsBefore() throws {
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        for tip in ["B", "C", "D", "E", "F"] { try directory.write("Catalog/tips/\(tip).json", #"{"id": "\#(tip)", "title": "T"}"#) }
        try directory.write("Catalog/Localizable.xcstrings", #"""
            {"sourceLanguage": "en", "version": "1.0", "strings": {
            "A.title": {"localizations": {"fr": {"stringUnit": {"state": "needs_review", "value": "Bonjour"}}}},
            "B.title": {"localizations": {"fr": {"stringUnit": {"state": "reviewed", "value": "Deux"}}}},
            "C.title": {"localizations": {"fr": {"stringUnit": {"state": "new", "value": "Trois", "note": "x"}}}},
            "D.title": {"localizations": {"fr": {"stringUnit": {"value": 4}}}},
            "E.title": {"localizations": {"fr": {"stringUnit": {"state": "stale"}}}},
            "F.title": {"localizations": {"fr": {"stringUnit": {"value": "Six", "state": "translated"}}}}}}
            """#)
        let result = tipcat("validate", "--catalog", catalog)
        let file = "\(catalog)/Localizable.xcstrings"
        let findings = result.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix(file) }
        #expect(findings == [
            "\(file):2:62: warning: the 'fr' translation of 'A.title' is marked 'needs_review', so the source text is shown instead [not-translated]",
            "\(file):3:62: error: 'state' in the stringUnit of the 'fr' translation of 'B.title' must be one of 'new', 'translated', 'needs_review', 'stale', found 'reviewed' [invalid-value]",
            "\(file):4:62: warning: the 'fr' translation of 'C.title' is marked 'new', so the source text is shown instead [not-translated]",
            "\(file):4:87: error: unknown key 'note' in the stringUnit of the 'fr' translation of 'C.title' [unknown-key]",
            "\(file):5:62: error: 'value' in the stringUnit of the 'fr' translation of 'D.title' must be a string, found a number [wrong-type]",
            "\(file):6:52: error: missing required key 'value' in the stringUnit of the 'fr' translation of 'E.title' [missing-key]",
            "\(file):6:62: warning: the 'fr' translation of 'E.title' is marked 'stale', so the source text is shown instead [not-translated]",
        ], "\(result.stdout)")
    }

    @Test func stringUnitsWithoutStateOrWithEmptyValues() throws {
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        try directory.write("Catalog/tips/B.json", #"{"id": "B", "title": "Second"}"#)
        try directory.write("Catalog/tips/C.json", #"{"id": "C", "title": "Third"}"#)
        try directory.write("Catalog/Localizable.xcstrings", #"""
            {"sourceLanguage": "en", "version": "1.0", "strings": {
            "A.title": {"localizations": {"fr": {"stringUnit": {"value": ""}}}},
            "B.title": {"localizations": {"fr": {"stringUnit": {}}}},
            "C.title": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": " "}}}}}}
            """#)
        let result = tipcat("validate", "--catalog", catalog)
        #expect(result.stdout.contains("\(catalog)/Localizable.xcstrings:2:62: warning: the 'fr' translation of 'A.title' is empty, so the source text is shown instead [empty-translation]"), "\(result.stdout)")
        #expect(result.stdout.contains("\(catalog)/Localizable.xcstrings:4:85: warning: the 'fr' translation of 'C.title' is empty"), "\(result.stdout)")
        #expect(!result.stdout.contains("missing-key"), "\(result.stdout)")
        #expect(!result.stdout.contains("error:"), "\(result.stdout)")
        for (tip, source) in [("A", "Hello"), ("B", "Second"), ("C", "Third")] {
            let rendered = tipcat("render", tip, "--locale", "fr", "--catalog", catalog)
            #expect(rendered.status == .success, "\(rendered.stderr)")
            #expect(rendered.stdout == source + "\n", "\(tip): \(rendered.stdout.debugDescription)")
        }
    }

    /// 10,000 placeholders in one title (separated by escapes), each reported with its location: validate
    /// stays linear (it took over 20 s in a debug build when every location rescanned the line and the string).
    @Test func tenThousandPlaceholdersInOneTitleAreLocatedInLinearTime() throws {
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        let title = (0..<10_000).map { "{p\($0)}" }.joined(separator: #"\n"#)
        try directory.write("Catalog/tips/Many.json", #"{"id": "Many", "title": "\#(title)"}"#)
        let clock = ContinuousClock()
        let start = clock.now
        let result = tipcat("validate", "--catalog", catalog)
        #expect(clock.now - start < .seconds(5))
        #expect(result.status == .failure)
        #expect(result.stdout.components(separatedBy: "[undeclared-placeholder]").count == 10_001)
        // {p9999} follows 26 bytes of `{"id": "Many", "title": "`, placeholders p0…p9998 ({p0} is 4 bytes,
        // {p10} 5, {p100} 6, {p1000} 7) and 9,999 two-byte escapes.
        let column = 26 + 4 * 10 + 5 * 90 + 6 * 900 + 7 * 8_999 + 2 * 9_999 + 1
        #expect(result.stdout.contains("\(catalog)/tips/Many.json:1:\(column): error: '{p9999}' in the title of Many is not a parameter of Many"), "\(result.stdout.suffix(400))")
    }

    /// A key written twice is `duplicate-key` at the second one with a note at the first, in every object:
    /// String Catalog `strings` and `localizations`, tip `parameters`, and any other object of any file.
    @Test func duplicateKeysEverywhere() throws {
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        try directory.write("Catalog/tips/P.json", #"{"id": "P", "title": "Hi {n}", "parameters": {"n": "int", "n": "string"}, "example": {"n": 1, "n": 2}}"#)
        try directory.write("Catalog/groups.json", #"{"groups": [{"id": "g", "tips": ["A"], "priority": 1, "priority": 2}]}"#)
        try directory.write("Catalog/Localizable.xcstrings", """
            {"sourceLanguage": "en", "version": "1.0", "strings": {
            "A.title": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "Salut"}}, "fr": {"stringUnit": {"state": "translated", "value": "X"}}}},
            "A.title": {"localizations": {}},
            "App": {"localizations": {"de": {"x": 1, "x": 2}}}}}
            """)
        let result = tipcat("validate", "--catalog", catalog)
        #expect(result.status == .failure)
        let file = catalog + "/Localizable.xcstrings"
        for expected in [
            "\(file):2:96: error: duplicate key 'fr' in the localizations of 'A.title' [duplicate-key]\n\(file):2:31: note: first written here",
            "\(file):3:1: error: duplicate key 'A.title' in the strings of the String Catalog [duplicate-key]\n\(file):2:1: note: first written here",
            "\(file):4:42: error: duplicate key 'x' in an object of Localizable.xcstrings [duplicate-key]\n\(file):4:34: note: first written here",
            "\(catalog)/tips/P.json:1:59: error: duplicate key 'n' in the parameters of tip 'P' [duplicate-key]\n\(catalog)/tips/P.json:1:47: note: first written here",
            "\(catalog)/tips/P.json:1:95: error: duplicate key 'n' in an object of tips/P.json [duplicate-key]\n\(catalog)/tips/P.json:1:87: note: first written here",
            "\(catalog)/groups.json:1:55: error: duplicate key 'priority' in a group [duplicate-key]",
        ] {
            #expect(result.stdout.contains(expected), "missing: \(expected)\n\(result.stdout)")
        }
        // Reported once each, not again by the whole-file pass.
        #expect(result.stdout.components(separatedBy: "[duplicate-key]").count == 7, "\(result.stdout)")
    }

    @Test func catalogPathThatDoesNotExist() {
        let result = tipcat("validate", "--catalog", "/nonexistent/tipcat/Catalog")
        #expect(result.status == .failure)
        #expect(result.stdout == "/nonexistent/tipcat/Catalog:1:1: error: catalog directory '/nonexistent/tipcat/Catalog' does not exist [catalog-not-found]\n")
    }

    @Test func missingCatalogJSON() throws {
        let directory = try TemporaryDirectory()
        try directory.write("Catalog/tips/A.json", #"{"id": "A", "title": "Hello"}"#)
        let result = tipcat("validate", "--catalog", directory.path + "/Catalog")
        #expect(result.status == .failure)
        #expect(result.stdout.contains("catalog.json:1:1: error: the catalog has no catalog.json"))
    }
}

/// A listening Unix-domain socket at a path (a socket file in the file system), closed by `close()`.
struct UnixSocket {
    let descriptor: Int32

    init(path: String) throws {
        descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError("socket() failed") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw TestSupportError("socket path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw TestSupportError("bind(\(path)) failed: \(errno)") }
    }

    func close() { _ = Glibc.close(descriptor) }
}
