import Foundation
import Testing
@testable import TipcatCLI
import TipcatTestSupport

/// `tipcat render`, `styles` and `template`: colours, widths, locales, parameters, styles and bad input.
@Suite struct RenderCommandTests {
    func render(_ arguments: String..., environment: [String: String] = [:], terminal: Bool = false, columns: Int? = nil) -> RunResult {
        let out = CapturedOutput(isTerminal: terminal)
        let err = CapturedOutput()
        let context = CommandContext(stdout: out, stderr: err, environment: environment, terminalColumns: columns)
        let status = TipcatCommand.run(["render", "--catalog", sampleCatalogPath, "--templates", repositoryRoot + "/Templates"] + arguments, context: context)
        return RunResult(status: status, stdout: out.text, stderr: err.text)
    }

    @Test func noColorMeansNoEscapeByte() {
        let result = render("ShowLocationTip", "--style", "ansi", environment: ["NO_COLOR": "1"], terminal: true)
        #expect(result.status == .success)
        #expect(result.stdout.contains("Show your location"))
        #expect(!result.stdout.contains("\u{1B}"))
    }

    @Test func colorAlwaysHasEscapes() {
        let result = render("ShowLocationTip", "--style", "ansi", "--color", "always")
        #expect(result.stdout.contains("\u{1B}["))
    }

    @Test func pipedOutputHasNoEscapes() {
        let result = render("ShowLocationTip", "--style", "ansi", terminal: false)
        #expect(!result.stdout.contains("\u{1B}"))
        let forced = render("ShowLocationTip", "--style", "ansi", environment: ["FORCE_COLOR": "1"], terminal: false)
        #expect(forced.stdout.contains("\u{1B}["))
        let overridden = render("ShowLocationTip", "--style", "ansi", "--color", "never", environment: ["FORCE_COLOR": "1"], terminal: true)
        #expect(!overridden.stdout.contains("\u{1B}"))
    }

    @Test(arguments: ["en", "ja"])
    func columns40Fits(_ locale: String) {
        for style in ["ansi", "plain"] {
            let result = render("--all", "--style", style, "--locale", locale, "--color", "always", environment: ["COLUMNS": "40"], terminal: true, columns: 120)
            #expect(result.status == .success, "\(result.stderr)")
            for line in result.stdout.split(separator: "\n") {
                #expect(TestWidth.columns(line) <= 40, "\(style) \(locale): \(line)")
            }
        }
    }

