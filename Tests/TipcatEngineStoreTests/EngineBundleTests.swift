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

    /// A static export directory: channels/<channel>.json pointing at versions/<sha256>.json.
    static func exportDirectory(_ scratch: TemporaryDirectory, bytes: [UInt8], channelFile: ((String, String) -> String)? = nil) throws -> String {
        let directory = scratch.file("public")
        try FileManager.default.createDirectory(atPath: directory + "/channels", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/versions", withIntermediateDirectories: true)
        let sha = SHA256.hash(bytes).hex
        try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/versions/\(sha).json"))
        let bundle = try CatalogBundle(bytes: bytes)
        let pointer = channelFile?(sha, bundle.contentHash.hex) ?? """
            {"channel": "production", "contentHash": "\(bundle.contentHash.hex)", "file": "versions/\(sha).json", "sha256": "\(sha)", "version": 1}
            """
        try Data(pointer.utf8).write(to: URL(fileURLWithPath: "\(directory)/channels/production.json"))
        return directory
    }

    @Test func loadsAFileBytesOrADirectory() throws {
        let scratch = try TemporaryDirectory()
        let (path, bytes) = try Self.exportedBundle(scratch)
        let fromFile = try EngineBundle(contentsOf: path)
        let fromBytes = try EngineBundle(bytes: bytes)
        let fromDirectory = try EngineBundle(exportDirectory: try Self.exportDirectory(scratch, bytes: bytes))
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
        let (_, bytes) = try Self.exportedBundle(scratch)
        func failure(_ pointer: @escaping (String, String) -> String) throws -> String {
            let sub = try TemporaryDirectory()
            let directory = try Self.exportDirectory(sub, bytes: bytes, channelFile: pointer)
            do {
                _ = try EngineBundle(exportDirectory: directory)
                return "loaded"
            } catch {
                return error.message.replacingOccurrences(of: directory + "/", with: "")
            }
        }
        let zeros = String(repeating: "0", count: 64)
        #expect(try failure { sha, content in #"{"contentHash": "\#(content)", "file": "versions/\#(sha).json", "sha256": "\#(zeros)"}"# }
                .hasSuffix(", not the \(zeros) channels/production.json records; it was altered or replaced"))
        #expect(try failure { sha, _ in #"{"contentHash": "\#(zeros)", "file": "versions/\#(sha).json", "sha256": "\#(sha)"}"# }
                .contains(", not the \(zeros) channels/production.json records"))
        #expect(try failure { sha, content in #"{"contentHash": "\#(content)", "file": "../versions/\#(sha).json", "sha256": "\#(sha)"}"# }
                == "channels/production.json: 'file' must be a path inside the export directory, not '../versions/\(SHA256.hash(bytes).hex).json'")
        #expect(try failure { sha, content in #"{"contentHash": "\#(content)", "file": "versions/\#(sha).json", "sha256": "\#(sha)", "version": 2}"# }
                .hasSuffix("holds version 1, not the 2 channels/production.json records"))
        #expect(try failure { _, _ in #"{"contentHash": 3}"# } == "channels/production.json:1:17: 'contentHash' must be a string"
                || failure { _, _ in #"{"contentHash": 3}"# } == "channels/production.json: the channel file has no 'file'")
        #expect(try failure { _, _ in "{" }.hasPrefix("channels/production.json:1:2: not JSON"))
    }
}
