import Foundation
import Testing
import TipcatTestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `tipcat strings export`: XLIFF 1.2 as Xcode's .xcloc export writes it.
@Suite struct StringsXLIFFTests {
    static let file = "Catalog/Localizable.xcstrings"
    static let fixtures = repositoryRoot + "/Tests/Fixtures/xcstrings/"

    /// What the test's own XMLParser reads back from an exported file.
    final class Reader: NSObject, XMLParserDelegate {
        struct Unit { var id = "", source = "", target: String?, state: String?, note: String? }
        var fileAttributes: [String: String] = [:]
        var tool: [String: String] = [:]
        var namespace: String?
        var units: [Unit] = []
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            text = ""
            switch name {
            case "xliff": namespace = attributes["xmlns"]
            case "file": fileAttributes = attributes
            case "tool": tool = attributes
            case "trans-unit": units.append(Unit(id: attributes["id"] ?? ""))
            case "target": units[units.count - 1].state = attributes["state"]
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "source": units[units.count - 1].source = text
            case "target": units[units.count - 1].target = text
            case "note": units[units.count - 1].note = text
            default: break
            }
        }

        static func read(_ path: String) throws -> Reader {
            let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: path)))
            let reader = Reader()
            parser.delegate = reader
            #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
            return reader
        }
    }

    /// The catalog's locales other than English in `xcstrings`, as `--locale` arguments.
    static func localeArguments(_ path: String) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let strings = object?["strings"] as? [String: Any] ?? [:]
        var locales = Set<String>()
        for entry in strings.values {
            locales.formUnion(((entry as? [String: Any])?["localizations"] as? [String: Any] ?? [:]).keys)
        }
        locales.remove("en")
        return locales.sorted().flatMap { ["--locale", $0] }
    }

    @Test func exportOfTheSampleForFrench() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let output = directory.file("Localizations")
        let result = tipcat("strings", "export", "--catalog", catalog, "--locale", "fr", "-o", output)
        #expect(result.status == .success, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "wrote \(output)/fr.xliff: 36 units, 13 with a target\n")
        let reader = try Reader.read(output + "/fr.xliff")
        #expect(reader.namespace == "urn:oasis:names:tc:xliff:document:1.2")
        #expect(reader.fileAttributes == ["original": "Localizable.xcstrings", "source-language": "en", "target-language": "fr",
                                          "datatype": "plaintext"])
        #expect(reader.tool["tool-id"] == "tipcat")
        #expect(reader.units.count == 36)
        #expect(reader.units.map(\.id) == reader.units.map(\.id).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        let unit = try #require(reader.units.first { $0.id == "ExposureRatingTip.message" })
        #expect(unit.source == "The exposure rating shows how much of the trail is out in the open, without shade or shelter.")
        #expect(unit.target == "L’indice d’exposition indique quelle part du sentier est à découvert, sans ombre ni abri.")
        #expect(unit.state == "translated")
        #expect(unit.note?.hasPrefix("Inline tip above the exposure rating on a trail's detail screen.") == true)
        let untranslated = try #require(reader.units.first { $0.id == "ComboTip.title" })
        #expect(untranslated.source == "Save as a Favorite")
        #expect(untranslated.target == nil)
        #expect(reader.units.filter { $0.target != nil }.count == 13)
    }
}
