import Foundation
import Testing
@testable import TipcatCLI

/// Golden output of `validate` with plugin findings, in every format.
@Suite("validate with plugins: golden files")
struct ValidateGoldenTests {
    @Test(arguments: ["text", "json", "github"])
    func pluginFindingsAreMergedAtTheirFileLineAndColumn(format: String) throws {
        let sandbox = try PluginSandbox(plugins: [fixture("house", script: "findings.sh")])
        let run = sandbox.run("validate", "--catalog", sandbox.catalog, "--format", format)
        #expect(run.status == .failure)  // one finding is an error
        let output = run.stdout.replacingOccurrences(of: sandbox.catalog, with: "Catalog")
        let golden = pluginGoldenDirectory + "/validate-plugins.\(format)"
        if ProcessInfo.processInfo.environment["TIPCAT_RECORD_GOLDEN"] == "1" {
            try Data(output.utf8).write(to: URL(fileURLWithPath: golden))
        }
        let expected = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(output == expected, "re-record with TIPCAT_RECORD_GOLDEN=1")
    }

    @Test func strictTreatsPluginWarningsLikeBuiltInOnes() throws {
        let sandbox = try PluginSandbox(plugins: [fixture("brand", script: "findings.sh")])
        // Only warnings and notes: drop the error finding by using brand-voice's python plugin instead.
        try sandbox.setPlugins([[
            "name": "brand-voice", "command": ["python3", "plugins/brand_voice.py"], "kinds": ["lint"],
            "options": ["replace": ["tap on": "tap"]],
        ]])
        #expect(sandbox.run("validate", "--catalog", sandbox.catalog).status == .success)
        let strict = sandbox.run("validate", "--catalog", sandbox.catalog, "--strict")
        #expect(strict.status == .failure)
        #expect(strict.stdout.contains("[brand-voice/wording]"))
    }
}

@Suite("lint.json levels for plugin findings")
struct PluginLevelTests {
    private func sandbox(level: String) throws -> PluginSandbox {
        let sandbox = try PluginSandbox(plugins: [[
            "name": "brand-voice", "command": ["python3", "plugins/brand_voice.py"], "kinds": ["lint"],
            "options": ["replace": ["tap on": "tap"]],
        ]])
        try sandbox.write("Catalog/lint.json", #"{"rules": {"brand-voice/wording": "\#(level)"}}"#)
        return sandbox
    }

    @Test func aPluginRuleCanBeTurnedOff() throws {
        let sandbox = try sandbox(level: "off")
        let run = sandbox.run("validate", "--catalog", sandbox.catalog, "--strict")
        #expect(run.status == .success, "\(run.all)")
        #expect(!run.stdout.contains("brand-voice"))
    }

    @Test func aPluginRuleCanBeMadeAnError() throws {
        let sandbox = try sandbox(level: "error")
        let run = sandbox.run("validate", "--catalog", sandbox.catalog)
        #expect(run.status == .failure)
        #expect(run.stdout.contains("FoodEventTip.json:5:14: error: say 'tap', not 'tap on' (FoodEventTip) [brand-voice/wording]"))
    }
}

@Suite("plugins.json")
struct ConfigurationTests {
    @Test func everyMistakeIsLocated() throws {
        let sandbox = try PluginSandbox()
        try sandbox.write("Catalog/plugins.json", """
            {"plugins": [
              {"name": "Bad Name", "kinds": ["lint"]},
              {"name": "a", "kinds": ["lint", "style", "lnt"], "timeout": "forever", "comand": ["x"]},
              {"name": "b", "command": [], "kinds": ["generate"], "options": 3},
              {"name": "c", "kinds": ["lint"]},
              {"name": "c", "kinds": ["lint"]},
              {"name": "d", "kinds": ["lint"], "enabled": "yes"}
            ], "plugin": 1}
            """)
        let run = sandbox.run("validate", "--catalog", sandbox.catalog, "--format", "json")
        #expect(run.status == .failure)
        for expected in [
            "plugin name 'Bad Name' must be kebab-case", "lists 'style'", "lists 'lnt'", "did you mean 'lint'",
            "'timeout' of plugin 'a' must be a duration", "unknown key 'comand' in a plugin", "did you mean 'command'",
            "'command' of plugin 'b' must be a non-empty array", "'options' of plugin 'b' must be an object",
            "plugin 'c' is declared twice", "'enabled' of plugin 'd' must be true or false", "unknown key 'plugin' in plugins.json",
        ] {
            #expect(run.stdout.contains(expected), "\(expected)")
        }
        #expect(run.stdout.contains("\"line\" : 3") || run.stdout.contains("\"line\": 3"))
    }

