import Foundation
import Synchronization
import Testing
import TipcatCatalog
import TipcatCore
import TipcatLocalization
import TipcatRender
import TipcatTestSupport
@testable import TipcatPreview

/// The gallery of the sample catalog (plus a hostile tip) in headless Chromium, served by the preview server:
/// no console errors or CSP violations, every title visible, right-to-left cards, dark mode, the theme toggle and
/// the index's filters working under the CSP, hostile values as text; the DOM text of one page in light and in
/// dark kept as golden files.
@Suite struct PreviewBrowserTests {
    static let skipReason: Comment = "chromium is not installed (`make deps` installs Debian's chromium package when run as root with apt)"

    /// The site of `catalog`, served from memory on a free port, plus `csp-probe.html`, a page that breaks the CSP
    /// on purpose (so the checks are shown to catch a violation).
    static func serve(_ catalog: String) throws -> (PreviewServer, Catalog) {
        let loaded = CatalogLoader().load(directory: catalog)
        let server = PreviewServer(site: try site(loaded, catalog, version: 7))
        try server.start(port: 0)
        return (server, loaded.catalog)
    }

    static func site(_ loaded: LoadResult, _ catalog: String, version: Int) throws -> ServedSite {
        let style = try StyleRegistry(directory: repositoryRoot + "/Templates").style(named: "html")
        let locales = (loaded.catalog.settings.supportedLocales + ["en-XA", "ar-XB"].compactMap { LocaleID($0) })
        let site = PreviewSite(
            catalog: loaded.catalog, diagnostics: loaded.diagnostics, style: style, stylesheet: style.stylesheet ?? "",
            options: PreviewOptions(locales: locales, liveReload: true, version: version, catalogDirectory: catalog))
        let files = Mutex<[String: [UInt8]]>([:])
        _ = try site.generate { path, bytes in files.withLock { $0[path] = bytes } }
        var all = files.withLock { $0 }
        all["csp-probe.html"] = Array("""
            <!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="\(PreviewSite.contentSecurityPolicy(liveReload: true))">
            <title>probe</title><link rel="icon" href="data:,"></head><body><p id="p">probe</p><script>document.title = "inline ran";</script></body></html>
            """.utf8)
        return ServedSite(files: all, version: version)
    }

    @Test(.enabled(if: Chromium.executable != nil, skipReason), .timeLimit(.minutes(3)))
    func galleryInChromium() throws {
        let directory = try TemporaryDirectory()
        let catalogPath = try directory.sampleCatalog()
        try PreviewCommandTests.addHostileTips(to: directory)
        let (server, catalog) = try Self.serve(catalogPath)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)/"
        let browser = try Chromium()
        defer { browser.close() }
        try browser.call("Page.addScriptToEvaluateOnNewDocument", ["source": """
            window.__csp = [];
            document.addEventListener("securitypolicyviolation", function (e) { window.__csp.push(e.violatedDirective + " " + e.blockedURI); });
            """])

        // The checks catch a CSP violation: the probe's inline script is blocked and reported.
        var mark = browser.events.count
        try browser.open(base + "csp-probe.html")
        #expect(try browser.string("document.title") == "probe")
        #expect(try browser.string("JSON.stringify(window.__csp)").contains("script-src"))
        #expect(!browser.problems(since: mark).isEmpty, "a CSP violation shows as a log or console error")

