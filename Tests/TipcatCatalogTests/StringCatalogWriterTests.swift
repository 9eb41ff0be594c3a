import Foundation
import Testing
import TipcatCatalog
import TipcatCore
import TipcatJSON
import TipcatTestSupport

/// `StringCatalogWriter`: Xcode's layout, and an unchanged tree written back byte for byte.
@Suite struct StringCatalogWriterTests {
    static let files: [String] = {
        let fixtures = repositoryRoot + "/Tests/Fixtures/xcstrings"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures)) ?? []
        return [sampleCatalogPath + "/Localizable.xcstrings"]
            + names.filter { $0.hasSuffix(".xcstrings") }.sorted().map { fixtures + "/" + $0 }
    }()

    @Test(arguments: files) func unchangedTreeIsWrittenBackIdentically(path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let document = try JSONDocument.parse(SourceFile(path: path, bytes: bytes))
        let written = StringCatalogWriter.write(document.root, source: bytes)
        #expect(written == bytes, "\(path) changed:\n\(String(decoding: written, as: UTF8.self))")
    }

    @Test func builtValuesAreFormattedAsXcodeDoes() {
        let root = JSONNode(.object(JSONObject([
            JSONMember(key: "a", value: JSONNode(.string("say \"hi\"\\\n\tok é\u{1}"))),
            JSONMember(key: "b", value: JSONNode(.object(JSONObject()))),
            JSONMember(key: "c", value: JSONNode(.object(JSONObject([
                JSONMember(key: "n", value: JSONNode(.number(JSONNumber(2)))),
                JSONMember(key: "t", value: JSONNode(.bool(true))),
            ])))),
        ])))
        let text = String(decoding: StringCatalogWriter.write(root, source: []), as: UTF8.self)
        #expect(text == """
            {
              "a" : "say \\"hi\\"\\\\\\n\\tok é\\u0001",
              "b" : {

              },
              "c" : {
                "n" : 2,
                "t" : true
              }
            }

            """)
    }
}
