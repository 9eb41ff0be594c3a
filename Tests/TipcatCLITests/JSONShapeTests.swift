import Foundation
import Testing
import TipcatTestSupport

/// The documented `--json` shapes of the read commands (README: "JSON output").
@Suite struct JSONShapeTests {
    func object(_ result: RunResult, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(result.status == .success, "\(result.stderr)", sourceLocation: sourceLocation)
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                            "\(result.stdout)", sourceLocation: sourceLocation)
    }

    @Test func listTipsCarryImageParametersOptionsAndActionTitles() throws {
        let list = try object(tipcat("list", "--catalog", sampleCatalogPath, "--json"))
        #expect(Set(list.keys) == ["name", "sourceLanguage", "supportedLocales", "displayFrequency", "enabled", "tips", "groups", "events", "parameters"])
        let tips = try #require(list["tips"] as? [[String: Any]])
        let option = try #require(tips.first { $0["id"] as? String == "OptionTip" })
        #expect(Set(option.keys) == ["id", "title", "message", "image", "rules", "parameters", "options", "actions", "file"])
        #expect(option["image"] as? String == "ellipsis.circle")
        let options = try #require(option["options"] as? [String: Any])
        #expect(options["maxDisplayCount"] as? Int == 1)
        #expect(options["maxDisplayDuration"] as? Int == 300)
        #expect(options["ignoresDisplayFrequency"] as? Bool == true)
        let password = try #require(tips.first { $0["id"] as? String == "PasswordResetTip" })
        let actions = try #require(password["actions"] as? [[String: String]])
        #expect(actions == [["id": "reset-password", "title": "Reset Password"], ["id": "faq", "title": "View our FAQ"]])
        #expect((password["options"] as? [String: Any])?["maxDisplayCount"] is NSNull)
        let newTrail = try #require(tips.first { $0["id"] as? String == "NewTrailTip" })
        #expect(newTrail["parameters"] as? [[String: String]] == [["name": "trail", "type": "{id: string, name: string, region: string}"]])
        #expect(newTrail["group"] == nil)
        #expect(try #require(tips.first { $0["id"] as? String == "ShowLocationTip" })["group"] as? String == "compass")
    }

    @Test func pluralJSON() throws {
        let plural = try object(tipcat("plural", "fr", "1", "1.5", "2", "--json"))
        #expect(Set(plural.keys) == ["locale", "hasRules", "numbers"])
        #expect(plural["locale"] as? String == "fr")
        #expect(plural["hasRules"] as? Bool == true)
        #expect(plural["numbers"] as? [[String: String]] == [
            ["number": "1", "category": "one"], ["number": "1.5", "category": "one"], ["number": "2", "category": "other"],
        ])
    }

    @Test func stylesJSON() throws {
        let styles = try object(tipcat("styles", "--templates", repositoryRoot + "/Templates", "--json"))
        #expect(Set(styles.keys) == ["styles", "problems"])
        let list = try #require(styles["styles"] as? [[String: String]])
        #expect(list.map { $0["name"] } == ["ansi", "html", "markdown", "plain"])
        #expect(list.first == ["name": "ansi", "output": "ansi", "escaper": "terminal",
                               "description": "A bordered card like a TipKit popover: icon label, bold title, wrapped message, actions as buttons; colours by role.",
                               "origin": repositoryRoot + "/Templates/ansi"])
        #expect((styles["problems"] as? [Any])?.isEmpty == true)
    }

    @Test func renderJSON() throws {
        let render = try object(tipcat("render", "ShowLocationTip", "InlineTip", "--catalog", sampleCatalogPath, "--json"))
        #expect(Set(render.keys) == ["style", "output", "locale", "tips"])
        #expect(render["style"] as? String == "plain" && render["output"] as? String == "text" && render["locale"] as? String == "en")
        let tips = try #require(render["tips"] as? [[String: String]])
        #expect(tips.map { $0["id"] } == ["ShowLocationTip", "InlineTip"])
        #expect(tips.first?["text"] == tipcat("render", "ShowLocationTip", "--catalog", sampleCatalogPath).stdout)
        let watch = tipcat("render", "--all", "--watch", "--json", "--catalog", sampleCatalogPath)
        #expect(watch.status == .usage)
        #expect(watch.stderr.hasPrefix("Error: --json prints one rendering; it cannot be used with --watch\n"))
    }

    @Test func templateJSON() throws {
        let template = try object(tipcat("template", "which", "plain", "--templates", repositoryRoot + "/Templates", "--json"))
        #expect(Set(template.keys) == ["style", "path", "source"])
        #expect(template["path"] as? String == repositoryRoot + "/Templates/plain/tip.mustache")
        #expect(template["source"] as? String == (try String(contentsOfFile: repositoryRoot + "/Templates/plain/tip.mustache", encoding: .utf8)))
    }
}
