import Foundation
import Testing
import TipcatTestSupport

/// Every command, given a hostile value in each input it echoes, prints no byte a terminal would interpret.
@Suite struct HostileOutputTests {
    /// Clears the screen, writes the clipboard (OSC 52), rings the bell, opens an 8-bit CSI, a C1 NEL, reverses
    /// text direction, opens an isolate, returns the carriage. "aGk=" is what every echo of it still shows.
    static let hostile = "\u{1B}[2J\u{1B}]52;c;aGk=\u{07}\u{9B}1m\u{85}\u{202E}txt\u{2066}\r"
    /// The same, as a JSON string's escapes.
    static let hostileJSON = "\\u001b[2J\\u001b]52;c;aGk=\\u0007\\u009b1m\\u0085\\u202etxt\\u2066\\r"
    static let marker = "aGk"

    /// Scalars a terminal interprets: C0 controls but LF, DEL, C1, bidi embeddings, overrides and isolates.
    static func controls(in text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: false
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    /// `text` without SGR sequences (`ESC [ … m`), which an ANSI style writes on purpose.
    static func withoutSGR(_ text: String) -> String {
        var result = ""
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.first {
            if scalar == "\u{1B}", scalars.dropFirst().first == "[" {
                let rest = scalars.dropFirst(2)
                if let end = rest.firstIndex(where: { !("0"..."9").contains($0) && $0 != ";" }), rest[end] == "m" {
                    scalars = scalars[(end + 1)...]
                    continue
                }
            }
            result.unicodeScalars.append(scalar)
            scalars = scalars.dropFirst()
        }
        return result
    }

    @Test func noCommandPrintsAControlFromItsInput() throws {
        let scratch = try TemporaryDirectory()
        let h = Self.hostile
        // A valid catalog whose text and rules carry the hostile value.
        let catalog = try scratch.sampleCatalog()
        try scratch.edit("Catalog/tips/ShowLocationTip.json", replacing: "\"title\": \"Show your location\"",
                         with: "\"title\": \"Show \(Self.hostileJSON)\"")
        let ruleLiteral = Self.hostileJSON.replacingOccurrences(of: "\\", with: "\\\\")
        try scratch.edit("Catalog/tips/RotateMapTip.json", replacing: "$mapMode == \\\"hybrid\\\"",
                         with: "$mapMode == \\\"\(ruleLiteral)\\\"")
        // A broken catalog: a hostile file name, and an unknown key that quotes the value and tries to start
        // workflow commands and diagnostic lines of its own.
        try FileManager.default.copyItem(atPath: catalog, toPath: scratch.file("Broken"))
        try scratch.write("Broken/tips/Evil\(h).json", "{\"id\": \"Evil\", \"title\": \"x\", \"message\": \"y\"}\n")
        try scratch.edit("Broken/tips/InlineTip.json", replacing: "{",
                         with: "{\"k\(Self.hostileJSON)\\n::error file=x::pwned\\n\(catalog)/x.json:1:1: error: fake [x]\": 1,")
        // A style whose description is hostile.
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Templates", toPath: scratch.file("Templates"))
        try FileManager.default.copyItem(atPath: scratch.file("Templates/plain"), toPath: scratch.file("Templates/evil"))
        try scratch.write("Templates/evil/style.json", """
            {"name": "evil", "description": "Evil \(Self.hostileJSON)", "output": "text", "escaper": "terminal"}
            """)
        let store = scratch.file(".tipcat/store.sqlite")
        let state = scratch.file("state.sqlite")
        let source = ["--store", store, "--state", state]
        let environment = ["TIPCAT_NOW": "2026-01-05T08:00:00Z"]

        var runs: [(label: String, result: RunResult, echoes: Bool, sgr: Bool)] = []
        func run(_ label: String, _ arguments: [String], echoes: Bool = true, sgr: Bool = false) {
            runs.append((label, tipcat(arguments, environment: environment), echoes, sgr))
        }

        run("publish -m --author", ["publish", "--catalog", catalog, "--store", store, "-m", "m\(h)", "--author", "a\(h)"])
        try scratch.edit("Catalog/tips/ShowLocationTip.json", replacing: "\"message\": \"", with: "\"message\": \"\(Self.hostileJSON) ")
        run("publish again", ["publish", "--catalog", catalog, "--store", store, "-m", "second \(h)", "--author", "a\(h)"])
        for format in ["text", "github", "json"] {
            run("validate --format \(format)", ["validate", "--catalog", scratch.file("Broken"), "--format", format, "--no-plugins"])
        }
        run("validate a bad catalog path", ["validate", "--catalog", scratch.file("no\(h)where")])
        run("list", ["list", "--catalog", catalog])
        run("list --json", ["list", "--catalog", catalog, "--json"])
        for style in ["plain", "markdown", "evil"] {
            run("render --style \(style)", ["render", "ShowLocationTip", "--catalog", catalog, "--templates", scratch.file("Templates"), "--style", style])
        }
        run("render --style ansi", ["render", "ShowLocationTip", "--catalog", catalog, "--style", "ansi", "--color", "always"], sgr: true)
        run("render an unknown tip", ["render", "Nope\(h)", "--catalog", catalog])
        run("render --param", ["render", "NewTrailTip", "--catalog", catalog, "--param", "trail.name=\(h)", "--param", "trail.id=x",
                               "--param", "trail.region=r"])
        run("styles", ["styles", "--templates", scratch.file("Templates")])
        run("template cat", ["template", "cat", "evil\(h)", "--templates", scratch.file("Templates")])
        run("strings status", ["strings", "status", "--catalog", catalog], echoes: false)
        run("strings export", ["strings", "export", "--locale", "xx\(h)", "--catalog", catalog, "-o", scratch.file("out")])
        run("versions", ["versions", "--store", store])
        run("versions --json", ["versions", "--store", store, "--json"])
        run("show-version", ["show-version", "2", "--store", store])
        run("show-version --json", ["show-version", "2", "--store", store, "--json"])
        run("diff", ["diff", "1", "2", "--store", store])
        run("diff --json", ["diff", "1", "2", "--store", store, "--json"])
        run("diff working", ["diff", "1", "working", "--store", store, "--catalog", catalog])
        run("rollback -m --author", ["rollback", "--to", "1", "-m", "r\(h)", "--author", "a\(h)", "--store", store], echoes: false)
        run("promote", ["promote", "production", "b\(h)", "--store", store])
        run("export -o -", ["export", "-o", "-", "--store", store])
        let bundle = scratch.file("b\(h).json")
        run("export -o", ["export", "-o", bundle, "--store", store])
        run("generate", ["generate", "g\(h)", "--catalog", catalog])
        run("plugins describe", ["plugins", "describe", "p\(h)", "--catalog", catalog])
        run("plural", ["plural", "en", "1\(h)"])
        run("plural locale", ["plural", "e\(h)", "1"])
        run("completions", ["completions", "sh\(h)"])
        run("unknown command", ["cmd\(h)"])
        run("init", ["init", scratch.file("new\(h)")])
        // The engine.
        run("engine set", ["engine", "set", "mapMode", h] + source)
        run("engine donate", ["engine", "donate", "visited-region", "region=\(h)"] + source)
        run("engine status", ["engine", "status"] + source, echoes: false)
        run("engine status --bundle", ["engine", "status", "--bundle", bundle, "--state", state])
        run("engine why", ["engine", "why", "RotateMapTip"] + source)
        run("engine why unknown", ["engine", "why", "Nope\(h)"] + source)
        run("engine show", ["engine", "show", "ShowLocationTip"] + source)
        run("engine show --style ansi", ["engine", "show", "ShowLocationTip", "--style", "ansi", "--color", "always"] + source, sgr: true)
        run("engine displayed --param", ["engine", "displayed", "NewTrailTip", "--param", "trail.id=\(h)", "--param", "trail.name=n",
                                         "--param", "trail.region=r"] + source)
        run("engine hidden", ["engine", "hidden", "ShowLocationTip"] + source, echoes: false)
        run("engine next --group", ["engine", "next", "--group", "g\(h)"] + source)
        run("engine invalidate", ["engine", "invalidate", "ShowLocationTip", "--reason", "r\(h)"] + source)
        let script = scratch.file("s.tipsim")
        try "at 2026-01-05T08:00\nset mapMode \"\(Self.hostileJSON)\"\nexpect explain RotateMapTip \"aGk=\"\ndonate visited-region region=\"\(Self.hostileJSON)\"\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        run("engine simulate", ["engine", "simulate", script] + source)
        try "at 2026-01-05T08:00\nbogus \(h)\n".write(toFile: scratch.file("bad.tipsim"), atomically: true, encoding: .utf8)
        run("engine simulate, a bad line", ["engine", "simulate", scratch.file("bad.tipsim")] + source, echoes: false)
        run("engine reset", ["engine", "reset"] + ["--store", store, "--state", scratch.file("st\(h)/state.sqlite")])
        run("versions after rollback", ["versions", "--store", store])

        for (label, result, echoes, sgr) in runs {
            for (stream, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
                let checked = sgr && stream == "stdout" ? Self.withoutSGR(text) : text
                #expect(Self.controls(in: checked).isEmpty, "\(label): \(stream) has \(Self.controls(in: checked)):\n\(text)")
            }
            if echoes {
                #expect((result.stdout + result.stderr).contains(Self.marker), "\(label) does not show the value:\n\(result.stdout)\(result.stderr)")
            }
        }
        // Quoted input never starts a line of its own: no forged workflow command or finding.
        for (label, result, _, _) in runs where label.hasPrefix("validate --format") {
            let lines = result.stdout.split(separator: "\n")
            #expect(!lines.contains { $0.hasPrefix("::error file=x") }, "\(label):\n\(result.stdout)")
            #expect(!lines.contains { $0.hasPrefix("\(catalog)/x.json") }, "\(label):\n\(result.stdout)")
        }
        // JSON output keeps the value: the controls are escaped, not dropped.
        let json = try #require(runs.first { $0.label == "list --json" }?.result.stdout)
        #expect(json.contains("Show \\u001b[2J\\u001b]52;c;aGk=\\u0007\\u009b1m\\u0085\\u202etxt\\u2066\\r"), "\(json)")
    }
}
