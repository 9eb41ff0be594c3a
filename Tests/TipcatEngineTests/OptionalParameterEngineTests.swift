import Foundation
import Testing
import TipcatCatalog
import TipcatCore
import TipcatEngine

/// The engine with optional tip parameters: instances registered without the value, rules reading nil, and
/// custom IDs with empty text for an absent value.
@Suite struct OptionalParameterEngineTests {
    func catalog() throws -> Catalog {
        let root = NSTemporaryDirectory() + "tipcat-optional-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/tips", withIntermediateDirectories: true)
        try Data(#"{"name": "T", "schemaVersion": 1, "sourceLanguage": "en", "supportedLocales": ["en"]}"#.utf8)
            .write(to: URL(fileURLWithPath: root + "/catalog.json"))
        try Data(#"""
            {"id": "A", "customID": "A-{trail.id}-{nickname}",
             "title": "{nickname, select, nil {Welcome} other {Welcome, {nickname}}}",
             "parameters": {"nickname": "string?", "trail": {"id": "string", "grade": "int?"}},
             "rules": ["nickname == nil || trail.grade >= 2"]}
            """#.utf8).write(to: URL(fileURLWithPath: root + "/tips/A.json"))
        let result = CatalogLoader().load(directory: root)
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(result.diagnostics)")
        try? FileManager.default.removeItem(atPath: root)
        return result.catalog
    }

    @Test func instancesWithoutTheOptionalValue() async throws {
        let engine = try await sampleEngine(catalog: try catalog())
        let anonymous = try await engine.register("A", parameters: ["trail": .record(["id": .string("butler")])])
        #expect(anonymous == "A-butler-")
        #expect(try await engine.status(of: anonymous) == .available)
        let named = try await engine.register("A", parameters: ["nickname": .string("Sam"), "trail": .record(["id": .string("mill")])])
        #expect(named == "A-mill-Sam")
        // nickname is set and trail.grade is nil: `nil >= 2` is false.
        #expect(try await engine.status(of: named) == .pending)
        let graded = try await engine.register(
            "A", parameters: ["nickname": .string("Sam"), "trail": .record(["id": .string("mill"), "grade": .int(3)])])
        #expect(graded == named)
        #expect(try await engine.status(of: graded) == .available)
        await #expect(throws: TipEngineError.tipNeedsParameters("A", missing: ["trail"])) {
            try await engine.register("A", parameters: ["nickname": .string("Sam")])
        }
        // Instances keep their (absent) values across a restart.
        let restarted = try await restart(engine)
        #expect(try await restarted.status(of: anonymous) == .available)
    }

    @Test func theSampleTipRegistersWithoutItsTrailhead() async throws {
        let engine = try await sampleEngine()
        let id = try await engine.register("FindTrailheadTip", parameters: ["count": .int(2)])
        #expect(id == "FindTrailheadTip")
        let named = try await engine.register("FindTrailheadTip", parameters: ["count": .int(2), "trailhead": .string("Mill B")])
        #expect(named == id)
        await #expect(throws: TipEngineError.self) {
            try await engine.register("FindTrailheadTip", parameters: ["count": .int(2), "trailhead": .int(3)])
        }
    }
}
