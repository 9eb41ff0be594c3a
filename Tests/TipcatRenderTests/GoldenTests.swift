import Foundation
import Testing
import TipcatCatalog
import TipcatCore
import TipcatLocalization
import TipcatText
@testable import TipcatRender

/// Golden files: every sample tip × 3 styles × (en, fr, ar, ja), at width 60, ANSI with 16 colours; NewTrailTip in
/// the pseudo-locales en-XA and ar-XB, plain.
///
/// Re-record after an intended change with `TIPCAT_RECORD_GOLDEN=1 swift test --filter GoldenTests`, then
/// review the diff of Tests/Fixtures/render-golden in git.
@Suite struct GoldenTests {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()
    static let catalog = CatalogLoader().load(directory: root.path + "/Catalog").catalog
    static let registry = StyleRegistry(directory: root.path + "/Templates")
    static let recording = ProcessInfo.processInfo.environment["TIPCAT_RECORD_GOLDEN"] == "1"

    struct Case: CustomStringConvertible, Sendable {
        var style: String
        var locale: String
        var description: String { "\(style)/\(locale)" }
    }

    static let cases = ["plain", "markdown", "ansi", "html"].flatMap { style in ["en", "fr", "ar", "ja"].map { Case(style: style, locale: $0) } }

    static func render(_ tip: Tip, style: Style, locale: LocaleID) throws -> String {
        let resolved = try TipResolver(catalog: catalog).resolve(tip, locale: locale, parameters: [:], useExample: true)
        let depth: ColorDepth = style.manifest.output == .ansi ? .ansi16 : .none
        return try TipRenderer(style: style, settings: RenderSettings(width: 60, colorDepth: depth)).render(resolved)
    }

    @Test(arguments: cases)
    func everySampleTip(_ item: Case) throws {
        let style = try Self.registry.style(named: item.style)
        let locale = try #require(LocaleID(item.locale))
        #expect(Self.catalog.tips.count == 17)
        for tip in Self.catalog.tips {
            let output = try Self.render(tip, style: style, locale: locale)
            let file = Self.root.appendingPathComponent("Tests/Fixtures/render-golden/\(item.style)/\(item.locale)/\(tip.id).txt")
            if Self.recording {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(output.utf8).write(to: file)
                continue
            }
            let expected = try String(contentsOf: file, encoding: .utf8)
            #expect(output == expected, "\(item.style)/\(item.locale)/\(tip.id) differs from its golden file; re-record with TIPCAT_RECORD_GOLDEN=1 if intended")
        }
    }

    /// The pseudo-locales, derived from the source text at render time (`tipcat render NewTrailTip --locale en-XA`).
    @Test(arguments: ["en-XA", "ar-XB"])
    func pseudoLocale(_ identifier: String) throws {
        let style = try Self.registry.style(named: "plain")
        let locale = try #require(LocaleID(identifier))
        let tip = try #require(Self.catalog.tip(TipID("NewTrailTip")))
        let output = try Self.render(tip, style: style, locale: locale)
        let file = Self.root.appendingPathComponent("Tests/Fixtures/render-golden/plain/\(identifier)/NewTrailTip.txt")
        if Self.recording {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(output.utf8).write(to: file)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(output == expected, "plain/\(identifier)/NewTrailTip differs from its golden file; re-record with TIPCAT_RECORD_GOLDEN=1 if intended")
        // The parameter values are substituted as they are.
        #expect(output.contains("Butler Fork") && output.contains("Big Cottonwood"))
    }

    /// The sample catalog with `Tests/Fixtures/xcstrings/device-variations.xcstrings` as its String Catalog.
    static func deviceCatalog() throws -> Catalog {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tipcat-golden-devices-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("Catalog")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: root.appendingPathComponent("Catalog"), to: copy)
        let fixture = root.appendingPathComponent("Tests/Fixtures/xcstrings/device-variations.xcstrings")
        try FileManager.default.removeItem(at: copy.appendingPathComponent("Localizable.xcstrings"))
        try FileManager.default.copyItem(at: fixture, to: copy.appendingPathComponent("Localizable.xcstrings"))
        return CatalogLoader().load(directory: copy.path).catalog
    }

    /// String Catalog device variations (`tipcat render ShowLocationTip --locale fr --device mac`), plain.
    @Test(arguments: [Device.mac, .iphone])
    func deviceVariation(_ device: Device) throws {
        let catalog = try Self.deviceCatalog()
        let style = try Self.registry.style(named: "plain")
        let tip = try #require(catalog.tip(TipID("ShowLocationTip")))
        let resolved = try TipResolver(catalog: catalog).resolve(tip, locale: try #require(LocaleID("fr")), parameters: [:], device: device)
        let output = try TipRenderer(style: style, settings: RenderSettings(width: 60, colorDepth: .none)).render(resolved)
        let file = Self.root.appendingPathComponent("Tests/Fixtures/render-golden/plain/fr-device-\(device.name)/ShowLocationTip.txt")
        if Self.recording {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(output.utf8).write(to: file)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(output == expected, "plain/fr-device-\(device.name)/ShowLocationTip differs from its golden file; re-record with TIPCAT_RECORD_GOLDEN=1 if intended")
        #expect(output.contains(device == .mac ? "Cliquez" : "Touchez"))
    }

    /// The compiled-in copies of the built-in styles render exactly like the folders in Templates/ (run
    /// `make templates` after editing them).
    @Test(arguments: ["plain", "markdown", "ansi", "html"])
    func builtInStylesMatchTheTemplatesFolder(_ name: String) throws {
        let disk = try Self.registry.style(named: name)
        let builtIn = try StyleRegistry(directory: nil).style(named: name)
        #expect(builtIn.origin == .builtIn)
        #expect(builtIn.templateSource == disk.templateSource, "run `make templates`")
        for tip in Self.catalog.tips {
            #expect(try Self.render(tip, style: builtIn, locale: LocaleID.english) == (try Self.render(tip, style: disk, locale: LocaleID.english)))
        }
    }
}
