import Foundation
import Testing
@testable import TipcatCLI
import TipcatTestSupport

@Suite struct CommandLineTests {
    @Test func rootHelp() {
        let result = tipcat("--help")
        #expect(result.status == .success)
        #expect(result.stdout.hasPrefix("OVERVIEW: "))
        for command in ["validate", "list", "init", "plural", "completions"] {
            #expect(result.stdout.contains("  \(command) "), "\(command) missing from help")
        }
    }

    @Test func helpForACommand() {
        let viaHelp = tipcat("help", "validate")
        #expect(viaHelp.status == .success)
        #expect(viaHelp.stdout.contains("USAGE: tipcat validate"))
        #expect(viaHelp.stdout.contains("--format <format>"))
        #expect(viaHelp.stdout.contains("--strict"))
        let viaFlag = tipcat("validate", "--help")
        #expect(viaFlag.stdout == viaHelp.stdout)
    }

    @Test func version() {
        let result = tipcat("--version")
        #expect(result.status == .success)
        #expect(result.stdout == tipcatVersion + "\n")
    }

    @Test func unknownFlagExits64WithASuggestion() {
        let result = tipcat("validate", "--nope")
        #expect(result.status == .usage)
        #expect(result.stderr.contains("Unknown option '--nope'"))
        let close = tipcat("validate", "--strct")
        #expect(close.status == .usage)
        #expect(close.stderr.contains("--strict"), "\(close.stderr)")
    }

    @Test func unknownCommandExits64WithASuggestion() {
        let result = tipcat("valdate")
        #expect(result.status == .usage)
        #expect(result.stderr.contains("validate"), "\(result.stderr)")
    }

    @Test func invalidFormatValueExits64() {
        let result = tipcat("validate", "--format", "xml")
        #expect(result.status == .usage)
        #expect(result.stderr.contains("xml"))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScripts(shell: String) {
        let result = tipcat("completions", shell)
        #expect(result.status == .success)
        #expect(result.stdout.contains("validate"))
        #expect(result.stdout.contains("--catalog"))
    }

    @Test func unknownShellExits64() {
        let result = tipcat("completions", "tcsh")
        #expect(result.status == .usage)
    }
}

@Suite struct ListAndInitTests {
    @Test func listsTheSampleCatalog() {
        let result = tipcat("list", "--catalog", sampleCatalogPath)
        #expect(result.status == .success)
        #expect(result.stdout.contains("ShowLocationTip"))
        #expect(result.stdout.contains("compass (ordered): ShowLocationTip → RotateMapTip"))
        #expect(result.stdout.contains("#entered-backyard-detail-view {backyardID: int}"))
        #expect(result.stdout.contains("$isLoggedIn: bool = false"))
    }

    @Test func listJSON() throws {
        let result = tipcat("list", "--catalog", sampleCatalogPath, "--json")
        #expect(result.status == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let tips = try #require(object["tips"] as? [[String: Any]])
        let newTrail = try #require(tips.first { $0["id"] as? String == "NewTrailTip" })
        #expect(newTrail["customID"] as? String == "NewTrailTip-{trail.id}")
        #expect((object["groups"] as? [[String: Any]])?.count == 2)
    }

    @Test func initCreatesAValidCatalogAndNeverOverwrites() throws {
        let directory = try TemporaryDirectory()
        let target = directory.path + "/New"
        let created = tipcat("init", target)
        #expect(created.status == .success, "\(created.stderr)")
        let validated = tipcat("validate", "--catalog", target, "--strict")
        #expect(validated.status == .success, "\(validated.stdout)")
        #expect(FileManager.default.fileExists(atPath: target + "/schemas/tip.schema.json"))
        let again = tipcat("init", target)
        #expect(again.status == .failure)
        #expect(again.stderr.contains("not empty"))
    }

    @Test func initWithoutADirectoryIsAUsageError() {
        #expect(tipcat("init").status == .usage)
    }
}

@Suite struct PluralCommandTests {
    @Test func categoriesAsWritten() {
        let result = tipcat("plural", "en", "1", "1.0", "2")
        #expect(result.status == .success)
        #expect(result.stdout == "one\nother\nother\n")
        let polish = tipcat("plural", "pl", "1", "2", "5", "22", "1.5")
        #expect(polish.stdout == "one\nfew\nmany\nfew\nother\n")
    }

    @Test func badInput() {
        #expect(tipcat("plural", "not a locale", "1").status == .usage)
        #expect(tipcat("plural", "en", "one").status == .usage)
        #expect(tipcat("plural", "en").status == .usage)
    }
}