    @Test func invalidJSONIsLocated() throws {
        let sandbox = try PluginSandbox()
        try sandbox.write("Catalog/plugins.json", "{\"plugins\": [}")
        let run = sandbox.run("validate", "--catalog", sandbox.catalog)
        #expect(run.status == .failure)
        #expect(run.stdout.contains("plugins.json:1:"))
        #expect(run.stdout.contains("[invalid-json]"))
    }

    @Test func disabledPluginsDoNotRun() throws {
        var entry = fixture("grumpy", script: "exit3.sh")
        entry["enabled"] = false
        let sandbox = try PluginSandbox(plugins: [entry])
        #expect(sandbox.run("validate", "--catalog", sandbox.catalog).status == .success)
    }
}

@Suite("tipcat generate")
struct GenerateTests {
    @Test func builtInDocsGeneratorWritesAndChecks() throws {
        let sandbox = try PluginSandbox()
        let out = sandbox.root + "/docs"
        let check = sandbox.run("generate", "docs", "--catalog", sandbox.catalog, "-o", out, "--check")
        #expect(check.status == .failure)
        #expect(check.stdout.contains("missing: \(out)/index.md"))
        #expect(!sandbox.exists("docs"), "--check writes nothing")
        let write = sandbox.run("generate", "docs", "--catalog", sandbox.catalog, "-o", out)
        #expect(write.status == .success, "\(write.all)")
        let index = try #require(sandbox.read("docs/index.md"))
        #expect(index.contains("[NewTrailTip](tips/NewTrailTip.md)"))
        #expect(sandbox.read("docs/tips/NewTrailTip.md")?.contains("| fr |") == true)
        #expect(sandbox.read("docs/tips/OptionTip.md")?.contains("shown at most 1 time") == true)
        #expect(sandbox.read("docs/tips/OptionTip.md")?.contains("1 times") == false)
        #expect(sandbox.run("generate", "docs", "--catalog", sandbox.catalog, "-o", out, "--check").status == .success)
        // An edit makes --check fail again, naming the file.
        try sandbox.write("Catalog/tips/RotateMapTip.json", try #require(sandbox.read("Catalog/tips/RotateMapTip.json"))
            .replacingOccurrences(of: "Reorient the map", with: "Turn the map north"))
        let stale = sandbox.run("generate", "docs", "--catalog", sandbox.catalog, "-o", out, "--check")
        #expect(stale.status == .failure)
        #expect(stale.stdout.contains("differs: \(out)/tips/RotateMapTip.md"))
        #expect(stale.stdout.contains("differs: \(out)/index.md"))
    }

    @Test func externalGeneratorWritesUnderTheOutputDirectory() throws {
        let sandbox = try PluginSandbox(plugins: [fixture("gen", script: "gen-ok.sh", kinds: ["generate"])])
        let run = sandbox.run("generate", "gen", "--catalog", sandbox.catalog, "-o", sandbox.root + "/out")
        #expect(run.status == .success, "\(run.all)")
        #expect(sandbox.read("out/a.txt") == "alpha\n")
        #expect(sandbox.read("out/nested/b.txt") == "beta\n")
        let again = sandbox.run("generate", "gen", "--catalog", sandbox.catalog, "-o", sandbox.root + "/out")
        #expect(again.stderr.contains("2 files, 0 changed"))
    }

    @Test func aBadPathWritesNothing() throws {
        let sandbox = try PluginSandbox(plugins: [fixture("evil", script: "bad-paths.sh", kinds: ["generate"])])
        let run = sandbox.run("generate", "evil", "--catalog", sandbox.catalog, "-o", sandbox.root + "/out")
        #expect(run.status == .failure)
        #expect(run.stderr.contains("'../escape.txt': is not a plain relative path"))
        #expect(run.stderr.contains("'/tmp/absolute.txt': is absolute"))
        #expect(run.stderr.contains("nothing was written"))
        #expect(!sandbox.exists("out"))
        #expect(!sandbox.exists("escape.txt"))
    }