    @Test func controlSequencesInAParameterAreRemoved() {
        let result = render(
            "NewTrailTip", "--style", "ansi", "--color", "never",
            "--param", "trail.id=x", "--param", "trail.name=A\u{1B}]52;c;ZXZpbA==\u{07}B\u{1B}[2JC\u{9B}31mD\u{202E}E\rF",
            "--param", "trail.region=Wasatch")
        #expect(result.status == .success, "\(result.stderr)")
        // The control characters go; what followed them stays as harmless visible text.
        #expect(result.stdout.contains("A]52;c;ZXZpbA==B[2JC31mDEF is now available"), "\(result.stdout.debugDescription)")
        for scalar: Unicode.Scalar in ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}", "\r"] {
            #expect(!result.stdout.unicodeScalars.contains(scalar))
        }
    }

    @Test func customIDAndLocaleAndParameters() {
        let result = render("NewTrailTip", "--locale", "fr-CA", "--param", "trail.id=silver-lake", "--param", "trail.name=Silver Lake", "--param", "trail.region=Wasatch")
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.contains("Silver Lake"))
        #expect(result.stdout.contains("Y aller maintenant"))
    }

    @Test func paramsFile() throws {
        let directory = try TemporaryDirectory()
        try directory.write("p.json", #"{"trail": {"id": "a", "name": "From File", "region": "R"}}"#)
        let result = render("NewTrailTip", "--params-file", directory.path + "/p.json")
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.contains("From File"))
        try directory.write("bad.json", #"{"trail": 3}"#)
        let bad = render("NewTrailTip", "--params-file", directory.path + "/bad.json")
        #expect(bad.status == .failure)
        #expect(bad.stderr.contains("parameter 'trail'"))
        try directory.write("broken.json", "{\n  \"trail\": ]")
        let broken = render("NewTrailTip", "--params-file", directory.path + "/broken.json")
        #expect(broken.status == .failure)
        #expect(broken.stderr.hasPrefix(directory.path + "/broken.json:2:12: error: "), "\(broken.stderr)")
        #expect(broken.stderr.hasSuffix(" [invalid-json]\n"), "\(broken.stderr)")
        try directory.write("list.json", "[1]")
        let list = render("NewTrailTip", "--params-file", directory.path + "/list.json")
        #expect(list.stderr == directory.path + "/list.json:1:1: error: a params file must hold a JSON object of parameter values\n")
    }

    @Test func groupRendersInOrder() {
        let result = render("--group", "compass")
        let show = result.stdout.range(of: "Show your location")
        let rotate = result.stdout.range(of: "Reorient the map")
        #expect(show != nil && rotate != nil && show!.lowerBound < rotate!.lowerBound)
    }

    /// en-XA and ar-XB are not in the sample's supportedLocales, and need not be: they are derived from the
    /// source text. Parameter values are not transformed; the custom ID never is.
    @Test func pseudoLocales() {
        let accented = render("--all", "--locale", "en-xa")
        #expect(accented.status == .success, "\(accented.stderr)")
        #expect(accented.stdout.contains("[Šĥöŵ ýöûŕ ļöçáţîöñ"))
        let given = render("NewTrailTip", "--locale", "en-XA", "--style", "markdown", "--param", "trail.id=x", "--param", "trail.name=Silver Lake", "--param", "trail.region=Wasatch")
        #expect(given.stdout.contains("Silver Lake"), "\(given.stdout)")
        #expect(given.stdout.contains("Wasatch"))
        let bidi = render("ShowLocationTip", "--locale", "ar-XB")
        #expect(bidi.status == .success)
        #expect(bidi.stdout.contains("\u{200F}Show\u{200F} \u{200F}your\u{200F}"))
        let validate = tipcat("validate", "--catalog", sampleCatalogPath, "--no-plugins")
        #expect(validate.status == .success)
        #expect(!validate.stdout.contains("XA") && !validate.stdout.contains("XB"))
        // Other private-use regions are ordinary locales, unknown to the sample.
        #expect(render("ShowLocationTip", "--locale", "fr-XA").status == .success)
        #expect(render("ShowLocationTip", "--locale", "de-XB").status == .success)
        let unknown = render("ShowLocationTip", "--locale", "ko-XA")
        #expect(unknown.status == .failure)
        #expect(unknown.stderr.contains("pseudo-locales en-XA, ar-XB"))
    }

    /// `render` refuses a catalog with errors and shows no warnings, so checks that can only warn are not run; a
    /// rule `lint.json` makes an error still stops it.
    @Test func warningsDoNotStopARenderButRulesMadeErrorsDo() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        // A tip file named after another id: a `file-name-mismatch` warning.
        try FileManager.default.moveItem(atPath: catalog + "/tips/ShowLocationTip.json", toPath: catalog + "/tips/Renamed.json")
        let arguments = ["render", "ShowLocationTip", "--catalog", catalog, "--templates", repositoryRoot + "/Templates"]
        let validate = tipcat("validate", "--catalog", catalog, "--no-plugins")
        #expect(validate.stdout.contains("[file-name-mismatch]"), "\(validate.stdout)")
        let warned = tipcat(arguments)
        #expect(warned.status == .success, "\(warned.stderr)")
        #expect(warned.stdout.contains("Show your location"), "\(warned.stdout)")
        let lint = catalog + "/lint.json"
        let text = try String(contentsOfFile: lint, encoding: .utf8)
        try text.replacingOccurrences(of: #""orphan-translation": "error","#, with: #""orphan-translation": "error", "file-name-mismatch": "error","#)
            .write(toFile: lint, atomically: true, encoding: .utf8)
        let refused = tipcat(arguments)
        #expect(refused.status == .failure)
        #expect(refused.stderr.contains("[file-name-mismatch]"), "\(refused.stderr)")
    }

    /// `render` checks the translations it can show (its locale's, their fallbacks' and the source language's): a
    /// broken French translation stops a French rendering and `validate`, not a Japanese or an English one.
    @Test func aBrokenTranslationStopsOnlyTheRenderingsThatCanShowIt() throws {
        let scratch = try TemporaryDirectory()
        let catalog = try scratch.sampleCatalog()
        let path = catalog + "/Localizable.xcstrings"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let broken = text.replacingOccurrences(of: "\"Afficher votre position\"", with: "\"Afficher {votre position\"")
        #expect(broken != text)
        try broken.write(toFile: path, atomically: true, encoding: .utf8)
        func render(_ arguments: String...) -> RunResult {
            tipcat(["render", "ShowLocationTip", "--catalog", catalog, "--templates", repositoryRoot + "/Templates"] + arguments)
        }
        for locale in ["fr", "fr-CA"] {
            let refused = render("--locale", locale)
            #expect(refused.status == .failure, "\(locale): \(refused.stdout)")
            #expect(refused.stderr.contains("Localizable.xcstrings:"), "\(refused.stderr)")
        }
        #expect(tipcat("validate", "--catalog", catalog, "--no-plugins").status == .failure)
        let japanese = render("--locale", "ja")
        #expect(japanese.status == .success, "\(japanese.stderr)")
        #expect(japanese.stdout.contains("現在地を表示"), "\(japanese.stdout)")
        let english = render()
        #expect(english.status == .success, "\(english.stderr)")
        #expect(english.stdout.contains("Show your location"), "\(english.stdout)")
        // A locale the catalog does not support is still refused, by name.
        let unknown = render("--locale", "xx")
        #expect(unknown.status == .failure)
        #expect(unknown.stderr.contains("unknown locale 'xx'"), "\(unknown.stderr)")
    }

    /// `--width` takes a whole number of columns from 1 up: anything else is a usage error, not ignored.
    @Test(arguments: ["abc", "-3", "0", "1.5", "", "10001"])
    func badWidthIsAUsageError(_ width: String) {
        let result = render("ShowLocationTip", "--width", width)
        #expect(result.status == .usage, "\(result.stdout)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--width takes a number of columns from 1 to 10000, not '\(width)'"), "\(result.stderr)")
        #expect(render("ShowLocationTip", "--width", "1").status == .success)
    }

    /// A style whose `tip.mustache` or partial is a FIFO without a writer: `render` refuses it at once instead
    /// of waiting (run as a child process, killed after 20 s).
    @Test func fifoTemplateAndPartialDoNotHang() throws {
        let directory = try TemporaryDirectory()
        try directory.write("Templates/piped/style.json", #"{"name": "piped", "description": "d", "output": "text", "escaper": "terminal"}"#)
        try directory.write("Templates/piped/tip.mustache", "{{title}}\n{{>pipe}}\n")
        #expect(mkfifo(directory.file("Templates/piped/pipe.mustache"), 0o644) == 0)
        try directory.write("Templates/fifo/style.json", #"{"name": "fifo", "description": "d", "output": "text", "escaper": "terminal"}"#)
        #expect(mkfifo(directory.file("Templates/fifo/tip.mustache"), 0o644) == 0)
        let templates = directory.file("Templates")
        let partial = try tipcatProcess(["render", "ShowLocationTip", "--style", "piped", "--catalog", sampleCatalogPath, "--templates", templates], timeout: 20)
        let partialResult = try #require(partial.result, "render was still waiting after \(partial.seconds) s")
        #expect(partial.seconds < 5)
        #expect(partialResult.status == .failure)
        #expect(partialResult.stderr.contains("pipe.mustache: not a regular file"), "\(partialResult.stderr)")
        let main = try tipcatProcess(["render", "ShowLocationTip", "--style", "fifo", "--catalog", sampleCatalogPath, "--templates", templates], timeout: 20)
        let mainResult = try #require(main.result, "render was still waiting after \(main.seconds) s")
        #expect(main.seconds < 5)
        #expect(mainResult.status == .failure)
        #expect(mainResult.stderr.contains("a style folder needs tip.mustache: it is a FIFO (named pipe), not a regular file"), "\(mainResult.stderr)")
    }

    @Test func badInput() {
        let unknownStyle = render("ShowLocationTip", "--style", "ansii")
        #expect(unknownStyle.status == .failure)
        #expect(unknownStyle.stderr.contains("unknown style 'ansii'; did you mean 'ansi'?"))
        let unknownLocale = render("ShowLocationTip", "--locale", "xx")
        #expect(unknownLocale.status == .failure)
        #expect(unknownLocale.stderr.contains("unknown locale 'xx'"))
        #expect(render("ShowLocationTip", "--locale", "not a locale").status == .usage)
        let wrongType = render("FindTrailheadTip", "--param", "count=many")
        #expect(wrongType.status == .failure)
        #expect(wrongType.stderr.contains("parameter 'count' of FindTrailheadTip must be int; 'many' is not"))
        let missing = render("NewTrailTip", "--param", "trail.id=x")
        #expect(missing.status == .failure || missing.stderr.contains("trail"))
        #expect(render("ShowLocationTip", "--param", "nonsense").status == .usage)
        #expect(render().status == .usage)
        #expect(render("ShowLocationTip", "--all").status == .usage)
        let unknownTip = render("ShowLocatonTip")
        #expect(unknownTip.stderr.contains("did you mean 'ShowLocationTip'?"))
    }

    /// Broken user styles: each problem is reported with the template file, line and column.
    @Test(arguments: [
        ("{{#title}}never closed", "unclosed section"),
        ("{{#a}}x{{/b}}", "closes"),
        ("{{= | =}}", "delimiter"),
        ("{{> missing}}", "missing"),
        ("{{> ../escape}}", "refused"),
    ])
    func brokenStyles(_ item: (template: String, expected: String)) throws {
        let directory = try TemporaryDirectory()
        try directory.write("Templates/broken/style.json", #"{"name": "broken", "description": "x", "output": "text"}"#)
        try directory.write("Templates/broken/tip.mustache", item.template)
        let out = CapturedOutput()
        let err = CapturedOutput()
        let status = TipcatCommand.run(
            ["render", "ShowLocationTip", "--style", "broken", "--catalog", sampleCatalogPath, "--templates", directory.path + "/Templates"],
            context: CommandContext(stdout: out, stderr: err))
        #expect(status == .failure)
        #expect(err.text.lowercased().contains(item.expected), "\(err.text)")
        #expect(err.text.contains("tip.mustache:1:"), "\(err.text)")
    }

    @Test func stylesAndTemplates() {
        let styles = tipcat("styles", "--templates", repositoryRoot + "/Templates")
        #expect(styles.status == .success)
        for name in ["ansi", "html", "markdown", "plain"] { #expect(styles.stdout.contains(name)) }
        let which = tipcat("template", "which", "markdown", "--templates", repositoryRoot + "/Templates")
        #expect(which.stdout == repositoryRoot + "/Templates/markdown/tip.mustache\n")
        let cat = tipcat("template", "cat", "markdown", "--templates", repositoryRoot + "/Templates")
        #expect(cat.stdout.hasPrefix("> [!TIP]"))
        let builtIn = tipcat("template", "which", "plain", "--templates", "/nonexistent")
        #expect(builtIn.stdout == "built-in:plain/tip.mustache\n")
    }

    @Test func userStyleIsAFolder() throws {
        let directory = try TemporaryDirectory()
        try directory.write("Templates/shout/style.json", #"{"name": "shout", "description": "Loud.", "output": "text"}"#)
        try directory.write("Templates/shout/tip.mustache", "!! {{title}} !!\n{{> footer}}")
        try directory.write("Templates/shout/footer.mustache", "-- {{id}}\n")
        let out = CapturedOutput()
        let status = TipcatCommand.run(
            ["render", "ShowLocationTip", "--style", "shout", "--catalog", sampleCatalogPath, "--templates", directory.path + "/Templates"],
            context: CommandContext(stdout: out, stderr: CapturedOutput()))
        #expect(status == .success)
        #expect(out.text == "!! Show your location !!\n-- ShowLocationTip\n")
    }
}

/// Display width for assertions, independent of the code under test where it matters: wide CJK and fullwidth
/// forms count 2, escape sequences 0.
enum TestWidth {
    static func columns(_ line: Substring) -> Int {
        var width = 0
        var inEscape = false
        for scalar in line.unicodeScalars {
            if inEscape {
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" { inEscape = true; continue }
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1FAFF:
                width += 2
            case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F:
                break
            default:
                width += 1
            }
        }
        return width
    }
}

/// `--watch` re-renders when a snapshot of the catalog and template files changes.
@Suite struct WatchTests {
    @Test func snapshotsNoticeEditsNewFilesAndDeletions() throws {
        let directory = try TemporaryDirectory()
        try directory.write("Catalog/tips/A.json", "{}")
        let before = FileSnapshot(paths: [directory.path + "/Catalog"])
        #expect(FileSnapshot(paths: [directory.path + "/Catalog"]) == before)
        try directory.write("Catalog/tips/A.json", "{\"id\": \"A\"}")
        let edited = FileSnapshot(paths: [directory.path + "/Catalog"])
        #expect(edited != before)
        try directory.write("Catalog/tips/B.json", "{}")
        let added = FileSnapshot(paths: [directory.path + "/Catalog"])
        #expect(added != edited)
        try FileManager.default.removeItem(atPath: directory.path + "/Catalog/tips/B.json")
        #expect(FileSnapshot(paths: [directory.path + "/Catalog"]) != added)
    }
}

/// `tipcat render --device`: String Catalog device variations.
@Suite struct RenderDeviceTests {
    func render(catalog: String, _ arguments: String...) -> RunResult {
        let out = CapturedOutput()
        let err = CapturedOutput()
        let context = CommandContext(stdout: out, stderr: err, environment: [:], terminalColumns: nil)
        let status = TipcatCommand.run(["render", "--catalog", catalog, "--templates", repositoryRoot + "/Templates", "--width", "80"] + arguments,
                                       context: context)
        return RunResult(status: status, stdout: out.text, stderr: err.text)
    }

    func deviceCatalog(_ directory: TemporaryDirectory) throws -> String {
        let catalog = try directory.sampleCatalog()
        try directory.write("Catalog/Localizable.xcstrings",
                            try String(contentsOfFile: repositoryRoot + "/Tests/Fixtures/xcstrings/device-variations.xcstrings", encoding: .utf8))
        return catalog
    }

    @Test func deviceVariationIsPicked() throws {
        let directory = try TemporaryDirectory()
        let catalog = try deviceCatalog(directory)
        let mac = render(catalog: catalog, "ShowLocationTip", "--locale", "fr", "--device", "mac")
        #expect(mac.status == .success, "\(mac.stderr)")
        #expect(mac.stdout == "(location.circle) Afficher votre position\nCliquez sur la boussole pour voir votre position sur la carte.\n")
        let watch = render(catalog: catalog, "ShowLocationTip", "--locale", "fr", "--device", "watch")
        #expect(watch.stdout.contains("Touchez la boussole."))
        let none = render(catalog: catalog, "ShowLocationTip", "--locale", "fr")
        #expect(none.stdout.contains("Utilisez la boussole"))
    }

    @Test func unknownDeviceIsAUsageError() throws {
        let directory = try TemporaryDirectory()
        let result = render(catalog: try deviceCatalog(directory), "ShowLocationTip", "--device", "macc")
        #expect(result.status == .usage)
        #expect(result.stderr.contains("unknown device 'macc'; did you mean 'mac'? (devices: iphone, ipad, mac, watch, tv, vision)"), "\(result.stderr)")
    }
}

/// `tipcat render --device` on a tip with `platforms`.
@Suite struct RenderPlatformTests {
    @Test func platformContentReplacesTheTipsOwn() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        try directory.write("Catalog/tips/ShowLocationTip.json", """
            {
              "id": "ShowLocationTip",
              "title": "Show your location",
              "message": "Tap the compass to highlight your current location on the map.",
              "image": "location.circle",
              "rules": ["$isMapVisible"],
              "platforms": {
                "mac": {"message": "Click the compass to highlight your current location on the map."},
                "watch": {"title": "Your location", "message": "Tap the compass."}
              }
            }
            """)
        func render(_ arguments: String...) -> RunResult {
            let out = CapturedOutput()
            let err = CapturedOutput()
            let context = CommandContext(stdout: out, stderr: err, environment: [:], terminalColumns: nil)
            let status = TipcatCommand.run(["render", "ShowLocationTip", "--catalog", catalog, "--templates", repositoryRoot + "/Templates",
                                            "--width", "80"] + arguments, context: context)
            return RunResult(status: status, stdout: out.text, stderr: err.text)
        }
        let mac = render("--device", "mac")
        #expect(mac.status == .success, "\(mac.stderr)")
        #expect(mac.stdout == "(location.circle) Show your location\nClick the compass to highlight your current location on the map.\n")
        #expect(render().stdout == "(location.circle) Show your location\nTap the compass to highlight your current location on the map.\n")
        #expect(render("--device", "watch").stdout == "(location.circle) Your location\nTap the compass.\n")
        #expect(render("--device", "iphone").stdout == render().stdout)
    }
}
