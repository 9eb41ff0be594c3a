import Foundation
import Testing
import TipcatTestSupport

/// `tipcat generate swift` and `tipcat generate tipkit`: golden files for the sample catalog, `swiftc -parse` of
/// the TipKit code, escaping of hostile catalog values, `--check`, bad options.
@Suite("tipcat generate swift/tipkit")
struct SwiftGeneratorTests {
    static let engineGolden = repositoryRoot + "/Tests/TipcatGeneratedSwiftTests"
    static let tipKitGolden = repositoryRoot + "/Tests/TipcatPluginsTests/Fixtures/generated/tipkit"
    static var recording: Bool { ProcessInfo.processInfo.environment["TIPCAT_RECORD_GOLDEN"] == "1" }

    /// The engine accessors compiled by the TipcatGeneratedSwiftTests target are what the generator writes now.
    @Test func engineAccessorsGoldenIsCurrent() {
        let arguments = ["generate", "swift", "--catalog", sampleCatalogPath, "-o", Self.engineGolden]
        let run = tipcat(arguments + (Self.recording ? [] : ["--check"]))
        #expect(run.status == .success, "re-record with TIPCAT_RECORD_GOLDEN=1: \(run.stdout)\(run.stderr)")
        #expect(run.stderr == "\(Self.engineGolden): 1 file " + (Self.recording ? "" : "up to date\n"), "\(run.stderr)")
    }

    @Test func tipKitGoldenIsCurrentAndParses() throws {
        let arguments = ["generate", "tipkit", "--catalog", sampleCatalogPath, "-o", Self.tipKitGolden]
        let run = tipcat(arguments + (Self.recording ? [] : ["--check"]))
        #expect(run.status == .success, "re-record with TIPCAT_RECORD_GOLDEN=1: \(run.stdout)\(run.stderr)")
        let file = Self.tipKitGolden + "/TipCatalog+TipKit.swift"
        let parse = try swiftcParse(file)
        #expect(parse.status == 0, "\(parse.output)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("#Rule(TipCatalog.Events.enteredBackyardDetailView) { $0.donations.donatedWithin(.days(5)).largestSubset(\\.backyardID).count >= 3 },"))
        #expect(text.contains("#Rule(TipCatalog.Parameters.$mapMode) { ($0 == \"satellite\") || ($0 == \"hybrid\") },"))
        #expect(text.contains("    // - rule 2: `tip(InlineTip).invalidated || $isPowerUser` — TipKit rules cannot read another tip's status (tip(…))"))
        #expect(text.contains("struct ComExampleTrailsPlanTomorrow: Tip {\n    var id: String { \"com.example.trails.plan-tomorrow\" }"))
        #expect(text.contains("var title: Text { Text(\"FavoriteBackyardTip.title\", bundle: .main) }"))
    }

    /// Values from the catalog end up in literals and comments, escaped: nothing they hold becomes code.
    @Test func hostileValuesStayText() throws {
        let sandbox = try PluginSandbox()
        let hostile = "evil\"); pwned(); print(\"\\(secret)\n}\nfunc pwned() {}\n// \u{202E}\u{0007}"
        let tipFile = "Catalog/tips/FavoriteBackyardTip.json"
        let tipText = try #require(sandbox.read(tipFile))
        var tip = try #require(try JSONSerialization.jsonObject(with: Data(tipText.utf8)) as? [String: Any])
        tip["comment"] = hostile
        tip["image"] = hostile
        // Texts are messages, where braces are syntax: the same attack without them.
        let hostileText = "evil\"); pwned(); print(\"\\(secret)\n\u{202E}\u{0007}"
        tip["title"] = hostileText
        tip["actions"] = [["id": "learn-more", "title": hostileText]]
        tip["rules"] = ["$mapMode == \"a\\\"b\\\\(x)\\n}\"", "#viewed-food-detail.where(name == \"*/ }\").count > 1"]
        try sandbox.write(tipFile, String(decoding: try JSONSerialization.data(withJSONObject: tip, options: [.sortedKeys]), as: UTF8.self))
        let parametersText = try #require(sandbox.read("Catalog/parameters.json"))
        var parameters = try #require(try JSONSerialization.jsonObject(with: Data(parametersText.utf8)) as? [String: Any])
        var list = try #require(parameters["parameters"] as? [[String: Any]])
        list[3]["default"] = hostile
        list[3]["description"] = hostile
        parameters["parameters"] = list
        try sandbox.write("Catalog/parameters.json", String(decoding: try JSONSerialization.data(withJSONObject: parameters), as: UTF8.self))
        let validate = sandbox.run("validate", "--catalog", sandbox.catalog)
        #expect(validate.status == .success, "\(validate.all)")
        for generator in ["swift", "tipkit"] {
            let run = sandbox.run("generate", generator, "--catalog", sandbox.catalog, "-o", sandbox.root + "/" + generator)
            #expect(run.status == .success, "\(run.all)")
            let name = generator == "swift" ? "TipCatalog.swift" : "TipCatalog+TipKit.swift"
            let file = sandbox.root + "/" + generator + "/" + name
            let parse = try swiftcParse(file)
            #expect(parse.status == 0, "\(parse.output)")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            // Outside comments and string literals, no line says `pwned`.
            for line in text.split(separator: "\n") where line.contains("pwned") {
                #expect(!codeOutsideLiterals(String(line)).contains("pwned"), "\(line)")
            }
            #expect(!text.contains("\u{202E}"))
            #expect(!text.contains("\u{0007}"))
        }
        let tipKit = try String(contentsOfFile: sandbox.root + "/tipkit/TipCatalog+TipKit.swift", encoding: .utf8)
        #expect(tipKit.contains("#Rule(TipCatalog.Parameters.$mapMode) { $0 == \"a\\\"b\\\\(x)\\n}\" },"))
        #expect(tipKit.contains("#Rule(TipCatalog.Events.viewedFoodDetail) { $0.donations.filter { $0.name == \"*/ }\" }.count > 1 },"))
        #expect(tipKit.contains("/// evil\"); pwned(); print(\"\\(secret) } func pwned() {} //"))
    }

