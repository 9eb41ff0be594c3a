import Foundation
import Testing
import TipcatCore
import TipcatTestSupport

/// What the engine commands print: values parsed by their declared type, explanations as rules evaluate.
@Suite struct EngineCLIOutputTests {
    /// `engine set` of a string parameter takes the bare word, and a JSON string unquoted once; `why` quotes once.
    @Test func setParsesAStringByItsDeclaredType() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite")]
        let quoted = run(["engine", "set", "mapMode", "\"satellite\""] + common)
        #expect(quoted.status == .success, "\(quoted.stderr)")
        #expect(quoted.stdout == "$mapMode = satellite\n")
        let why = run(["engine", "why", "RotateMapTip"] + common)
        #expect(why.stdout.contains("      ✓ $mapMode == \"satellite\": \"satellite\" == \"satellite\"\n"), "\(why.stdout)")
        #expect(!why.stdout.contains("\"\"satellite\"\""))
        let bare = run(["engine", "set", "mapMode", "hybrid"] + common)
        #expect(bare.stdout == "$mapMode = hybrid\n")
        #expect(run(["engine", "why", "RotateMapTip"] + common).stdout.contains("✓ $mapMode == \"hybrid\": \"hybrid\" == \"hybrid\"\n"))
        // A quote inside the word is kept: only a whole JSON string is unquoted.
        #expect(run(["engine", "set", "mapMode", "say \"hi\""] + common).stdout == "$mapMode = say \"hi\"\n")
    }

    /// `why` marks a negation by its own result, not by the result of the rule inside it.
    @Test func whyShowsNegationsAsTheyEvaluate() throws {
        let scratch = try TemporaryDirectory()
        let store = try scratch.publishedStore()
        let common = ["--store", store, "--state", scratch.file("state.sqlite")]
        let rotate = run(["engine", "why", "RotateMapTip"] + common)
        #expect(rotate.stdout.contains("      ✗ !(#opened-map.count == 0): 0 == 0\n"), "\(rotate.stdout)")
        #expect(!rotate.stdout.contains("✓ (#opened-map.count == 0)"))
        let password = run(["engine", "why", "PasswordResetTip"] + common)
        #expect(password.stdout.contains("  ✓ !$isLoggedIn\n      ✓ !$isLoggedIn: $isLoggedIn is false\n"), "\(password.stdout)")
    }
}
