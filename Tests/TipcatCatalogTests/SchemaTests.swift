import Foundation
import Testing
@testable import TipcatCatalog

@Suite struct SchemaTests {
    static let schemaDirectory: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path + "/Catalog/schemas"
    }()

    /// `tipcat init` writes the embedded copies; they must be the files in Catalog/schemas (run `make schemas`).
    @Test func embeddedSchemasMatchTheFiles() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.schemaDirectory).filter { $0.hasSuffix(".schema.json") }.sorted()
        #expect(names == CatalogSchemas.files.keys.sorted())
        for name in names {
            let text = try String(contentsOfFile: Self.schemaDirectory + "/" + name, encoding: .utf8)
            let trimmed = text.hasSuffix("\n") ? String(text.dropLast()) : text
            #expect(CatalogSchemas.files[name] == trimmed, "\(name) differs: run `make schemas`")
        }
    }

    /// Each schema is valid JSON with the keys editors rely on.
    @Test func schemasAreWellFormed() throws {
        for (name, text) in CatalogSchemas.files {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(name)")
            #expect(object["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema", "\(name)")
            #expect(object["title"] != nil && object["description"] != nil, "\(name)")
        }
    }
}
