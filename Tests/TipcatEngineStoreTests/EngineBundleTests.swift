import Foundation
import Testing
import TipcatCodec
import TipcatEngine
import TipcatEngineBundle
import TipcatEngineStore
import TipcatTestSupport

/// `EngineBundle`: a published catalog from a bundle file, its bytes, or a static export directory.
@Suite struct EngineBundleTests {
    /// The sample catalog exported as a bundle, and its bytes.
    static func exportedBundle(_ scratch: TemporaryDirectory) throws -> (path: String, bytes: [UInt8]) {
        let store = try scratch.publishedStore()
        let path = scratch.file("tips.bundle.json")
        let result = tipcat(["export", "--store", store, "-o", path])
        guard result.status == .success, let data = FileManager.default.contents(atPath: path) else {
            throw TestSupportError("export failed: \(result.stderr)")
        }
        return (path, [UInt8](data))
    }

    /// A static export directory written by `tipcat export --static` (channels/production.json pointing at
    /// versions/<sha256>.json), and the SHA-256 of its bundle file.
    static func exportDirectory(_ scratch: TemporaryDirectory) throws -> (directory: String, sha256: String) {
        let store = try scratch.publishedStore()
        let directory = scratch.file("public")
        let result = tipcat(["export", "--store", store, "--static", directory])
        guard result.status == .success,
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory + "/versions"),
              let file = names.first(where: { $0.hasSuffix(".json") })
        else { throw TestSupportError("export --static failed: \(result.stderr)") }
        return (directory, String(file.dropLast(".json".count)))
    }

    @Test func loadsAFileBytesOrADirectory() throws {
        let scratch = try TemporaryDirectory()
        let (path, bytes) = try Self.exportedBundle(scratch)
        let fromFile = try EngineBundle(contentsOf: path)
        let fromBytes = try EngineBundle(bytes: bytes)
        let (directory, sha256) = try Self.exportDirectory(scratch)
        let fromDirectory = try EngineBundle(exportDirectory: directory)
        let versionBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(directory)/versions/\(sha256).json")))
        let downloaded = try EngineBundle(downloaded: versionBytes, expectedSHA256: sha256)
        #expect(downloaded.revision == fromFile.revision)
        #expect(fromFile.catalog.tips.count == 17)
        #expect(fromFile.version == 1)
        #expect(fromFile.channel == "production")
        #expect(fromBytes.revision == fromFile.revision)
        #expect(fromDirectory.revision == fromFile.revision)
        #expect(fromFile.revision.version == fromFile.contentHash)
        // Ready for the engine.
        var engine = try fromFile.session(store: InMemoryTipStateStore())
        try engine.setParameter("isLoggedIn", to: .bool(true))
        #expect(try engine.next() != nil)
    }

    @Test func alteredBundlesAreRefused() throws {
        let scratch = try TemporaryDirectory()
        let (_, bytes) = try Self.exportedBundle(scratch)
        let text = String(decoding: bytes, as: UTF8.self)
        let altered = Array(text.replacingOccurrences(of: "Favorite", with: "Favourite").utf8)
        #expect(throws: EngineBundleError.self) { try EngineBundle(bytes: altered, path: "b.json") }
        do {
            _ = try EngineBundle(bytes: altered, path: "b.json")
        } catch {
            #expect(error.message.hasPrefix("b.json: "))
            #expect(error.message.contains("the bundle was altered") || error.message.contains("was altered"))
        }
        do {
            _ = try EngineBundle(contentsOf: scratch.file("missing.json"))
            Issue.record("a missing file loaded")
        } catch {
            #expect(error.message == "\(scratch.file("missing.json")): no such file (the bundle)")
        }
    }

    @Test func exportDirectoriesAreChecked() throws {
        let scratch = try TemporaryDirectory()
        let (directory, sha256) = try Self.exportDirectory(scratch)
        let channelFile = directory + "/channels/production.json"
        let versionFile = "\(directory)/versions/\(sha256).json"
        let pointer = try String(contentsOfFile: channelFile, encoding: .utf8)
        let bundle = try Data(contentsOf: URL(fileURLWithPath: versionFile))
        /// The error after `change` (the files are restored afterwards).
        func failure(_ change: () throws -> Void) throws -> String {
            defer {
                try? pointer.write(toFile: channelFile, atomically: true, encoding: .utf8)
                try? bundle.write(to: URL(fileURLWithPath: versionFile))
            }
            try change()
            do {
                _ = try EngineBundle(exportDirectory: directory)
                return "loaded"
            } catch {
                return error.message.replacingOccurrences(of: directory + "/", with: "")
            }
        }
        func pointing(_ from: String, _ to: String) throws {
            #expect(pointer.contains(from))
            try pointer.replacingOccurrences(of: from, with: to).write(toFile: channelFile, atomically: true, encoding: .utf8)
        }
        let zeros = String(repeating: "0", count: 64)
        #expect(try failure {} == "loaded")
        #expect(try failure { try pointing("\"sha256\":\"\(sha256)\"", "\"sha256\":\"\(zeros)\"") }
                == "'channels/production.json' is refused: 'file' is not versions/\(zeros).json")
        // The bundle's bytes changed: the hash of the file no longer matches the channel file's.
        #expect(try failure { try Data(bundle + Data(" ".utf8)).write(to: URL(fileURLWithPath: versionFile)) }
                .hasPrefix("'versions/\(sha256).json' is refused: its bytes hash to "))
        #expect(try failure { try pointing("\"file\":\"versions/", "\"file\":\"../versions/") }
                == "'channels/production.json' is refused: 'file' is not versions/\(sha256).json")
        #expect(try failure { try pointing("\"version\":1", "\"version\":2") }.contains("not the channel file's version 2 of production"))
        #expect(try failure { try "{".write(toFile: channelFile, atomically: true, encoding: .utf8) }
                .hasPrefix("'channels/production.json' is refused: it is not JSON"))
        #expect(try failure { try pointing("\"formatVersion\":1", "\"formatVersion\":9") }
                == "'channels/production.json' is refused: its formatVersion is missing or newer than this tipcat reads")
        // A download whose bytes are not the expected hash.
        #expect(throws: EngineBundleError.self) { try EngineBundle(downloaded: [UInt8](bundle), expectedSHA256: zeros) }
    }
}
