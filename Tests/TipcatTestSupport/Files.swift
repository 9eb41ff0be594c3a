import Foundation
import Testing
import TipcatCatalog

/// The repository root, found from this file's path (works on a clean clone, no ../shared).
public let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }  // Tests/TipcatTestSupport/Files.swift
    return url.path
}()

/// The sample catalog directory of this checkout.
public let sampleCatalogPath = repositoryRoot + "/Catalog"

/// Something a test helper expected and did not find.
public struct TestSupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A fresh temporary directory, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Creates the directory under the system's temporary directory.
    public init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tipcat-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The absolute path of `relative` inside the directory.
    public func file(_ relative: String) -> String { path + "/" + relative }

    /// A copy of the sample catalog at `<directory>/Catalog` (made once); returns its path.
    ///
    /// Without `plugins`, the copy has no plugins.json: tests of the store, the engine and the CLI's own checks
    /// do not run the sample's Python lint plugin (the plugin tests do).
    public func sampleCatalog(plugins: Bool = false) throws -> String {
        let destination = file("Catalog")
        if !FileManager.default.fileExists(atPath: destination) {
            try FileManager.default.copyItem(atPath: sampleCatalogPath, toPath: destination)
            if !plugins { try FileManager.default.removeItem(atPath: destination + "/plugins.json") }
        }
        return destination
    }

    /// Writes `text` to `relative`, creating folders as needed.
    public func write(_ relative: String, _ text: String) throws {
        try write(relative, Data(text.utf8))
    }

    /// Writes `data` to `relative`, creating folders as needed.
    public func write(_ relative: String, _ data: Data) throws {
        let url = URL(fileURLWithPath: file(relative))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    /// The UTF-8 text of `relative`.
    public func read(_ relative: String) throws -> String {
        try String(contentsOfFile: file(relative), encoding: .utf8)
    }

    /// Replaces the first occurrence of `target` in a file; fails the test when it is absent.
    public func edit(_ relative: String, replacing target: String, with replacement: String) throws {
        let text = try read(relative)
        guard let range = text.range(of: target) else {
            Issue.record("'\(target)' not found in \(relative)")
            return
        }
        try write(relative, text.replacingCharacters(in: range, with: replacement))
    }
}

/// A minimal valid catalog (one tip) in `directory/Catalog`; returns the catalog path.
public func minimalCatalog(in directory: TemporaryDirectory) throws -> String {
    try directory.write("Catalog/catalog.json", """
        {"name": "T", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en", "fr"]}
        """)
    try directory.write("Catalog/tips/A.json", #"{"id": "A", "title": "Hello"}"#)
    return directory.path + "/Catalog"
}

/// Loads a catalog and expects it to be free of errors.
public func loadCatalog(_ directory: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Catalog {
    let result = CatalogLoader().load(directory: directory)
    let errors = result.diagnostics.filter { $0.severity == .error }
    #expect(errors.isEmpty, "catalog errors: \(errors.prefix(3))", sourceLocation: sourceLocation)
    return result.catalog
}

/// The modification date of a file, or nil.
public func modificationDate(_ path: String) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
}
/// A catalog of `count` generated tips with a French title each, for scale and crash tests. `variant` is
/// appended to every message, `translationVariant` to every translation (rewriting only the String Catalog).
public func writeGeneratedCatalog(at directory: String, tips count: Int, variant: String = "", translationVariant: String = "", onlyTranslations: Bool = false) throws {
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