    @Test func aPathThroughASymlinkWritesNothing() throws {
        let sandbox = try PluginSandbox(plugins: [fixture("gen", script: "gen-ok.sh", kinds: ["generate"])])
        try FileManager.default.createDirectory(atPath: sandbox.root + "/out", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: sandbox.root + "/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: sandbox.root + "/out/nested", withDestinationPath: sandbox.root + "/elsewhere")
        let run = sandbox.run("generate", "gen", "--catalog", sandbox.catalog, "-o", sandbox.root + "/out")
        #expect(run.status == .failure)
        #expect(run.stderr.contains("goes through the symlink"))
        #expect(!sandbox.exists("out/a.txt"))
        #expect(!sandbox.exists("elsewhere/b.txt"))
    }

    @Test func aFailingGeneratorWritesNothing() throws {
        let sandbox = try PluginSandbox(plugins: [fixture("broken", script: "exit3.sh", kinds: ["generate"])])
        let run = sandbox.run("generate", "broken", "--catalog", sandbox.catalog, "-o", sandbox.root + "/out")
        #expect(run.status == .failure)
        #expect(run.stderr.contains("plugin 'broken' exited with status 3"))
        #expect(!sandbox.exists("out"))
    }

    @Test func aDisabledGeneratorDoesNotRun() throws {
        var entry = fixture("gen", script: "gen-ok.sh", kinds: ["generate"])
        entry["enabled"] = false
        let sandbox = try PluginSandbox(plugins: [entry])
        let run = sandbox.run("generate", "gen", "--catalog", sandbox.catalog, "-o", sandbox.root + "/out")
        #expect(run.status == .failure)
        #expect(run.stderr.contains("generator 'gen' is disabled in plugins.json"))
        #expect(!sandbox.exists("out"))
    }

    @Test func theCheckHintRepeatsTheCommand() throws {
        let sandbox = try PluginSandbox()
        let run = sandbox.run("generate", "docs", "--catalog", sandbox.catalog, "-o", sandbox.root + "/d", "--check", "--option", "title=My Tips")
        #expect(run.status == .failure)
        #expect(run.stderr.contains("run 'tipcat generate docs --catalog \(sandbox.catalog) -o \(sandbox.root)/d --option 'title=My Tips''"))
    }

    @Test func unknownGeneratorSuggestsOne() throws {
        let sandbox = try PluginSandbox()
        let run = sandbox.run("generate", "doc", "--catalog", sandbox.catalog)
        #expect(run.status == .failure)
        #expect(run.stderr.contains("no generator named 'doc'; did you mean 'docs'?"))
    }

    @Test func optionsMustBeKeyValue() throws {
        let sandbox = try PluginSandbox()
        #expect(sandbox.run("generate", "docs", "--catalog", sandbox.catalog, "--option", "nokey").status == .usage)
    }

    /// The Swift plugin of this repository (tipcat-plugin-keys), found beside the test binary like beside tipcat.
    @Test func swiftPluginGeneratesKeys() throws {
        let sandbox = try PluginSandbox(plugins: [["name": "keys", "kinds": ["generate"], "options": ["enum": "TrailsKeys"]]])
        let run = sandbox.run("generate", "keys", "--catalog", sandbox.catalog, "-o", sandbox.root + "/gen")
        #expect(run.status == .success, "\(run.all)")
        let swift = try #require(sandbox.read("gen/TrailsKeys.swift"))
        #expect(swift.contains("public enum TrailsKeys {"))
        #expect(swift.contains("public static let enteredBackyardDetailView = \"entered-backyard-detail-view\""))
        #expect(swift.contains("public static let newTrailTipTitle = \"NewTrailTip.title\""))
    }
}

@Suite("publish hooks")
struct PublishHookTests {
    @Test func aPrePublishVetoStoresNothing() throws {
        let sandbox = try PluginSandbox(plugins: [fixture("freeze", script: "veto.sh", kinds: ["pre-publish"])])
        sandbox.environment["HOOK_OUT"] = sandbox.root + "/pre.json"
        let store = sandbox.root + "/store.sqlite"
        let run = sandbox.run("publish", "--catalog", sandbox.catalog, "--store", store, "--author", "T", "-m", "first")
        #expect(run.status == .failure)
        #expect(run.stderr.contains("catalog.json:3:11: error: production is frozen this week [freeze/freeze]"))
        #expect(run.stderr.contains("a pre-publish hook vetoed the publish"))
        let versions = sandbox.run("versions", "--store", store, "--json")
        #expect(!versions.stdout.contains("\"number\""))
        let told = try #require(sandbox.read("pre.json"))
        #expect(told.contains("\"kind\":\"pre-publish\""))
        #expect(told.contains("\"version\":1"))
        #expect(told.contains("\"author\":\"T\""))
        #expect(told.contains("\"message\":\"first\""))
        // --no-plugins publishes anyway.
        #expect(sandbox.run("publish", "--catalog", sandbox.catalog, "--store", store, "--no-plugins").status == .success)
    }

    @Test func dryRunRunsOnlyPrePublish() throws {
        let sandbox = try PluginSandbox(plugins: [
            fixture("freeze", script: "veto.sh", kinds: ["pre-publish"]), fixture("notify", script: "notify.sh", kinds: ["post-publish"]),
        ])
        sandbox.environment["HOOK_OUT"] = sandbox.root + "/hook.json"
        let run = sandbox.run("publish", "--catalog", sandbox.catalog, "--store", sandbox.root + "/store.sqlite", "--dry-run")
        #expect(run.status == .failure)
        let told = try #require(sandbox.read("hook.json"))
        #expect(told.contains("\"dryRun\":true"))
        #expect(told.contains("\"kind\":\"pre-publish\""))
        #expect(!sandbox.exists("store.sqlite"))
    }

