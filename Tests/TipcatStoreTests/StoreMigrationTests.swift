import Foundation
import Testing
import TipcatCore
import TipcatStore
import TipcatTestSupport

/// `tipcat store migrate` between every pair of backends.
@Suite struct StoreMigrationTests {
    @Test(arguments: StoreBackend.allCases, StoreBackend.allCases)
    func copiesEveryVersionChannelAndObject(from sourceBackend: StoreBackend, to targetBackend: StoreBackend) throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        guard let source = try sourceBackend.newStoreURL(in: scratch) else { return }
        let targetScratch = try TemporaryDirectory()
        guard let target = try targetBackend.newStoreURL(in: targetScratch) else { return }
        let common = ["--catalog", catalog, "--store", source, "--author", "Ada"]
        #expect(storeCLI(["publish"] + common).status == .success)
        try scratch.edit("Catalog/tips/NewTrailTip.json", replacing: "To see key trail info", with: "For key trail info")
        #expect(storeCLI(["publish"] + common).status == .success)
        #expect(storeCLI(["rollback", "--to", "1"] + common).status == .success)
        #expect(storeCLI(["promote", "production", "beta", "--store", source]).status == .success)

        let shownSource = try StoreLocation(source).description, shownTarget = try StoreLocation(target).description
        let first = storeCLI(["store", "migrate", "--from", source, "--to", target])
        #expect(first.status == .success, "\(first.stderr)")
        let objects = try #require(first.stdout.firstMatch(of: /and (\d+) objects/).map { Int($0.1) ?? 0 })
        #expect(objects > 20)
        #expect(first.stdout == """
            Copied 3 versions, 4 channel moves and \(objects) objects from \(shownSource) to \(shownTarget).
              \(shownTarget) now has 3 versions and 2 channels; every copied version matches its content hash.

            """)
        try expectSameHistory(source, target)

        let again = storeCLI(["store", "migrate", "--from", source, "--to", target])
        #expect(again.stdout == "Nothing to copy: \(shownTarget) already has the 3 versions and 2 channels of \(shownSource).\n")

        // One more version: only it is copied, with just the objects it adds.
        try scratch.edit("Catalog/tips/RotateMapTip.json", replacing: "\"title\": \"", with: "\"title\": \"Now: ")
        #expect(storeCLI(["publish"] + common).status == .success)
        let more = storeCLI(["store", "migrate", "--from", source, "--to", target])
        #expect(more.stdout.hasPrefix("Copied 1 version, 1 channel move and "), "\(more.stdout)")
        try expectSameHistory(source, target)

        // A target whose history went another way is refused, unchanged.
        #expect(storeCLI(["publish", "--catalog", catalog, "--store", target, "--author", "Bob", "--force"]).status == .success)
        let diverged = storeCLI(["store", "migrate", "--from", source, "--to", target])
        #expect(diverged.status == .failure)
        #expect(diverged.stderr == "error: cannot copy '\(shownSource)' into '\(shownTarget)': the target has version 5, which the source does not; copy into an empty store\n")
    }

    func expectSameHistory(_ source: String, _ target: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let from = try StoreLocation(source).open(.readOnly), to = try StoreLocation(target).open(.readOnly)
        #expect(try to.versions() == from.versions(), sourceLocation: sourceLocation)
        #expect(try to.channels() == from.channels(), sourceLocation: sourceLocation)
        #expect(try to.channelMoves() == from.channelMoves(), sourceLocation: sourceLocation)
        for record in try from.versions() {
            #expect(try to.resets(of: record.number) == from.resets(of: record.number), sourceLocation: sourceLocation)
            #expect(try to.verify(record) == from.verify(record), sourceLocation: sourceLocation)
        }
        for channel in try from.channels() {
            let name = try ChannelName(channel.name)
            #expect(try to.history(of: name) == from.history(of: name), sourceLocation: sourceLocation)
        }
        try checkIntegrity(to, sourceLocation: sourceLocation)
    }

    @Test func badMigrationsAreClearErrors() throws {
        let scratch = try TemporaryDirectory()
        let missing = scratch.file("missing.sqlite")
        let noSource = storeCLI(["store", "migrate", "--from", missing, "--to", scratch.file("to.sqlite")])
        #expect(noSource.status == .failure)
        #expect(noSource.stderr == "error: no store at '\(missing)'; publish first, or name one with --store or TIPCAT_STORE\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("to.sqlite")))
        let scheme = storeCLI(["store", "migrate", "--from", missing, "--to", "mysql://u:secret@h/db"])
        #expect(scheme.status == .usage)
        #expect(scheme.stderr.hasPrefix("Error: unsupported store URL scheme 'mysql://'"))
        #expect(!scheme.stderr.contains("secret"))
        let same = storeCLI(["store", "migrate", "--from", missing, "--to", missing])
        #expect(same.status == .usage)
        #expect(same.stderr.hasPrefix("Error: --from and --to name the same store\n"))
        let unreachable = storeCLI(["store", "migrate", "--from", "postgresql://u:secret@127.0.0.1:1/db", "--to", scratch.file("to.sqlite")])
        #expect(unreachable.status == .unavailable)
        #expect(!unreachable.stderr.contains("secret"))
    }
}
