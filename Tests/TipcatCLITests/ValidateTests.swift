import Foundation
import Testing
@testable import TipcatCLI
import TipcatTestSupport

@Suite struct ValidateTests {
    @Test func sampleCatalogHasNoBuiltInFindings() {
        let result = tipcat("validate", "--catalog", sampleCatalogPath, "--strict", "--no-plugins")
        #expect(result.stdout == "")
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("— no findings"))
    }

    /// The sample catalog's brand-voice plugin (Python) finds the one wording its options ban.
    @Test func sampleCatalogsLintPluginFindsItsOneWording() {
        let result = tipcat("validate", "--catalog", sampleCatalogPath, environment: ["PATH": "/usr/local/bin:/usr/bin:/bin"])
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == sampleCatalogPath + "/tips/FoodEventTip.json:5:14: warning: say 'tap', not 'tap on' (FoodEventTip) [brand-voice/wording]\n")
        #expect(result.stderr.contains("— 0 errors, 1 warning"))
    }

    @Test func undeclaredEventInARuleIsOneLocatedError() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let path = catalog + "/tips/NewTrailTip.json"
        let original = try String(contentsOfFile: path, encoding: .utf8)
        #expect(original.contains("#visited-region"))
        try original.replacingOccurrences(of: "#visited-region", with: "#visitedRegion").write(toFile: path, atomically: true, encoding: .utf8)
        // Where the rule text is: line and column of the '#'.
        let lines = original.split(separator: "\n", omittingEmptySubsequences: false)
        let lineIndex = try #require(lines.firstIndex { $0.contains("#visited-region") })
        let column = try #require(lines[lineIndex].range(of: "#visited-region")).lowerBound.utf16Offset(in: lines[lineIndex]) + 1

        let result = tipcat("validate", "--catalog", catalog, "--no-plugins")
        #expect(result.status == .failure)
        let errors = result.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == 1, "\(result.stdout)")
        #expect(errors.first?.hasPrefix("\(path):\(lineIndex + 1):\(column): error: unknown event '#visitedRegion'") == true, "\(result.stdout)")
        #expect(errors.first?.hasSuffix("[unknown-event]") == true)
        #expect(errors.first?.contains("did you mean '#visited-region'?") == true)
    }

    @Test func warningsFailOnlyWithStrict() throws {
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        try directory.write("Catalog/tips/Renamed.json", #"{"id": "B", "title": "Hi"}"#)
        let relaxed = tipcat("validate", "--catalog", catalog)
        #expect(relaxed.status == .success)
        #expect(relaxed.stdout.contains("warning: the file of tip 'B' is named 'Renamed.json'; name it 'B.json' [file-name-mismatch]"))
        let strict = tipcat("validate", "--catalog", catalog, "--strict")
        #expect(strict.status == .failure)
    }

    @Test func jsonFormat() throws {
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        try directory.write("Catalog/tips/A.json", #"{"id": "A", "titel": "Hello"}"#)
        let result = tipcat("validate", "--catalog", catalog, "--format", "json")
        #expect(result.status == .failure)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["errors"] as? Int == 2)
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        let unknown = try #require(diagnostics.first { $0["rule"] as? String == "unknown-key" })
        #expect(unknown["file"] as? String == catalog + "/tips/A.json")
        #expect(unknown["line"] as? Int == 1)
        #expect(unknown["column"] as? Int == 13)
        #expect((unknown["message"] as? String)?.contains("did you mean 'title'?") == true)
    }

    @Test func githubFormat() throws {
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        try directory.write("Catalog/tips/A.json", #"{"id": "A", "titel": "Hello"}"#)
        let result = tipcat("validate", "--catalog", catalog, "--format", "github")
        #expect(result.status == .failure)
        #expect(result.stdout.contains("::error file=\(catalog)/tips/A.json,line=1,col=13,title=unknown-key::unknown key 'titel' in a tip; did you mean 'title'?\n"), "\(result.stdout)")
        #expect(result.stdout.contains("::error file=\(catalog)/tips/A.json,line=1,col=1,title=missing-key::"))
    }

    @Test func githubEscaping() {
        #expect(DiagnosticFormat.escapeData("50%\nnext") == "50%25%0Anext")
        #expect(DiagnosticFormat.escapeProperty("a:b,c") == "a%3Ab%2Cc")
    }
}
