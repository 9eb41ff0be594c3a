import Foundation
import Testing
import TipcatCatalog
import TipcatCore
import TipcatPlugin
@testable import TipcatPlugins
@testable import TipcatCLI

@Suite("tipcat.plugin/1 protocol")
struct ProtocolTests {
    /// The request tipcat writes decodes with the library's Codable types, and every place in it points at the
    /// text it describes.
    @Test func requestDecodesAndEveryPlacePointsAtItsText() throws {
        let sandbox = try PluginSandbox()
        let catalog = CatalogLoader().load(directory: sandbox.catalog).catalog
        let encoder = PluginRequestEncoder(catalog: catalog, tipcatVersion: "9.9")
        let bytes = encoder.request(kind: .lint, plugin: "probe", options: ["limit": .number(3), "words": .array([.string("a\"b")])])
        let request = try JSONDecoder().decode(PluginRequest.self, from: Data(bytes))
        #expect(request.protocol == "tipcat.plugin/1")
        #expect(request.kind == .lint)
        #expect(request.plugin == "probe")
        #expect(request.tipcatVersion == "9.9")
        #expect(request.options?["limit"] == .number(3))
        #expect(request.options?["words"] == .array([.string("a\"b")]))
        let decoded = try #require(request.catalog)
        #expect(decoded.tips.count == catalog.tips.count)
        #expect(decoded.sourceLanguage == "en")
        #expect(decoded.groups.map(\.id) == catalog.groups.map(\.id.rawValue))
        #expect(decoded.events.count == catalog.events.count)
        #expect(decoded.parameters.count == catalog.parameters.count)

        let newTrail = try #require(decoded.tips.first { $0.id == "NewTrailTip" })
        #expect(newTrail.at == Place(file: "tips/NewTrailTip.json", pointer: ""))
        #expect(newTrail.title.text == "{trail.name} is now available")
        #expect(newTrail.actions.first?.title.at.pointer == "/actions/0/title")
        #expect(newTrail.parameters.first?.name == "trail")
        #expect(newTrail.rules.first?.at.pointer == "/rules/0")
        #expect(newTrail.example?["trail"]?["name"] == .string("Butler Fork"))
        #expect(newTrail.title.translations["fr"]?.state == "translated")

        // Every place resolves, and the JSON value there is the text the request gives.
        let resolver = PointerResolver(catalogDirectory: sandbox.catalog)
        var checked = 0
        for tip in decoded.tips {
            for text in tip.texts {
                try expectValue(text.text, at: text.at, root: sandbox.catalog, resolver: resolver)
                checked += 1
                for (_, translation) in text.translations {
                    if let plural = translation.plural {
                        for (category, form) in plural.forms {
                            try expectValue(form, at: try #require(plural.at[category]), root: sandbox.catalog, resolver: resolver)
                            checked += 1
                        }
                    } else {
                        try expectValue(translation.text, at: translation.at, root: sandbox.catalog, resolver: resolver)
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 100)

        // Groups, events and parameters point at their own element of their file.
        for group in decoded.groups {
            try expectValue(group.id, at: Place(file: group.at.file, pointer: group.at.pointer + "/id"), root: sandbox.catalog, resolver: resolver)
        }
        for event in decoded.events {
            try expectValue(event.id, at: Place(file: event.at.file, pointer: event.at.pointer + "/id"), root: sandbox.catalog, resolver: resolver)
        }
        for parameter in decoded.parameters {
            try expectValue(parameter.name, at: Place(file: parameter.at.file, pointer: parameter.at.pointer + "/name"),
                            root: sandbox.catalog, resolver: resolver)
        }
        #expect(decoded.events.first?.at.pointer == "/events/0")
    }

    private func expectValue(_ expected: String, at place: Place, root: String, resolver: PointerResolver) throws {
        let location = try resolver.resolve(file: place.file, pointer: place.pointer, line: nil, column: nil).get()
        #expect(location.file == root + "/" + place.file)
        // Walk the pointer with Foundation's parser to compare the value.
        let data = try #require(FileManager.default.contents(atPath: root + "/" + place.file))
        var node: Any = try JSONSerialization.jsonObject(with: data)
        for token in place.pointer.split(separator: "/").map({ $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }) {
            if let object = node as? [String: Any], let next = object[token] {
                node = next
            } else if let array = node as? [Any], let index = Int(token), index < array.count {
                node = array[index]
            } else {
                Issue.record("pointer \(place.pointer) does not resolve in \(place.file)")
                return
            }
        }
        #expect(node as? String == expected, "\(place.file) \(place.pointer)")
    }

    @Test func pointerTokensAreEscaped() {
        #expect(escapePointerToken("a/b~c") == "a~1b~0c")
        #expect(escapePointerToken("plain") == "plain")
    }

    @Test func unsafePathsAreRecognised() {
        for path in ["", "/etc/passwd", "../x", "a/../b", "a//b", "./a", "a/.", "a\\b", "a\u{0}b", "a\nb", "a\u{1B}[2Jb"] {
            #expect(!isSafeRelativePath(path), "\(path.debugDescription)")
        }
        for path in ["a", "a/b.json", "tips/A.json", "..a", "a..b"] {
            #expect(isSafeRelativePath(path), "\(path)")
        }
    }

    /// A Swift plugin built with TipcatPlugin answers describe and its kinds, and refuses what it does not do.
    @Test func pluginServerAnswersDescribeAndItsKind() throws {
        struct Shouty: LintPlugin {
            func lint(_ catalog: PluginCatalog, options: [String: PluginJSON]) throws -> [PluginDiagnostic] {
                catalog.tips.filter { $0.title.text.hasSuffix("?") }.map {
                    PluginDiagnostic(.warning, rule: "question", message: "\($0.id) asks", at: $0.title.at)
                }
            }
        }
        let server = PluginServer(name: "shouty", version: "2.0", linter: Shouty())
        let describe = try JSONDecoder().decode(PluginResponse.self, from: server.respond(toJSON: Data(
            PluginRequestEncoder.describeRequest(plugin: "shouty", tipcatVersion: "1"))))
        #expect(describe.description?.kinds == [.lint])
        #expect(describe.description?.version == "2.0")

        let sandbox = try PluginSandbox()
        let catalog = CatalogLoader().load(directory: sandbox.catalog).catalog
        let request = PluginRequestEncoder(catalog: catalog, tipcatVersion: "1").request(kind: .lint, plugin: "shouty", options: [:])
        let response = try JSONDecoder().decode(PluginResponse.self, from: server.respond(toJSON: Data(request)))
        #expect(response.diagnostics?.map(\.message) == ["PasswordResetTip asks"])
        #expect(response.diagnostics?.first?.pointer == "/title")

        let generate = PluginRequestEncoder(catalog: catalog, tipcatVersion: "1").request(kind: .generate, plugin: "shouty", options: [:])
        #expect(throws: PluginServerError.self) { try server.respond(toJSON: Data(generate)) }
    }

    /// What tipcat sends is what a plugin receives: the exact bytes, one JSON document, with the options of
    /// plugins.json.
    @Test func theRequestReachesThePluginWhole() throws {
        let sandbox = try PluginSandbox(plugins: [fixture("echo", script: "request-echo.sh", options: ["house": "style", "max": 40])])
        let out = sandbox.root + "/request.json"
        sandbox.environment["REQUEST_OUT"] = out
        let run = sandbox.run("validate", "--catalog", sandbox.catalog)
        #expect(run.status == .success)
        let data = try #require(FileManager.default.contents(atPath: out))
        let request = try JSONDecoder().decode(PluginRequest.self, from: data)
        #expect(request.kind == .lint)
        #expect(request.plugin == "echo")
        #expect(request.options?["house"] == .string("style"))
        #expect(request.options?["max"] == .number(40))
        #expect(request.catalog?.tips.count == 17)
    }
}