        // The index: no errors, every tip listed with a visible title, search and filters work.
        mark = browser.events.count
        try browser.open(base)
        let settle = Date()
        while Date().timeIntervalSince(settle) < 0.6 { _ = try browser.evaluate("1") }  // reload.js polls once
        #expect(browser.problems(since: mark) == [], "index.html")
        #expect(try browser.string("JSON.stringify(window.__csp)") == "[]")
        #expect(try browser.string("document.documentElement.getAttribute('data-theme')") == "auto")
        let listed = try browser.string("""
            JSON.stringify(Array.from(document.querySelectorAll('.tip-entry')).map(function (e) {
              var t = e.querySelector('.tip-title'); var r = t.getBoundingClientRect();
              return [e.querySelector('.tip-link').textContent, t.textContent, r.width > 0 && r.height > 0 && getComputedStyle(t).visibility === 'visible'];
            }))
            """)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[Any]])
        let ids = Set(entries.compactMap { $0.first as? String })
        #expect(ids == Set(catalog.tips.map(\.id.rawValue)))
        for entry in entries {
            #expect(entry.count == 3 && (entry[2] as? Bool) == true && !((entry[1] as? String) ?? "").isEmpty, "\(entry)")
        }
        let resolver = TipResolver(catalog: catalog)
        let titles = Dictionary(entries.compactMap { entry -> (String, String)? in
            guard let id = entry.first as? String, let title = entry[1] as? String else { return nil }
            return (id, title)
        }, uniquingKeysWith: { first, _ in first })
        for tip in catalog.tips {
            let resolved = try resolver.resolve(tip, locale: catalog.settings.sourceLanguage, parameters: [:], useExample: true)
            #expect(titles[tip.id.rawValue] == resolved.title.text, "\(tip.id)")
        }
        let matching = Set(catalog.tips.filter { tip in
            ((tip.id.rawValue + " " + (titles[tip.id.rawValue] ?? "")).lowercased()).contains("trail")
        }.map(\.id.rawValue))
        let searched = try browser.string("""
            (function () { var s = document.getElementById('search'); s.value = 'Trail'; s.dispatchEvent(new Event('input'));
              return JSON.stringify([document.getElementById('count').textContent,
                Array.from(document.querySelectorAll('.tip-entry:not([hidden]) .tip-link')).map(function (a) { return a.textContent; })]); })()
            """)
        let searchResult = try #require(try JSONSerialization.jsonObject(with: Data(searched.utf8)) as? [Any])
        #expect(Set(searchResult[1] as? [String] ?? []) == matching && !matching.isEmpty)
        #expect(searchResult[0] as? String == "\(matching.count) tips")
        let filtered = try browser.string("""
            (function () { var s = document.getElementById('search'); s.value = ''; s.dispatchEvent(new Event('input'));
              var l = document.getElementById('locale-filter'); l.value = 'fr'; l.dispatchEvent(new Event('change'));
              var f = document.getElementById('state-filter'); f.value = 'untranslated'; f.dispatchEvent(new Event('change'));
              return JSON.stringify([Array.from(document.querySelectorAll('.tip-entry:not([hidden]) .tip-link')).map(function (a) { return a.textContent; }),
                Array.from(document.querySelectorAll('.tip-entry:not([hidden]) .chip:not([hidden])')).map(function (c) { return c.textContent; })]); })()
            """)
        let filterResult = try #require(try JSONSerialization.jsonObject(with: Data(filtered.utf8)) as? [[String]])
        let french = try #require(LocaleID("fr"))
        let untranslatedInFrench = Set(catalog.tips.filter { tip in
            tip.localizableTexts.prefix(1 + (tip.message == nil ? 0 : 1) + tip.actions.count).contains { text in
                let state = catalog.localizations.entries[text.key]?.state(for: french)
                return state == nil || state == .new
            }
        }.map(\.id.rawValue))
        #expect(Set(filterResult[0]) == untranslatedInFrench && !untranslatedInFrench.isEmpty)
        #expect(Set(filterResult[1]) == ["fr"])

        // Every tip page: no errors, the title visible in every locale, inline and as a popover.
        for tip in catalog.tips {
            mark = browser.events.count
            try browser.open(base + PreviewSite.pagePath(for: tip.id))
            #expect(browser.problems(since: mark) == [], "\(tip.id)")
            #expect(try browser.string("JSON.stringify(window.__csp)") == "[]", "\(tip.id)")
            let visible = try browser.evaluate("""
                Array.from(document.querySelectorAll('.tipcat-title')).filter(function (t) {
                  var r = t.getBoundingClientRect(); return r.width > 0 && r.height > 0 && t.textContent.trim() !== '';
                }).length
                """) as? Int
            #expect(visible == 2 * 8, "\(tip.id): \(visible ?? -1) visible titles")
        }

        // Right to left: ar and ar-XB cards compute rtl, en ltr.
        try browser.open(base + "tips/NewTrailTip.html")
        for (locale, direction) in [("ar", "rtl"), ("ar-XB", "rtl"), ("en", "ltr"), ("ja", "ltr")] {
            #expect(try browser.string("getComputedStyle(document.querySelector('#locale-\(locale) .variant-inline .tipcat-tip')).direction") == direction, "\(locale)")
            #expect(try browser.string("document.querySelector('#locale-\(locale) .variant-popover .tipcat-tip').getAttribute('dir')") == direction)
        }

        // Dark mode: the card and the page change colour with prefers-color-scheme, and with the toggle.
        let card = "getComputedStyle(document.querySelector('#locale-en .variant-inline .tipcat-tip')).backgroundColor"
        let page = "getComputedStyle(document.body).backgroundColor"
        try browser.colorScheme("light")
        #expect(try browser.string(card) == "rgb(255, 255, 255)")
        #expect(try browser.string(page) == "rgb(242, 242, 247)")
        let lightText = try Self.domText(browser)
        try browser.colorScheme("dark")
        #expect(try browser.string(card) == "rgb(28, 28, 30)")
        #expect(try browser.string(page) == "rgb(0, 0, 0)")
        let darkText = try Self.domText(browser)
        try browser.colorScheme("light")
        #expect(try browser.string("document.getElementById('theme-toggle').click(); document.documentElement.getAttribute('data-theme')") == "dark")
        #expect(try browser.string(card) == "rgb(28, 28, 30)")
        #expect(try browser.string("document.getElementById('theme-toggle').textContent") == "Appearance: dark")
        #expect(try browser.string("document.getElementById('theme-toggle').click(); document.documentElement.getAttribute('data-theme')") == "light")
        try browser.colorScheme("dark")
        #expect(try browser.string(card) == "rgb(255, 255, 255)", "the toggle's light wins over a dark system")
        #expect(try browser.string("document.getElementById('theme-toggle').click(); document.documentElement.getAttribute('data-theme')") == "auto")
        try PreviewCommandTests.compare(lightText, golden: "dom/NewTrailTip-light.txt")
        try PreviewCommandTests.compare(darkText, golden: "dom/NewTrailTip-dark.txt")

        // Live reload: a new version of the site reloads the open page (reload.js, under the CSP).
        #expect(try browser.string("window.__before = 'loaded'; document.querySelector('meta[name=tipcat-version]').content") == "7")
        try directory.edit("Catalog/tips/NewTrailTip.json", replacing: "{trail.name} is now available", with: "{trail.name} reloaded")
        server.update(try Self.site(CatalogLoader().load(directory: catalogPath), catalogPath, version: 8))
        let updated = Date()
        var reloaded = false
        while Date().timeIntervalSince(updated) < 3 {
            if (try? browser.string("String(window.__before) + ' ' + document.querySelector('#locale-en .tipcat-title').textContent")) == "undefined Butler Fork reloaded" {
                reloaded = true
                break
            }
            usleep(100_000)
        }
        #expect(reloaded, "the page did not reload within 3 s")

        // A hostile value and a javascript: link are text: no image, no such link, nothing ran.
        mark = browser.events.count
        try browser.open(base + "tips/HostileTip.html")
        #expect(browser.problems(since: mark) == [])
        #expect(try browser.evaluate("document.querySelectorAll('img').length") as? Int == 0)
        #expect(try browser.evaluate("document.querySelectorAll('a[href^=\"javascript:\"], [onerror], b').length") as? Int == 0)
        #expect(try browser.string("String(window.__xss)") == "undefined")
        let text = try browser.string("document.querySelector('#locale-en .variant-inline').innerText")
        #expect(text.contains("Hostile <img src=x onerror=window.__xss=1>"), "\(text)")
        #expect(text.contains("Open the docs or <b>this</b>: <img src=x onerror=window.__xss=1>"), "\(text)")
        #expect(try browser.evaluate("document.querySelectorAll('.finding-error').length") as? Int ?? 0 >= 1, "the unsafe link is a finding beside the tip")
    }

    /// The golden text of a page: the colours of its main parts, then the visible text of `main`.
    static func domText(_ browser: Chromium) throws -> String {
        try browser.string("""
            (function () {
              function c(selector, property) { var e = document.querySelector(selector); return selector + ' ' + property + ': ' + getComputedStyle(e)[property]; }
              return [
                c('body', 'backgroundColor'), c('body', 'color'),
                c('#locale-en .variant-inline .tipcat-tip', 'backgroundColor'), c('#locale-en .variant-inline .tipcat-title', 'color'),
                c('#locale-en .variant-inline .tipcat-message', 'color'), c('#locale-en .variant-inline .tipcat-action', 'color'),
                c('#locale-en .variant-popover .tipcat-tip', 'backgroundColor'), c('#locale-ar .variant-inline .tipcat-tip', 'direction'),
                '', document.querySelector('main').innerText
              ].join('\\n') + '\\n';
            })()
            """)
    }
}