    /// Ids and names that are Swift keywords, start with a digit, hold dots and dashes or collide: the engine
    /// accessors type-check against the built modules, the TipKit file parses.
    @Test func awkwardNamesMakeValidSwift() throws {
        let sandbox = try PluginSandbox()
        func edit(_ file: String, _ change: (inout [String: Any]) -> Void) throws {
            let text = try #require(sandbox.read(file))
            var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            change(&object)
            try sandbox.write(file, String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
        }
        try edit("Catalog/parameters.json") { object in
            var list = object["parameters"] as? [[String: Any]] ?? []
            list.append(["name": "class", "type": "bool", "default": false, "lifetime": "persistent"])
            list.append(["name": "default", "type": "list<int>", "default": [1, 2], "lifetime": "transient"])
            object["parameters"] = list
        }
        try edit("Catalog/events.json") { object in
            var list = object["events"] as? [[String: Any]] ?? []
            list.append(["id": "for-each", "fields": ["default": "int", "at": "date", "self": "string"]])
            list.append(["id": "launch-2nd"])
            object["events"] = list
        }
        try sandbox.write("Catalog/tips/for.json", """
            {"id": "for", "title": "For", "message": "Hi {where.default}", "parameters": {"where": {"default": "string", "self": "int?"}},
             "rules": ["$class", "$default.count > 1 && #for-each.where(default == 3).count >= 1", "#launch-2nd.count >= 1"]}
            """)
        try sandbox.write("Catalog/tips/For.Tip.json", #"{"id": "For.Tip", "title": "For {title}", "parameters": {"title": "string", "id": "int"}}"#)
        try sandbox.write("Catalog/tips/Tips.json", #"{"id": "Tips", "title": "Tips"}"#)
        try sandbox.write("Catalog/tips/TipCatalog.json", #"{"id": "TipCatalog", "title": "Catalog"}"#)
        let validate = sandbox.run("validate", "--catalog", sandbox.catalog, "--no-plugins")
        #expect(validate.status == .success, "\(validate.all)")
        for generator in ["swift", "tipkit"] {
            let run = sandbox.run("generate", generator, "--catalog", sandbox.catalog, "-o", sandbox.root + "/out")
            #expect(run.status == .success, "\(run.all)")
        }
        let modules = repositoryRoot + "/.build/debug/Modules"
        try #require(FileManager.default.fileExists(atPath: modules + "/TipcatEngine.swiftmodule"), "build the package first")
        // As SwiftPM compiles an app that depends on TipcatEngine: its modules, and the module maps of the C
        // targets below them.
        let cModules = ["CByteScan"].flatMap { ["-Xcc", "-fmodule-map-file=\(repositoryRoot)/.build/debug/\($0).build/module.modulemap"] }
        let typecheck = try swiftc(["-typecheck", "-I", modules] + cModules + [sandbox.root + "/out/TipCatalog.swift"])
        #expect(typecheck.status == 0, "\(typecheck.output)")
        let parse = try swiftcParse(sandbox.root + "/out/TipCatalog+TipKit.swift")
        #expect(parse.status == 0, "\(parse.output)")
        let engine = try #require(sandbox.read("out/TipCatalog.swift"))
        for expected in [
            "        public static let `for`: TipID = \"for\"",
            "        public static let forTip: TipID = \"For.Tip\"",
            "        public static let `class`: ParameterName = \"class\"",
            "        public static let launch2nd: EventID = \"launch-2nd\"",
            "    public func donateForEach(at2: Timestamp, `default`: Int, self_: String, at date: Timestamp? = nil) throws(TipEngineError) {",
            "    public func registerFor(`where`: TipCatalog.ForWhere) throws(TipEngineError) -> TipInstanceID {",
        ] {
            #expect(engine.contains(expected + "\n"), "\(expected)")
        }
        let tipKit = try #require(sandbox.read("out/TipCatalog+TipKit.swift"))
        for expected in [
            "            #Rule(TipCatalog.Parameters.$class) { $0 == true },",
            "            #Rule(TipCatalog.Events.forEach) { $0.donations.filter { $0.`default` == 3 }.count >= 1 },",
            "struct Tips_: Tip {", "struct TipCatalog2: Tip {", "struct For: Tip {", "    var `where`: Where",
            "    var title2: String", "    var id2: Int",
            "    var title: Text { Text(verbatim: TipCatalog.fill(String(localized: \"For.Tip.title\", bundle: .main), [\"title\": \"\\(title2)\"])) }",
        ] {
            #expect(tipKit.contains(expected + "\n"), "\(expected)")
        }
    }

    @Test func checkSummarizesDifferences() throws {
        let sandbox = try PluginSandbox()
        let out = sandbox.root + "/gen"
        #expect(sandbox.run("generate", "tipkit", "--catalog", sandbox.catalog, "-o", out).status == .success)
        #expect(sandbox.run("generate", "tipkit", "--catalog", sandbox.catalog, "-o", out, "--check").status == .success)
        let option = try #require(sandbox.read("Catalog/tips/OptionTip.json"))
        try sandbox.write("Catalog/tips/OptionTip.json", option.replacingOccurrences(of: "\"maxDisplayCount\": 1,", with: ""))
        let stale = sandbox.run("generate", "tipkit", "--catalog", sandbox.catalog, "-o", out, "--check")
        #expect(stale.status == .failure)
        #expect(stale.stdout == "differs: \(out)/TipCatalog+TipKit.swift (+1 -1 lines)\n")
        #expect(stale.stderr.contains("error: 1 of 1 file out of date; run 'tipcat generate tipkit --catalog"))
        #expect(sandbox.run("generate", "swift", "--catalog", sandbox.catalog, "-o", out + "/s", "--check").stdout
            == "missing: \(out)/s/TipCatalog.swift\n")
    }

    @Test func optionsAreChecked() throws {
        let sandbox = try PluginSandbox()
        let out = sandbox.root + "/gen"
        let named = sandbox.run("generate", "swift", "--catalog", sandbox.catalog, "-o", out, "--option", "namespace=TrailTips", "--option", "access=internal")
        #expect(named.status == .success, "\(named.all)")
        let text = try #require(sandbox.read("gen/TrailTips.swift"))
        #expect(text.contains("internal enum TrailTips {"))
        #expect(text.contains("    internal mutating func setIsLoggedIn(_ value: Bool) throws(TipEngineError) {"))
        for (option, message) in [
            ("namespace=class", "option 'namespace' is a Swift type name (letters, digits, _), such as TipCatalog"),
            ("namespace=a b", "option 'namespace' is a Swift type name (letters, digits, _), such as TipCatalog"),
            ("access=open", "option 'access' is public or internal"),
        ] {
            let bad = sandbox.run("generate", "swift", "--catalog", sandbox.catalog, "-o", out, "--option", option)
            #expect(bad.status == .failure)
            #expect(bad.stderr.contains(message), "\(bad.stderr)")
            #expect(bad.stderr.hasSuffix("error: nothing was generated\n"))
        }
        let bundle = sandbox.run("generate", "tipkit", "--catalog", sandbox.catalog, "-o", out, "--option", "bundle=elsewhere")
        #expect(bundle.stderr.contains("option 'bundle' is main or module"))
        let module = sandbox.run("generate", "tipkit", "--catalog", sandbox.catalog, "-o", out, "--option", "bundle=module")
        #expect(module.status == .success)
        #expect(sandbox.read("gen/TipCatalog+TipKit.swift")?.contains("Text(\"HighlightTip.title\", bundle: .module)") == true)
    }
}

/// A line of Swift without its string literals and its `//` comment (escapes inside literals respected).
func codeOutsideLiterals(_ line: String) -> String {
    var code = ""
    var inString = false
    var escaped = false
    var previous: Character = " "
    for character in line {
        if inString {
            if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
            continue
        }
        if character == "/", previous == "/" {
            code.removeLast()
            break
        }
        if character == "\"" { inString = true } else { code.append(character) }
        previous = character
    }
    return code
}

/// `swiftc -parse FILE`: status and output.
func swiftcParse(_ file: String) throws -> (status: Int32, output: String) { try swiftc(["-parse", file]) }

/// `swiftc ARGUMENTS`: status and output.
func swiftc(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swiftc"] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
