import Foundation
import Testing
import TipcatCLI
import TipcatCatalog
import TipcatRender
import TipcatTestSupport
@testable import TipcatPreview

/// `tipcat preview` writing a static site: golden pages, what the pages hold, the output directory, bad input.
@Suite struct PreviewCommandTests {
    static let recording = ProcessInfo.processInfo.environment["TIPCAT_RECORD_GOLDEN"] == "1"

    /// Runs `tipcat preview` on `catalog` into `output`.
    static func preview(_ catalog: String, _ output: String, _ extra: String...) -> RunResult {
        tipcat(["preview", "--catalog", catalog, "--templates", repositoryRoot + "/Templates", "-o", output] + extra)
    }

    static func compare(_ text: String, golden name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = repositoryRoot + "/Tests/Fixtures/preview-golden/" + name
        if recording {
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            return
        }
        let expected = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text == expected, "\(name) differs from its golden file; re-record with TIPCAT_RECORD_GOLDEN=1 if intended", sourceLocation: sourceLocation)
    }

    @Test func sampleCatalogGolden() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let result = Self.preview(catalog, directory.file("site"))
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout == "wrote \(directory.file("site"))/index.html: 17 tips × 8 locales (en, fr, de, ja, ar, pl, en-XA, ar-XB), 22 files\n")
        try Self.compare(try directory.read("site/index.html"), golden: "index.html")
        try Self.compare(try directory.read("site/tips/NewTrailTip.html"), golden: "NewTrailTip.html")
        try Self.compare(try directory.read("site/tips/com.example.trails.plan-tomorrow.html"), golden: "com.example.trails.plan-tomorrow.html")
        // Every tip has its page; the assets are there; no script or style is inline.
        let pages = try FileManager.default.contentsOfDirectory(atPath: directory.file("site/tips")).sorted()
        #expect(pages.count == 17)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory.file("site/assets"))) == ["preview.css", "tip.css", "theme.js", "gallery.js"])
        for page in pages + ["../index.html"] {
            let html = try directory.read("site/tips/" + page)
            #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#39;none&#39;; style-src &#39;self&#39;; script-src &#39;self&#39;;"))
            #expect(!html.contains("<script>") && !html.contains("style=\"") && !html.contains(" onclick="), "\(page)")
            #expect(!html.contains("reload.js"), "a static site does not poll")
        }
        // The card style sheet is the html style's tip.css.
        #expect(try directory.read("site/assets/tip.css") == (try String(contentsOfFile: repositoryRoot + "/Templates/html/tip.css", encoding: .utf8)))
        // The staging directory is gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["Catalog", "site"])
    }

    @Test func pagesShowLocalesStatesAndFindings() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        // A needs-review French title and a German title with no translation, and a finding in the tip's file.
        let strings = try directory.read("Catalog/Localizable.xcstrings")
        let edited = Self.setState(strings, key: "ShowLocationTip.title", locale: "fr", to: "needs_review")
        try directory.write("Catalog/Localizable.xcstrings", Self.removeLocale(edited, key: "ShowLocationTip.title", locale: "de"))
        try directory.edit("Catalog/tips/ShowLocationTip.json", replacing: "\"title\"", with: "\"unknownField\": 1, \"title\"")
        let result = Self.preview(catalog, directory.file("site"), "--json")
        #expect(result.status == .success, "\(result.stderr)")
        let page = try directory.read("site/tips/ShowLocationTip.html")
        #expect(page.contains("<section class=\"locale mark-needs-review\" id=\"locale-fr\" data-locale=\"fr\" data-mark=\"needs-review\">"))
        #expect(page.contains("<li class=\"mark-needs-review\"><code>ShowLocationTip.title</code> <span class=\"badge mark-needs-review\">needs review (shows en)</span></li>"))
        #expect(page.contains("<section class=\"locale mark-untranslated\" id=\"locale-de\" data-locale=\"de\" data-mark=\"untranslated\">"))
        #expect(page.contains("<li class=\"mark-untranslated\"><code>ShowLocationTip.title</code> <span class=\"badge mark-untranslated\">untranslated (shows en)</span></li>"))
        #expect(page.contains("<section class=\"locale mark-pseudo\" id=\"locale-en-XA\""))
        #expect(page.contains("<div class=\"variants\" lang=\"ar-XB\" dir=\"rtl\">"))
        #expect(page.contains("<div class=\"variants\" lang=\"ar\" dir=\"rtl\">"))
        #expect(page.contains("<li class=\"finding finding-error\"><code class=\"where\">tips/ShowLocationTip.json:"))
        #expect(page.contains("[unknown-key]</code></li>"))
        // Another tip's page does not show that finding.
        #expect(!(try directory.read("site/tips/NewTrailTip.html")).contains("unknown-key"))
        let index = try directory.read("site/index.html")
        #expect(index.contains("data-marks=\"en:source fr:needs-review de:untranslated ja:translated ar:translated pl:translated en-XA:pseudo ar-XB:pseudo\""))
        #expect(index.contains("<span class=\"finding-count\">1 error"), "\(index.split(separator: "\n").filter { $0.contains("finding-count") })")
        #expect(result.stdout.contains("\"errors\" : 1") || result.stdout.contains("\"errors\": 1"))
        #expect(result.stderr.hasPrefix("note: \(catalog) has 1 error and "), "\(result.stderr)")
    }

    /// `"state" : "translated"` of one key's locale in a String Catalog → `state`.
    static func setState(_ text: String, key: String, locale: String, to state: String) -> String {
        guard var json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              var strings = json["strings"] as? [String: Any], var entry = strings[key] as? [String: Any],
              var localizations = entry["localizations"] as? [String: Any], var one = localizations[locale] as? [String: Any],
              var unit = one["stringUnit"] as? [String: Any]
        else { return text }
        unit["state"] = state
        one["stringUnit"] = unit
        localizations[locale] = one
        entry["localizations"] = localizations
        strings[key] = entry
        json["strings"] = strings
        return (try? JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    static func removeLocale(_ text: String, key: String, locale: String) -> String {
        guard var json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              var strings = json["strings"] as? [String: Any], var entry = strings[key] as? [String: Any],
              var localizations = entry["localizations"] as? [String: Any]
        else { return text }
        localizations[locale] = nil
        entry["localizations"] = localizations
        strings[key] = entry
        json["strings"] = strings
        return (try? JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    @Test func hostileValuesAndIDsStayTextAndInsideTheSite() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        try Self.addHostileTips(to: directory)
        let result = Self.preview(catalog, directory.file("site"), "--locale", "en", "--locale", "ar")
        #expect(result.status == .success, "\(result.stderr)")
        let page = try directory.read("site/tips/HostileTip.html")
        #expect(!page.contains("<img src=x"))
        #expect(page.contains("&lt;img src=x onerror=window.__xss=1&gt;"))
        #expect(!page.contains("href=\"javascript:"))
        // Every file is inside the site, with a safe name.
        let enumerator = try #require(FileManager.default.enumerator(atPath: directory.file("site")))
        var files: [String] = []
        while let file = enumerator.nextObject() as? String { files.append(file) }
        for file in files {
            #expect(!file.contains("..") || file.hasPrefix("tips/"), "\(file)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("evil.html")))
        #expect(!FileManager.default.fileExists(atPath: directory.file("site/evil.html")))
    }

    /// The loader refuses such ids, but the site never trusts them: a tip id that is a path and markup gets an
    /// encoded page name inside tips/ and is escaped wherever it is shown.
    @Test func hostileTipIDsStayInsideTheSite() throws {
        let directory = try TemporaryDirectory()
        var catalog = loadCatalog(try directory.sampleCatalog())
        let id = "../../evil\"><script>window.__xss=3</script>"
        catalog.tips.append(Tip(id: TipID(id), title: LocalizedText(key: id + ".title", source: "Evil", message: nil), file: "tips/evil.json"))
        let style = try StyleRegistry(directory: repositoryRoot + "/Templates").style(named: "html")
        let site = PreviewSite(catalog: catalog, diagnostics: [], style: style, stylesheet: "",
                               options: PreviewOptions(locales: [catalog.settings.sourceLanguage], catalogDirectory: directory.file("Catalog")))
        let output = try SiteDirectory(path: directory.file("out/site"))
        _ = try site.generate { path, bytes in try output.write(path, bytes) }
        try output.commit()
        let name = "~2E.~2F..~2Fevil~22~3E~3Cscript~3Ewindow.__xss~3D3~3C~2Fscript~3E.html"
        #expect(PageFileName.forTip(id) == name)
        let page = try directory.read("out/site/tips/" + name)
        #expect(!page.contains("<script>window"))
        #expect(page.contains("<h1>../../evil&quot;&gt;&lt;script&gt;window.__xss=3&lt;/script&gt;</h1>"))
        let index = try directory.read("out/site/index.html")
        #expect(!index.contains("<script>window") && index.contains("href=\"tips/\(name)\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["Catalog", "out"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("out")) == ["site"])
    }

    /// A tip whose example value is markup and whose message links to `javascript:`.
    static func addHostileTips(to directory: TemporaryDirectory) throws {
        try directory.write("Catalog/tips/HostileTip.json", #"""
            {"id": "HostileTip", "title": "Hostile {name}", "message": "Open [the docs](javascript:window.__xss=2) or <b>this</b>: {name}",
             "parameters": {"name": "string"}, "example": {"name": "<img src=x onerror=window.__xss=1>"}}
            """#)
    }

    @Test func pageFileNamesAreSafe() {
        #expect(PageFileName.forTip("com.example.trails.plan-tomorrow") == "com.example.trails.plan-tomorrow.html")
        #expect(PageFileName.forTip("../../evil") == "~2E.~2F..~2Fevil.html")
        #expect(PageFileName.forTip("a/b") == "a~2Fb.html")
        #expect(PageFileName.forTip(".hidden") == "~2Ehidden.html")
        #expect(PageFileName.forTip("a\u{0}b") == "a~00b.html")
        #expect(PageFileName.forTip("~") == "~7E.html")
        #expect(PageFileName.forTip("<script>") == "~3Cscript~3E.html")
        #expect(PageFileName.forTip("") == "~.html")
        #expect(PageFileName.forTip("é") == "~C3~A9.html")
        let long = PageFileName.forTip(String(repeating: "a", count: 500))
        let other = PageFileName.forTip(String(repeating: "a", count: 499) + "b")
        #expect(long.utf8.count <= 205 && long != other)
        for id in ["..", ".", "a/../b", "\\", "%2e"] {
            let name = PageFileName.encode(id)
            #expect(!name.contains("/") && !name.contains("\\") && name != ".." && name != "." && !name.hasPrefix("."), "\(id) → \(name)")
        }
    }

    @Test func requestPathsInsideTheSiteOnly() {
        #expect(PreviewServer.sitePath("/") == "index.html")
        #expect(PreviewServer.sitePath("/tips/A.html?x=1#y") == "tips/A.html")
        #expect(PreviewServer.sitePath("/tips/com.example%2Dx.html") == "tips/com.example-x.html")
        for bad in ["", "tips/A.html", "/../x", "/a/../b", "/%2e%2e/x", "/a%2fb", "/a%5cb", "/a%00", "/a\\b", "/a//b", "/./a", "/%", "/%4", "/%g0", "/%ff"] {
            #expect(PreviewServer.sitePath(bad) == nil, "\(bad)")
        }
    }

    // MARK: The output directory

    @Test func rerunReplacesTheSiteCleanly() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        #expect(Self.preview(catalog, directory.file("site")).status == .success)
        try directory.write("site/tips/Stale.html", "old")
        #expect(Self.preview(catalog, directory.file("site"), "--locale", "fr").status == .success)
        #expect(!FileManager.default.fileExists(atPath: directory.file("site/tips/Stale.html")))
        #expect(FileManager.default.fileExists(atPath: directory.file("site/.tipcat-preview")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["Catalog", "site"])
    }

    @Test func refusesADirectoryItDidNotWrite() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        try directory.write("mine/notes.txt", "keep me")
        let result = Self.preview(catalog, directory.file("mine"))
        #expect(result.status == .failure)
        #expect(result.stderr == "error: '\(directory.file("mine"))' is not empty and was not written by tipcat preview (no .tipcat-preview in it); choose a new or empty directory\n")
        #expect(try directory.read("mine/notes.txt") == "keep me")
    }

    @Test func outputIsAFile() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        try directory.write("file", "x")
        let result = Self.preview(catalog, directory.file("file"))
        #expect(result.status == .failure)
        #expect(result.stderr == "error: '\(directory.file("file"))' is a file, not a directory; -o takes a directory for the site\n")
        #expect(try directory.read("file") == "x")
    }

    @Test func outputCannotBeCreated() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        try directory.write("file", "x")
        let under = Self.preview(catalog, directory.file("file/site"))
        #expect(under.status == .failure)
        #expect(under.stderr.hasPrefix("error: cannot create '\(directory.file("file"))': "), "\(under.stderr)")
        let proc = Self.preview(catalog, "/proc/tipcat-preview-site")
        #expect(proc.status == .failure)
        #expect(proc.stderr.hasPrefix("error: cannot write in '/proc': "), "\(proc.stderr)")
    }

    @Test func aFailedGenerationKeepsThePreviousSite() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        #expect(Self.preview(catalog, directory.file("site")).status == .success)
        let before = try directory.read("site/index.html")
        // A templates folder whose html style makes text: refused, and the previous site stays.
        try directory.write("Templates/html/style.json", #"{"name": "html", "description": "Text.", "output": "text"}"#)
        try directory.write("Templates/html/tip.mustache", "{{title}}")
        let result = tipcat(["preview", "--catalog", catalog, "--templates", directory.file("Templates"), "-o", directory.file("site")])
        #expect(result.status == .failure)
        #expect(result.stderr == "error: the style 'html' in \(directory.file("Templates")) has output 'text'; preview needs an html style\n")
        #expect(try directory.read("site/index.html") == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["Catalog", "Templates", "site"])
    }

    @Test func aFailedWriteLeavesNoHalfSite() throws {
        let directory = try TemporaryDirectory()
        try directory.write("site/.tipcat-preview", "")
        try directory.write("site/index.html", "previous")
        let site = try SiteDirectory(path: directory.file("site"))
        try site.write("index.html", Array("new".utf8))
        try site.write("tips", Array("a file where a folder goes".utf8))
        #expect(throws: SiteWriteError.self) { try site.write("tips/A.html", Array("page".utf8)) }
        site.discard()
        #expect(try directory.read("site/index.html") == "previous")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["site"])
        // A complete staging replaces the previous site.
        let next = try SiteDirectory(path: directory.file("site"))
        try next.write("tips/A.html", Array("page".utf8))
        try next.commit()
        #expect(try directory.read("site/tips/A.html") == "page")
        #expect(!FileManager.default.fileExists(atPath: directory.file("site/index.html")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["site"])
    }

    @Test func helpListsPreview() {
        let help = tipcat("help")
        #expect(help.status == .success)
        #expect(help.stdout.contains("  preview                 Write an HTML gallery of every tip in every locale;"))
        let own = tipcat("preview", "--help")
        #expect(own.status == .success)
        #expect(own.stdout.contains("USAGE: tipcat preview [--catalog <dir>] [--output <dir>] [--locale <locale> ...] [--all-locales] [--device <device>] [--templates <dir>] [--serve] [--port <port>] [--no-plugins] [--json]"))
        for flag in ["-o, --output <dir>", "--serve", "--port <port>", "--all-locales", "--device <device>", "--json"] {
            #expect(own.stdout.contains(flag), "\(flag)")
        }
    }

    // MARK: Bad input

    @Test(arguments: [["--port", "abc"], ["--port", "70000"], ["--port", "-1"], ["--port", ""], ["--port", "123456"]])
    func badPort(_ arguments: [String]) throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let result = tipcat(["preview", "--serve", "--catalog", catalog, "-o", directory.file("site")] + arguments)
        #expect(result.status == .usage)
        #expect(result.stderr.hasPrefix("Error: --port takes a number from 0 to 65535 (0: any free port), found '\(arguments[1])'\nUsage: tipcat preview"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("site")))
    }

    @Test func usageErrors() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let portAlone = Self.preview(catalog, directory.file("site"), "--port", "0")
        #expect(portAlone.status == .usage && portAlone.stderr.hasPrefix("Error: --port is for --serve\n"))
        let both = Self.preview(catalog, directory.file("site"), "--locale", "fr", "--all-locales")
        #expect(both.status == .usage && both.stderr.hasPrefix("Error: use --locale or --all-locales, not both\n"))
        let json = Self.preview(catalog, directory.file("site"), "--serve", "--json")
        #expect(json.status == .usage && json.stderr.hasPrefix("Error: --json prints one generation's summary; it cannot be used with --serve\n"))
        let malformed = Self.preview(catalog, directory.file("site"), "--locale", "not a locale")
        #expect(malformed.status == .usage && malformed.stderr.hasPrefix("Error: 'not a locale' is not a locale identifier"))
        let device = Self.preview(catalog, directory.file("site"), "--device", "wach")
        #expect(device.status == .usage && device.stderr.hasPrefix("Error: unknown device 'wach'; did you mean 'watch'?"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("site")))
    }

    @Test func unknownLocaleAndCatalog() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let locale = Self.preview(catalog, directory.file("site"), "--locale", "fi")
        #expect(locale.status == .failure)
        #expect(locale.stderr == "error: unknown locale 'fi': the catalog supports en, fr, de, ja, ar, pl (and the pseudo-locales en-XA, ar-XB); did you mean 'fr'?\n"
            || locale.stderr.hasPrefix("error: unknown locale 'fi': the catalog supports en, fr, de, ja, ar, pl (and the pseudo-locales en-XA, ar-XB)"), "\(locale.stderr)")
        let missing = Self.preview(directory.file("nowhere"), directory.file("site"))
        #expect(missing.status == .failure)
        #expect(missing.stderr.hasPrefix("error: "), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("site")))
    }

    @Test func stringCatalogFindingsGoToTheirTip() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        try directory.edit("Catalog/Localizable.xcstrings", replacing: "\"أصبح {trail.name} متاحًا الآن\"", with: "\"أصبح {trail.nom} متاحًا الآن\"")
        let result = Self.preview(catalog, directory.file("site"), "--locale", "ar")
        #expect(result.status == .success, "\(result.stderr)")
        let page = try directory.read("site/tips/NewTrailTip.html")
        #expect(page.contains("<li class=\"finding finding-error\"><code class=\"where\">Localizable.xcstrings:287:"), "\(page)")
        for other in ["ShowLocationTip", "ComboTip", "PasswordResetTip"] {
            #expect(!(try directory.read("site/tips/\(other).html")).contains("Localizable.xcstrings:287"), "\(other)")
        }
        #expect(!(try directory.read("site/index.html")).contains("Localizable.xcstrings:287"))
    }

    @Test func outputInsideTheCatalogIsRefused() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let result = Self.preview(catalog, catalog + "/site")
        #expect(result.status == .failure)
        #expect(result.stderr == "error: the output directory '\(catalog)/site' is inside the catalog directory '\(catalog)'; write the site elsewhere (-o)\n")
        #expect(!FileManager.default.fileExists(atPath: catalog + "/site"))
    }

    @Test func jsonSummary() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let result = Self.preview(catalog, directory.file("site"), "--locale", "fr", "--json")
        #expect(result.status == .success, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["output", "index", "tips", "locales", "files", "renderFailures", "errors", "warnings"])
        #expect(object["output"] as? String == directory.file("site"))
        #expect(object["index"] as? String == directory.file("site") + "/index.html")
        #expect(object["tips"] as? Int == 17 && object["files"] as? Int == 22 && object["renderFailures"] as? Int == 0)
        #expect(object["locales"] as? [String] == ["fr"])
        #expect(object["errors"] as? Int == 0)
        // Without the source language among the locales, the index still lists the source titles.
        #expect(try directory.read("site/index.html").contains("<span class=\"tip-title\">Butler Fork is now available</span>"))
    }

    @Test func selectedLocalesAndDevice() throws {
        let directory = try TemporaryDirectory()
        let catalog = try directory.sampleCatalog()
        let result = Self.preview(catalog, directory.file("site"), "--locale", "ar-XB", "--locale", "fr", "--device", "mac", "--json")
        #expect(result.status == .success, "\(result.stderr)")
        #expect(result.stdout.contains("\"locales\" : [\n    \"ar-XB\",\n    \"fr\"\n  ]") || result.stdout.contains("\"ar-XB\""))
        let page = try directory.read("site/tips/ShowLocationTip.html")
        #expect(page.contains("<dt>Device</dt><dd>mac</dd>"))
        #expect(!page.contains("id=\"locale-en\""))
        #expect(page.range(of: "id=\"locale-ar-XB\"")?.lowerBound ?? page.endIndex < page.range(of: "id=\"locale-fr\"")?.lowerBound ?? page.startIndex)
    }
}
