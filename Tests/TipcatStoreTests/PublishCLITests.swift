import Foundation
import Testing
@testable import TipcatCLI
import TipcatCore
import TipcatJSON
import TipcatCodec
import TipcatStore
import TipcatTestSupport

@Suite struct PublishCLITests {
    /// The acceptance flow: publish, edit one message, publish, diff 1 2, rollback --to 1.
    @Test func publishEditDiffRollback() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let common = ["--catalog", catalog, "--author", "Ada"]

        let first = storeCLI(["publish"] + common)
        #expect(first.status == .success, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Published version 1 to production: initial version: 17 tips, 2 groups"))
        // The default store: .tipcat/store.sqlite next to the catalog directory.
        #expect(FileManager.default.fileExists(atPath: scratch.file(".tipcat/store.sqlite")))

        let versions = storeCLI(["versions", "--catalog", catalog])
        #expect(versions.status == .success)
        let lines = versions.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("VERSION  PUBLISHED             TYPE     AUTHOR  TIPS  CONTENT") == true)
        #expect(lines.last?.contains("1  2026-03-01T09:30:00Z  publish  Ada       17  ") == true)
        #expect(lines.last?.hasSuffix("[production]") == true)

        let same = storeCLI(["publish"] + common)
        #expect(same.status == .success)
        #expect(same.stdout.hasPrefix("Nothing to publish: production is at version 1"))

        try scratch.edit("Catalog/tips/NewTrailTip.json", replacing: "To see key trail info", with: "For key trail info")
        let second = storeCLI(["publish"] + common)
        #expect(second.status == .success)
        #expect(second.stdout.hasPrefix("Published version 2 to production: NewTrailTip: message\n"))
        #expect(second.stdout.contains("devices reset their state for: NewTrailTip"))

        let diff = storeCLI(["diff", "1", "2", "--catalog", catalog])
        #expect(diff.status == .success)
        #expect(diff.stdout == """
            diff version 1 → version 2
            ~ tip NewTrailTip
                ~ message: "To see key trail info, tap {trail.region} on the map." → "For key trail info, tap {trail.region} on the map."
            1 change: NewTrailTip: message

            """)
        let json = storeCLI(["diff", "1", "2", "--catalog", catalog, "--json"])
        let parsed = try JSONDocument.parse(text: json.stdout).root.value
        let changes = parsed.objectValue?["changes"]?.value.arrayValue ?? []
        #expect(changes.count == 1)
        #expect(changes.first?.value == [
            "change": "changed", "area": "tip", "id": "NewTrailTip", "field": "message",
            "old": #""To see key trail info, tap {trail.region} on the map.""#,
            "new": #""For key trail info, tap {trail.region} on the map.""#,
        ])

        let rollback = storeCLI(["rollback", "--to", "1"] + common)
        #expect(rollback.status == .success, "\(rollback.stderr)")
        #expect(rollback.stdout.hasPrefix("Rolled back production to version 1's content as version 3"))

        let listing = try JSONDocument.parse(text: storeCLI(["versions", "--catalog", catalog, "--json"]).stdout).root.value
        let records = listing.objectValue?["versions"]?.value.arrayValue?.compactMap(\.value.objectValue) ?? []
        #expect(records.count == 3)
        #expect(records.map { $0["number"]?.value } == [.int(1), .int(2), .int(3)])
        #expect(records[2]["contentHash"]?.value == records[0]["contentHash"]?.value)
        #expect(records[2]["contentHash"]?.value != records[1]["contentHash"]?.value)
        #expect(records[2]["type"]?.value == "rollback")
        #expect(records[2]["source"]?.value == .int(1))
        #expect(listing.objectValue?["channels"]?.value == ["production": 3])

        let show = storeCLI(["show-version", "2", "--catalog", catalog])
        #expect(show.status == .success)
        #expect(show.stdout.contains("resets:    NewTrailTip"))
        #expect(show.stdout.contains("changes from version 1 (1 tip):\n~ tip NewTrailTip"))
    }

    @Test func storeLocationFlagBeatsEnvironmentBeatsDefault() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let fromEnvironment = scratch.file("env/store.sqlite")
        let fromFlag = scratch.file("flag.sqlite")
        #expect(storeCLI(["publish", "--catalog", catalog, "--author", "a"], environment: ["TIPCAT_STORE": fromEnvironment]).status == .success)
        #expect(FileManager.default.fileExists(atPath: fromEnvironment))
        #expect(!FileManager.default.fileExists(atPath: scratch.file(".tipcat")))
        #expect(storeCLI(["publish", "--catalog", catalog, "--author", "a", "--store", fromFlag],
                       environment: ["TIPCAT_STORE": fromEnvironment]).status == .success)
        #expect(FileManager.default.fileExists(atPath: fromFlag))
    }

    @Test(arguments: [
        ("Catalog", ".tipcat/store.sqlite"), ("Catalog/", ".tipcat/store.sqlite"), ("app/Catalog", "app/.tipcat/store.sqlite"),
        ("/srv/app/Catalog/", "/srv/app/.tipcat/store.sqlite"), ("/Catalog", "/.tipcat/store.sqlite"),
        (".", "./../.tipcat/store.sqlite"),
    ])
    func defaultStorePaths(catalog: String, store: String) {
        #expect(StoreAccess.defaultStorePath(catalog: catalog) == store)
    }

    @Test func invalidCatalogsPublishNothing() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        try scratch.edit("Catalog/tips/NewTrailTip.json", replacing: "#visited-region", with: "#visitedRegion")
        let result = storeCLI(["publish", "--catalog", catalog, "--author", "a"])
        #expect(result.status == .failure)
        #expect(result.stderr.contains("unknown event '#visitedRegion'"))
        #expect(result.stderr.contains("nothing was published"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file(".tipcat")))
    }

    @Test func dryRunWritesNothing() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let first = storeCLI(["publish", "--dry-run", "--catalog", catalog])
        #expect(first.status == .success)
        #expect(first.stdout.contains("initial version: 17 tips"))
        #expect(first.stdout.contains("Dry run: would publish version 1 to production"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file(".tipcat")))
        #expect(storeCLI(["publish", "--catalog", catalog, "--author", "a"]).status == .success)
        let store = scratch.file(".tipcat/store.sqlite")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        try scratch.edit("Catalog/tips/RotateMapTip.json", replacing: "hand.tap", with: "map")
        let preview = storeCLI(["publish", "--dry-run", "--catalog", catalog])
        #expect(preview.stdout == """
            ~ tip RotateMapTip
                ~ image: "hand.tap" → "map"
            Dry run: would publish version 2 to production (RotateMapTip: image); nothing was written.

            """)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(storeCLI(["versions", "--catalog", catalog, "--json"]).stdout.components(separatedBy: "\"number\"").count == 2)
    }

    @Test func guardsAndUsageErrors() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let common = ["--catalog", catalog, "--author", "a"]
        #expect(storeCLI(["publish", "--expect-version", "0"] + common).status == .success)
        try scratch.edit("Catalog/tips/RotateMapTip.json", replacing: "hand.tap", with: "map")
        let mismatch = storeCLI(["publish", "--expect-version", "6"] + common)
        #expect(mismatch.status == .failure)
        #expect(mismatch.stderr == "error: version mismatch: production is at 1, expected 6\n")
        let forced = storeCLI(["publish", "--expect-version", "6", "--force"] + common)
        #expect(forced.status == .success)
        #expect(forced.stdout.hasPrefix("Published version 2 to production (forced): RotateMapTip: image"))

        for arguments in [
            ["publish", "--channel", "7"], ["publish", "--channel", "working"], ["publish", "--expect-version", "x"],
            ["rollback", "--to", "0"], ["promote", "beta", "42"], ["show-version", "0"], ["diff", "0", "1"], ["rollback"],
            ["export"],
        ] {
            let result = storeCLI(arguments + ["--catalog", catalog])
            #expect(result.status == .usage, "\(arguments): \(result.stderr)")
        }
        #expect(storeCLI(["publish", "--channel", "12"] + common).stderr.contains("channel names must not be numbers"))
        #expect(storeCLI(["show-version", "9", "--catalog", catalog]).stderr == "error: there is no version 9\n")
        #expect(storeCLI(["diff", "1", "staging", "--catalog", catalog]).stderr == "error: there is no channel 'staging'\n")
        #expect(storeCLI(["rollback", "--to", "9"] + common).stderr == "error: there is no version 9\n")
        #expect(storeCLI(["rollback", "--to", "1", "--channel", "beta"] + common).stderr == "error: there is no channel 'beta'\n")
    }

    @Test func promoteMovesChannelsWithCompareAndSwap() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let common = ["--catalog", catalog, "--author", "a"]
        #expect(storeCLI(["publish"] + common).status == .success)
        try scratch.edit("Catalog/tips/RotateMapTip.json", replacing: "hand.tap", with: "map")
        #expect(storeCLI(["publish", "--channel", "beta"] + common).status == .success)
        let stale = storeCLI(["promote", "beta", "production", "--expect-version", "2", "--catalog", catalog])
        #expect(stale.status == .failure)
        #expect(stale.stderr == "error: version mismatch: production is at 1, expected 2\n")
        let promoted = storeCLI(["promote", "beta", "production", "--expect-version", "1", "--catalog", catalog])
        #expect(promoted.stdout == "production now points at version 2 (beta's head); it was at 1.\n")
        #expect(storeCLI(["promote", "beta", "production", "--catalog", catalog]).stdout.hasPrefix("Nothing to promote"))
        let history = storeCLI(["versions", "--channel", "production", "--catalog", catalog])
        #expect(history.stdout.split(separator: "\n").count == 3)
        #expect(history.stdout.contains("[beta, production]"))
        #expect(storeCLI(["diff", "beta", "production", "--catalog", catalog]).stdout.hasPrefix("No changes between beta (version 2) and production (version 2)"))
    }

    @Test func exportWritesAVerifiableBundle() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        #expect(storeCLI(["publish", "--catalog", catalog, "--author", "a"]).status == .success)
        let path = scratch.file("out/bundle.json")
        try FileManager.default.createDirectory(atPath: scratch.file("out"), withIntermediateDirectories: true)
        let result = storeCLI(["export", "--channel", "production", "-o", path, "--catalog", catalog])
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Exported version 1 of production (17 tips, content "))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let bundle = try CatalogBundle(bytes: bytes)
        let head = try JSONDocument.parse(text: storeCLI(["versions", "--json", "--catalog", catalog]).stdout).root.value
        let hash = head.objectValue?["versions"]?.value.arrayValue?.first?.value.objectValue?["contentHash"]?.value.stringValue
        #expect(bundle.contentHash.hex == hash)
        #expect(try bundle.catalog(origin: path).tips.count == 17)
        let toStdout = storeCLI(["export", "-o", "-", "--catalog", catalog])
        #expect(Array(toStdout.stdout.utf8) == bytes)
        #expect(toStdout.stderr.hasPrefix("Exported version 1 of production"))
        #expect(storeCLI(["export", "-o", path, "--channel", "beta", "--catalog", catalog]).stderr == "error: there is no channel 'beta'\n")
    }

    @Test func corruptOrForeignStoresAreRefusedUntouched() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        var random = SeededGenerator(seed: 99)
        let files: [(String, [UInt8])] = [
            ("notes.txt", Array("dear diary\n".utf8)),
            ("noise.bin", (0..<10_000).map { _ in UInt8.random(in: 0...255, using: &random) }),
            ("fake.sqlite", Array("SQLite format 3\0".utf8) + [0x10, 0x00] + [UInt8](repeating: 7, count: 4096 - 18)),
        ]
        for (name, bytes) in files {
            let path = scratch.file(name)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let stamp = modificationDate(path)
            for command in [["publish", "--author", "a"], ["versions"], ["diff", "1", "working"], ["rollback", "--to", "1"],
                            ["promote", "beta", "production"], ["export", "-o", scratch.file("b.json")], ["show-version", "1"]] {
                let result = storeCLI(command + ["--catalog", catalog, "--store", path])
                #expect(result.status == .failure, "\(name) \(command)")
                #expect(result.stderr.hasPrefix("error: '\(path)' is not a tipcat store: "), "\(name) \(command): \(result.stderr)")
                #expect(result.stderr.hasSuffix("; it was left untouched\n"))
            }
            #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == bytes, "\(name) was changed")
            #expect(modificationDate(path) == stamp, "\(name) was touched")
        }
    }

    @Test func authorFallsBackFromFlagToGitToUser() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        try scratch.write("gitconfig", "[user]\n\tname = Grace Hopper\n")
        let base = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": scratch.path,
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CEILING_DIRECTORIES": scratch.path, "USER": "fallback-user",
        ]
        func author(_ extra: [String], _ environment: [String: String], store: String) throws -> String? {
            let result = storeCLI(["publish", "--catalog", catalog, "--store", scratch.file(store)] + extra, environment: environment)
            #expect(result.status == .success, "\(result.stderr)")
            let listing = try JSONDocument.parse(text: storeCLI(["versions", "--json", "--store", scratch.file(store)]).stdout).root.value
            return listing.objectValue?["versions"]?.value.arrayValue?.first?.value.objectValue?["author"]?.value.stringValue
        }
        #expect(try author(["--author", "Ada"], base, store: "1.sqlite") == "Ada")
        var withGit = base
        withGit["GIT_CONFIG_GLOBAL"] = scratch.file("gitconfig")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/git") {
            #expect(try author([], withGit, store: "2.sqlite") == "Grace Hopper")
        }
        var noGit = base
        noGit["GIT_CONFIG_GLOBAL"] = "/dev/null"
        #expect(try author([], noGit, store: "3.sqlite") == "fallback-user")
    }

    @Test func aTerminalSeesProgressOthersDoNot() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let onTerminal = storeCLI(["publish", "--catalog", catalog, "--author", "a"], terminal: true)
        #expect(onTerminal.stderr.contains("encoding and hashing 17 tips…"))
        #expect(onTerminal.stderr.contains("writing to "))
        #expect(onTerminal.stderr.hasSuffix("\r\u{1B}[K"))
        try scratch.edit("Catalog/tips/RotateMapTip.json", replacing: "hand.tap", with: "map")
        let piped = storeCLI(["publish", "--catalog", catalog, "--author", "a"])
        #expect(piped.stderr.isEmpty)
    }

    @Test(arguments: ["publish", "versions", "show-version", "diff", "rollback", "promote", "export"])
    func everyCommandHasHelpWithExamples(command: String) {
        let help = storeCLI([command, "--help"])
        #expect(help.status == .success)
        #expect(help.stdout.contains("OVERVIEW: "))
        #expect(help.stdout.contains("EXAMPLES:\n  tipcat \(command)"))
        #expect(storeCLI(["help"]).stdout.contains("  \(command)"))
    }
}
