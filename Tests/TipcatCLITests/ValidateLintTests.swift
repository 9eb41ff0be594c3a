import Foundation
import Testing
@testable import TipcatCLI
import TipcatTestSupport

/// `validate` with the sample catalog's lint.json plus one more content rule.
@Suite struct ValidateLintTests {
    /// A copy of the sample catalog without plugins (only the built-in checks and lint.json run).
    static func sampleCopy(in directory: TemporaryDirectory) throws -> String {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let catalog = directory.path + "/Catalog"
        try FileManager.default.copyItem(atPath: root.path + "/Catalog", toPath: catalog)
        if FileManager.default.fileExists(atPath: catalog + "/plugins.json") { try FileManager.default.removeItem(atPath: catalog + "/plugins.json") }
        return catalog
    }

    @Test func addedContentRuleIsReportedAtTheMatchInJSON() throws {
        let directory = try TemporaryDirectory()
        let catalog = try Self.sampleCopy(in: directory)
        let lintPath = catalog + "/lint.json"
        let lint = try String(contentsOfFile: lintPath, encoding: .utf8)
        #expect(lint.contains(#""content": ["#))
        let rule = #"{"id": "no-jargon", "kind": "existence", "severity": "error", "message": "Say 'start of the trail', not '{match}'.", "tokens": ["the trailhead"], "scope": {"fields": ["title"], "locales": ["en"]}},"#
        try lint.replacingOccurrences(of: #""content": ["#, with: "\"content\": [\n    " + rule)
            .write(toFile: lintPath, atomically: true, encoding: .utf8)

        // Where the words are: FindTrailheadTip's title, "Find the trailhead" when no trailhead is named (the
        // only place they occur in the title, so the finding points at them).
        let tipPath = catalog + "/tips/FindTrailheadTip.json"
        let lines = try String(contentsOfFile: tipPath, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let lineIndex = try #require(lines.firstIndex { $0.contains(#""title": "{trailhead, select, nil {Find the trailhead}"#) })
        let column = try #require(lines[lineIndex].range(of: "the trailhead}")).lowerBound.utf16Offset(in: lines[lineIndex]) + 1

        let result = tipcat("validate", "--catalog", catalog, "--format", "json")
        #expect(result.status == .failure, "\(result.stdout)\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1, "\(result.stdout)")
        let finding = try #require(diagnostics.first)
        #expect(finding["rule"] as? String == "no-jargon")
        #expect(finding["severity"] as? String == "error")
        #expect(finding["message"] as? String == "Say 'start of the trail', not 'the trailhead'.")
        #expect(finding["file"] as? String == tipPath)
        #expect(finding["line"] as? Int == lineIndex + 1)
        #expect(finding["column"] as? Int == column)
    }

    @Test func rulesLevelsApplyToValidate() throws {
        let directory = try TemporaryDirectory()
        let catalog = try minimalCatalog(in: directory)
        try directory.write("Catalog/tips/Renamed.json", #"{"id": "B", "title": "Hi"}"#)
        try directory.write("Catalog/lint.json", #"{"rules": {"file-name-mismatch": "error"}}"#)
        let result = tipcat("validate", "--catalog", catalog)
        #expect(result.status == .failure)
        #expect(result.stdout.contains("error: the file of tip 'B' is named 'Renamed.json'; name it 'B.json' [file-name-mismatch]"), "\(result.stdout)")
        try directory.write("Catalog/lint.json", #"{"rules": {"file-name-mismatch": "off"}}"#)
        let quiet = tipcat("validate", "--catalog", catalog, "--strict")
        #expect(quiet.status == .success, "\(quiet.stdout)")
    }
}