    @Test func aFailingPostPublishHookIsAWarningAndTheVersionStays() throws {
        let sandbox = try PluginSandbox(plugins: [fixture("notify", script: "notify.sh", kinds: ["post-publish"])])
        sandbox.environment["HOOK_OUT"] = sandbox.root + "/post.json"
        let store = sandbox.root + "/store.sqlite"
        let run = sandbox.run("publish", "--catalog", sandbox.catalog, "--store", store, "--author", "Ann", "-m", "hello")
        #expect(run.status == .success, "\(run.all)")
        #expect(run.stdout.contains("Published version 1"))
        #expect(run.stderr.contains("warning: plugin 'notify' exited with status 2; its stderr ends: webhook unreachable [post-publish-failed]"))
        #expect(run.stderr.contains("version 1 stays published"))
        let told = try #require(sandbox.read("post.json"))
        for part in ["\"kind\":\"post-publish\"", "\"version\":1", "\"channel\":\"production\"", "\"author\":\"Ann\"",
                     "\"message\":\"hello\"", "\"contentHash\":\"", "\"tipsAdded\":[\""] {
            #expect(told.contains(part), "\(part)")
        }
        #expect(sandbox.run("versions", "--store", store).stdout.contains("hello"))
    }
}

@Suite("tipcat plugins")
struct PluginsCommandTests {
    @Test func listShowsEveryKindAndOrigin() throws {
        let sandbox = try PluginSandbox(plugins: [fixture("gen", script: "gen-ok.sh", kinds: ["generate"])])
        // An external command (git style): tipcat-hello on PATH.
        try sandbox.write("bin/tipcat-hello", "#!/bin/sh\necho hello\n")
        chmod(sandbox.root + "/bin/tipcat-hello", 0o755)
        sandbox.environment["PATH"] = sandbox.root + "/bin:" + (sandbox.environment["PATH"] ?? "")
        let run = sandbox.run("plugins", "list", "--catalog", sandbox.catalog, "--templates", pluginRepositoryRoot + "/Templates", "--json")
        #expect(run.status == .success)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let plugins = try #require(json["plugins"] as? [[String: Any]])
        let byName = Dictionary(plugins.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byName["tipcat-lint"]?["origin"] as? String == "built-in")
        #expect(byName["docs"]?["kinds"] as? [String] == ["generate"])
        #expect(byName["ansi"]?["kinds"] as? [String] == ["style"])
        #expect(byName["gen"]?["origin"] as? String == "external")
        #expect(byName["hello"]?["origin"] as? String == "command")
        #expect(byName["hello"]?["path"] as? String == sandbox.root + "/bin/tipcat-hello")
        let text = sandbox.run("plugins", "list", "--catalog", sandbox.catalog)
        #expect(text.stdout.hasPrefix("NAME"))
    }

    @Test func describeAsksTheExternalPlugin() throws {
        let sandbox = try PluginSandbox(plugins: [[
            "name": "brand-voice", "command": ["python3", "plugins/brand_voice.py"], "kinds": ["lint"],
        ]])
        let run = sandbox.run("plugins", "describe", "brand-voice", "--catalog", sandbox.catalog, "--json")
        #expect(run.status == .success, "\(run.all)")
        #expect(run.stdout.contains("\"version\" : \"1.0.0\"") || run.stdout.contains("\"version\": \"1.0.0\""))
        let unknown = sandbox.run("plugins", "describe", "brand-vioce", "--catalog", sandbox.catalog)
        #expect(unknown.status == .failure)
        #expect(unknown.stderr.contains("did you mean 'brand-voice'?"))
    }

    @Test func checkReportsEveryProblem() throws {
        let sandbox = try PluginSandbox(plugins: [
            ["name": "brand-voice", "command": ["python3", "plugins/brand_voice.py"], "kinds": ["lint", "generate"]],
            ["name": "ghost", "kinds": ["lint"]],
            fixture("grumpy", script: "exit3.sh"),
        ])
        let run = sandbox.run("plugins", "check", "--catalog", sandbox.catalog)
        #expect(run.status == .failure)
        #expect(run.stdout.contains("gives plugin 'brand-voice' the kinds generate, but it describes itself as doing lint"))
        #expect(run.stdout.contains("no executable 'tipcat-plugin-ghost' is on PATH [plugin-not-found]"))
        #expect(run.stdout.contains("plugin 'grumpy' exited with status 3"))
        let good = try PluginSandbox(plugins: [["name": "brand-voice", "command": ["python3", "plugins/brand_voice.py"], "kinds": ["lint"]]])
        let ok = good.run("plugins", "check", "--catalog", good.catalog)
        #expect(ok.status == .success, "\(ok.all)")
        #expect(ok.stdout.contains("ok  brand-voice 1.0.0 (lint)"))
    }
}
