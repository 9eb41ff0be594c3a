import Foundation
import Testing
import TipcatCatalog
import TipcatCore
import TipcatStore

/// The repository root, from this file's path.
let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

let sampleCatalogPath = repositoryRoot + "/Catalog"

/// A fresh temporary directory, removed when released.
final class Scratch: @unchecked Sendable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tipcat-store-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A copy of the sample catalog at `<scratch>/Catalog`, without its plugins (these tests are about the store;
    /// the plugin tests run the sample's brand-voice plugin).
    func sampleCatalog() throws -> String {
        let destination = path + "/Catalog"
        if !FileManager.default.fileExists(atPath: destination) {
            try FileManager.default.copyItem(atPath: sampleCatalogPath, toPath: destination)
            try FileManager.default.removeItem(atPath: destination + "/plugins.json")
        }
        return destination
    }

    func file(_ relative: String) -> String { path + "/" + relative }

    func write(_ relative: String, _ text: String) throws {
        let url = URL(fileURLWithPath: file(relative))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOfFile: file(relative), encoding: .utf8)
    }

    /// Replaces the first occurrence of `target` in a file; fails the test when it is absent.
    func edit(_ relative: String, replacing target: String, with replacement: String) throws {
        let text = try read(relative)
        guard let range = text.range(of: target) else {
            Issue.record("'\(target)' not found in \(relative)")
            return
        }
        try write(relative, text.replacingCharacters(in: range, with: replacement))
    }
}

/// Loads a catalog and requires it to be free of errors.
func loadCatalog(_ directory: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Catalog {
    let result = CatalogLoader().load(directory: directory)
    let errors = result.diagnostics.filter { $0.severity == .error }
    #expect(errors.isEmpty, "catalog errors: \(errors.prefix(3))", sourceLocation: sourceLocation)
    return result.catalog
}

let fixedTime = Timestamp(iso8601: "2026-03-01T09:30:00Z") ?? Timestamp(secondsSince1970: 0)

func publishRequest(
    _ catalog: Catalog, channel: String = "production", message: String? = nil, expect: Int? = nil, force: Bool = false
) throws -> PublishRequest {
    PublishRequest(
        channel: try ChannelName(channel), tree: ContentTree(catalog: catalog), message: message, author: "tester",
        time: fixedTime, tipcatVersion: "test", expectedVersion: expect, force: force)
}

extension PublishOutcome {
    var record: VersionRecord {
        switch self {
        case .published(let record, _), .unchanged(let record): record
        }
    }

    var diff: CatalogDiff? {
        if case .published(_, let diff) = self { return diff }
        return nil
    }

    var isUnchanged: Bool {
        if case .unchanged = self { return true }
        return false
    }
}

/// A catalog of `count` generated tips with a French title each, for scale and crash tests. `variant` is
/// appended to every message, `translationVariant` to every translation (rewriting only the String Catalog).
func writeGeneratedCatalog(at directory: String, tips count: Int, variant: String = "", translationVariant: String = "", onlyTranslations: Bool = false) throws {
    let manager = FileManager.default
    try manager.createDirectory(atPath: directory + "/tips", withIntermediateDirectories: true)
    func put(_ path: String, _ text: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + path)) }
    var strings: [String] = []
    for index in 0..<count {
        strings.append(#""Tip\#(index).title": {"localizations": {"fr": {"stringUnit": {"state": "translated", "value": "Titre \#(index)\#(translationVariant)"}}}}"#)
    }
    try put("Localizable.xcstrings", #"{"sourceLanguage": "en", "version": "1.0", "strings": {"# + strings.joined(separator: ",\n") + "}}")
    if onlyTranslations { return }
    try put("catalog.json", #"{"name": "Generated", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en", "fr"]}"#)
    try put("events.json", #"{"events": [{"id": "opened", "fields": {"n": "int"}}]}"#)
    for index in 0..<count {
        try put("tips/Tip\(index).json", """
            {"id": "Tip\(index)", "title": "Title \(index)", "message": "Message \(index)\(variant) with {count, plural, one {# item} other {# items}}",
             "parameters": {"count": "int"}, "rules": ["#opened.count >= \(index % 5 + 1)"], "republish": "\(index % 2 == 0 ? "keep" : "reset")"}
            """)
    }
}
