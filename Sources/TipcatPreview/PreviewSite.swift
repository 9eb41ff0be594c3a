import Foundation
public import TipcatCatalog
public import TipcatCore
public import TipcatLocalization
public import TipcatRender
import Synchronization

/// What a preview site shows and how its pages are built.
public struct PreviewOptions: Sendable {
    /// The locales every tip page shows, in order (pseudo-locales included when asked for).
    public var locales: [LocaleID]
    /// The device whose `platforms` entry and String Catalog variations are used, if any.
    public var device: Device?
    /// Whether pages load `reload.js`, which reloads them when the served site changes (`--serve`).
    public var liveReload: Bool
    /// The site's generation, written into each page for `reload.js` to compare with `/__tipcat/version`.
    public var version: Int
    /// The catalog directory as given: file paths in diagnostics are shown relative to it.
    public var catalogDirectory: String

    public init(locales: [LocaleID], device: Device? = nil, liveReload: Bool = false, version: Int = 1, catalogDirectory: String) {
        self.locales = locales
        self.device = device
        self.liveReload = liveReload
        self.version = version
        self.catalogDirectory = catalogDirectory
    }
}

/// How far one text (or one locale of a tip, its worst text) is translated.
public enum TranslationMark: Int, Sendable, Comparable, CaseIterable {
    /// The source language: the tip file's own text.
    case source
    /// A pseudo-locale, derived from the source text.
    case pseudo
    /// The locale's own translation, marked `translated`.
    case translated
    /// No translation of its own, but a parent locale's (`fr-CA` shows `fr`).
    case fallback
    /// A translation marked `needs_review` or `stale`: the source text is shown.
    case needsReview
    /// No translation, or one marked `new`: the source text is shown.
    case untranslated

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The CSS class suffix and filter value.
    public var name: String {
        switch self {
        case .source: return "source"
        case .pseudo: return "pseudo"
        case .translated: return "translated"
        case .fallback: return "fallback"
        case .needsReview: return "needs-review"
        case .untranslated: return "untranslated"
        }
    }

    /// What a reader sees.
    public var label: String {
        switch self {
        case .source: return "source"
        case .pseudo: return "pseudo-locale"
        case .translated: return "translated"
        case .fallback: return "fallback"
        case .needsReview: return "needs review"
        case .untranslated: return "untranslated"
        }
    }
}

/// What a generation produced.
public struct PreviewSummary: Sendable {
    public var tips: Int
    public var locales: [LocaleID]
    /// Every file written, the index and the assets included.
    public var files: Int
    /// Tip × locale cells that could not be rendered (shown as an error in their page).
    public var renderFailures: Int
    public var errors: Int
    public var warnings: Int
}

/// Builds a preview site: `index.html` (tips by group, with search and filters), `tips/<id>.html` (every locale of
/// one tip, inline and as a popover, with its translation state and its `validate` findings) and `assets/`.
///
/// Tips are rendered in parallel, each tip × locale once; every file goes to `sink` as soon as it is built (from
/// several threads at once).
public struct PreviewSite: Sendable {
    public let catalog: Catalog
    public let diagnostics: [Diagnostic]
    public let renderer: TipRenderer
    /// The style sheet of the cards (the style's `tip.css`).
    public let stylesheet: String
    public let options: PreviewOptions

    public init(catalog: Catalog, diagnostics: [Diagnostic], style: Style, stylesheet: String, options: PreviewOptions) {
        self.catalog = catalog
        self.diagnostics = diagnostics
        self.renderer = TipRenderer(style: style, settings: RenderSettings(width: 80, colorDepth: .none))
        self.stylesheet = stylesheet
        self.options = options
    }

    /// The Content-Security-Policy of every page (also sent as a header by the server): no inline script or style,
    /// nothing from elsewhere.
    public static func contentSecurityPolicy(liveReload: Bool) -> String {
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; "
            + (liveReload ? "connect-src 'self'; " : "") + "base-uri 'none'; form-action 'none'"
    }

    /// The relative path of a tip's page.
    public static func pagePath(for id: TipID) -> String { "tips/" + PageFileName.forTip(id.rawValue) }

    /// Writes every file of the site to `sink`, in parallel; the first error a sink throws stops the generation and
    /// is rethrown.
    public func generate(sink: @escaping @Sendable (_ path: String, _ bytes: [UInt8]) throws -> Void) throws -> PreviewSummary {
        let tips = catalog.tips
        let findings = DiagnosticIndex(catalog: catalog, diagnostics: diagnostics)
        let entries = Mutex<[IndexEntry?]>(Array(repeating: nil, count: tips.count))
        let failure = Mutex<(any Error)?>(nil)
        let failures = Atomic<Int>(0)
        let workers = min(onlineCores, 8)
        let chunks = max(1, min(tips.count, workers * 4))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            var index = chunk
            while index < tips.count {
                if failure.withLock({ $0 != nil }) { return }
                let tip = tips[index]
                let built = page(for: tip, findings: findings.diagnostics(of: tip))
                failures.add(built.failures, ordering: .relaxed)
                do {
                    try sink(Self.pagePath(for: tip.id), Array(built.html.utf8))
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                    return
                }
                entries.withLock { $0[index] = built.entry }
                index += chunks
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        let index = indexPage(entries: entries.withLock { $0.compactMap(\.self) }, unattached: findings.unattached)
        try sink("index.html", Array(index.utf8))
        var files = tips.count + 1
        for (path, text) in PreviewAssets.files(stylesheet: stylesheet, liveReload: options.liveReload) {
            try sink(path, Array(text.utf8))
            files += 1
        }
        return PreviewSummary(
            tips: tips.count, locales: options.locales, files: files, renderFailures: failures.load(ordering: .relaxed),
            errors: diagnostics.filter { $0.severity == .error }.count, warnings: diagnostics.filter { $0.severity == .warning }.count)
    }

    // MARK: Pages

    /// One line of the index: what it lists and filters on.
    struct IndexEntry: Sendable {
        var id: String
        var path: String
        var title: String
        var marks: [(locale: LocaleID, mark: TranslationMark)]
        var errors: Int
        var warnings: Int
    }

    /// The head of every page: charset, CSP, title, style sheets and scripts (all files of the site).
    func head(title: String, root: String) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"" + HTML.escape(catalog.settings.sourceLanguage.identifier) + "\" data-theme=\"auto\">\n<head>\n"
        out += "<meta charset=\"utf-8\">\n"
        out += "<meta http-equiv=\"Content-Security-Policy\" content=\"" + HTML.escape(Self.contentSecurityPolicy(liveReload: options.liveReload)) + "\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        if options.liveReload { out += "<meta name=\"tipcat-version\" content=\"\(options.version)\">\n" }
        out += "<title>" + HTML.escape(title) + "</title>\n"
        out += "<link rel=\"icon\" href=\"data:,\">\n"  // no favicon request
        out += "<link rel=\"stylesheet\" href=\"\(root)assets/preview.css\">\n"
        out += "<link rel=\"stylesheet\" href=\"\(root)assets/tip.css\">\n"
        out += "<script src=\"\(root)assets/theme.js\"></script>\n"
        if options.liveReload { out += "<script src=\"\(root)assets/reload.js\" defer></script>\n" }
        out += "</head>\n"
        return out
    }

    static let themeButton = "<button type=\"button\" id=\"theme-toggle\" class=\"theme-toggle\" aria-label=\"Appearance\">Appearance: auto</button>"

    /// A tip's page, its index entry, and how many of its cells failed to render.
    func page(for tip: Tip, findings: [Diagnostic]) -> (html: String, entry: IndexEntry, failures: Int) {
        let resolver = TipResolver(catalog: catalog)
        let id = tip.id.rawValue
        var out = head(title: id + " — " + catalog.settings.name + " · tipcat preview", root: "../")
        out.reserveCapacity(4096 + options.locales.count * 2400)
        out += "<body class=\"tip-page\">\n<header class=\"site-header\">\n<a class=\"back\" href=\"../index.html\">All tips</a>\n<h1>"
        HTML.append(id, to: &out)
        out += "</h1>\n" + Self.themeButton + "\n</header>\n<main>\n"

        // About the tip: group, file, image, device, example values.
        out += "<section class=\"tip-info\">\n<dl>\n"
        let groups = catalog.groups.filter { $0.tips.contains(tip.id) }.map(\.id.rawValue)
        out += "<dt>Group</dt><dd>" + (groups.isEmpty ? "none" : HTML.escape(groups.joined(separator: ", "))) + "</dd>\n"
        out += "<dt>File</dt><dd><code>" + HTML.escape(relative(tip.file)) + "</code></dd>\n"
        let content = tip.content(for: options.device)
        if let image = content.image { out += "<dt>Image</dt><dd><code>" + HTML.escape(image) + "</code></dd>\n" }
        if let device = options.device { out += "<dt>Device</dt><dd>" + HTML.escape(device.name) + "</dd>\n" }
        out += "</dl>\n"
        if !tip.parameters.isEmpty {
            out += "<table class=\"parameters\">\n<caption>Example parameter values</caption>\n<tr><th>parameter</th><th>type</th><th>value</th></tr>\n"
            for parameter in tip.parameters {
                let value = tip.example?[parameter.name].map { $0.description } ?? (parameter.type.isOptional ? "absent" : "no example")
                out += "<tr><td><code>" + HTML.escape(parameter.name) + "</code></td><td><code>" + HTML.escape(parameter.type.description)
                    + "</code></td><td>" + HTML.escape(value) + "</td></tr>\n"
            }
            out += "</table>\n"
        }
        out += "</section>\n"

        // Findings of validate for this tip.
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.count - errors
        out += "<aside class=\"diagnostics\" aria-label=\"Diagnostics\">\n<h2>validate</h2>\n"
        out += diagnosticList(findings, empty: "No findings for this tip.")
        out += "</aside>\n"

        // Every locale.
        var marks: [(locale: LocaleID, mark: TranslationMark)] = []
        var failures = 0
        var title = tip.title.source
        if !options.locales.contains(catalog.settings.sourceLanguage),
           let source = try? resolver.resolve(tip, locale: catalog.settings.sourceLanguage, parameters: [:], useExample: true, device: options.device) {
            title = source.title.text
        }
        out += "<div class=\"locales\">\n"
        for locale in options.locales {
            let textMarks = self.marks(of: tip, locale: locale)
            let worst = textMarks.map(\.mark).max() ?? .translated
            marks.append((locale, worst))
            let localeName = HTML.escape(locale.identifier)
            let dir = locale.isRightToLeft ? "rtl" : "ltr"
            out += "<section class=\"locale mark-\(worst.name)\" id=\"locale-\(localeName)\" data-locale=\"\(localeName)\" data-mark=\"\(worst.name)\">\n"
            out += "<h2><span class=\"locale-id\">\(localeName)</span> <span class=\"badge mark-\(worst.name)\">\(worst.label)</span></h2>\n"
            out += "<ul class=\"text-marks\">\n"
            for item in textMarks {
                out += "<li class=\"mark-\(item.mark.name)\"><code>"
                HTML.append(item.key, to: &out)
                out += "</code> <span class=\"badge mark-\(item.mark.name)\">" + HTML.escape(item.label) + "</span></li>\n"
            }
            out += "</ul>\n"
            do {
                let resolved = try resolver.resolve(tip, locale: locale, parameters: [:], useExample: true, device: options.device)
                if locale == catalog.settings.sourceLanguage { title = resolved.title.text }
                let card = try renderer.render(resolved)
                out += "<div class=\"variants\" lang=\"\(localeName)\" dir=\"\(dir)\">\n"
                out += "<figure class=\"variant variant-inline\">\n<figcaption>Inline</figcaption>\n" + card + "</figure>\n"
                out += "<figure class=\"variant variant-popover\">\n<figcaption>Popover</figcaption>\n<span class=\"popover-anchor\" aria-hidden=\"true\">"
                HTML.append(content.image ?? "anchor", to: &out)
                out += "</span>\n<div class=\"tipcat-popover\">\n" + card + "</div>\n</figure>\n</div>\n"
            } catch {
                failures += 1
                out += "<p class=\"render-error\">Cannot render in "
                HTML.append(locale.identifier, to: &out)
                out += ": "
                HTML.append(Self.message(of: error), to: &out)
                out += "</p>\n"
            }
            out += "</section>\n"
        }
        out += "</div>\n</main>\n</body>\n</html>\n"
        let entry = IndexEntry(id: id, path: Self.pagePath(for: tip.id), title: title, marks: marks, errors: errors, warnings: warnings)
        return (out, entry, failures)
    }

    static func message(of error: any Error) -> String {
        if let error = error as? any TipcatError { return error.message }
        return String(describing: error)
    }

    /// Each text of the tip in `locale` with how far it is translated.
    func marks(of tip: Tip, locale: LocaleID) -> [(key: String, mark: TranslationMark, label: String)] {
        let content = tip.content(for: options.device)
        let texts = [content.title] + (content.message.map { [$0] } ?? []) + content.actions.map(\.title)
        let source = catalog.settings.sourceLanguage
        return texts.map { text in
            if PseudoLocale(locale) != nil { return (text.key, .pseudo, TranslationMark.pseudo.label) }
            if locale == source { return (text.key, .source, TranslationMark.source.label) }
            let table = catalog.localizations
            let own = table.entries[text.key]?.state(for: locale)
            switch own {
            case .translated?: return (text.key, .translated, TranslationMark.translated.label)
            case .needsReview?, .stale?:
                return (text.key, .needsReview, (own == .stale ? "stale" : "needs review") + " (shows " + shownLocale(text.key, locale) + ")")
            case .new?, nil:
                if let found = table.lookup(text.key, for: locale, device: options.device), found.locale != locale, found.locale != source {
                    return (text.key, .fallback, "fallback: " + found.locale.identifier)
                }
                return (text.key, .untranslated, (own == .new ? "new" : "untranslated") + " (shows " + shownLocale(text.key, locale) + ")")
            }
        }
    }

    private func shownLocale(_ key: String, _ locale: LocaleID) -> String {
        catalog.localizations.lookup(key, for: locale, device: options.device)?.locale.identifier ?? catalog.settings.sourceLanguage.identifier
    }

    /// A diagnostic's file relative to the catalog directory.
    func relative(_ file: String) -> String {
        let root = options.catalogDirectory.hasSuffix("/") ? options.catalogDirectory : options.catalogDirectory + "/"
        return file.hasPrefix(root) ? String(file.dropFirst(root.count)) : file
    }

    func diagnosticList(_ list: [Diagnostic], empty: String) -> String {
        guard !list.isEmpty else { return "<p class=\"no-findings\">" + HTML.escape(empty) + "</p>\n" }
        var out = "<ul class=\"findings\">\n"
        for diagnostic in list {
            let severity = diagnostic.severity == .error ? "error" : (diagnostic.severity == .warning ? "warning" : "note")
            out += "<li class=\"finding finding-\(severity)\">"
            if let location = diagnostic.location {
                out += "<code class=\"where\">" + HTML.escape("\(relative(location.file)):\(location.line):\(location.column)") + "</code> "
            }
            out += "<span class=\"severity\">\(severity)</span> "
            HTML.append(diagnostic.message, to: &out)
            out += " <code class=\"rule\">["
            HTML.append(diagnostic.ruleID, to: &out)
            out += "]</code></li>\n"
        }
        return out + "</ul>\n"
    }

    /// `index.html`: the tips by group (tips in no group last), a search box and filters (`gallery.js`), and the
    /// findings that belong to no tip.
    func indexPage(entries: [IndexEntry], unattached: [Diagnostic]) -> String {
        var out = head(title: catalog.settings.name + " · tipcat preview", root: "")
        out.reserveCapacity(2048 + entries.count * (400 + options.locales.count * 90))
        out += "<body class=\"index-page\">\n<header class=\"site-header\">\n<h1>"
        HTML.append(catalog.settings.name, to: &out)
        out += "</h1>\n" + Self.themeButton + "\n</header>\n<main>\n"
        out += "<div class=\"controls\" role=\"search\">\n"
        out += "<input type=\"search\" id=\"search\" placeholder=\"Search tips\" aria-label=\"Search tips\" autocomplete=\"off\">\n"
        out += "<select id=\"locale-filter\" aria-label=\"Locale\">\n<option value=\"\">All locales</option>\n"
        for locale in options.locales {
            let name = HTML.escape(locale.identifier)
            out += "<option value=\"\(name)\">\(name)</option>\n"
        }
        out += "</select>\n<select id=\"state-filter\" aria-label=\"Translation state\">\n<option value=\"\">Any state</option>\n"
        for mark in [TranslationMark.untranslated, .needsReview, .fallback, .translated] {
            out += "<option value=\"\(mark.name)\">\(mark.label)</option>\n"
        }
        out += "<option value=\"findings\">with findings</option>\n</select>\n"
        out += "<output id=\"count\" for=\"search locale-filter state-filter\">\(entries.count) \(entries.count == 1 ? "tip" : "tips")</output>\n</div>\n"
        let errors = diagnostics.filter { $0.severity == .error }.count
        out += "<p class=\"summary\">\(entries.count) \(entries.count == 1 ? "tip" : "tips") × \(options.locales.count) \(options.locales.count == 1 ? "locale" : "locales"); validate: "
            + (diagnostics.isEmpty ? "no findings" : "\(errors) \(errors == 1 ? "error" : "errors"), \(diagnostics.count - errors) \(diagnostics.count - errors == 1 ? "warning" : "warnings")") + "</p>\n"
        if !unattached.isEmpty {
            out += "<aside class=\"diagnostics\" aria-label=\"Catalog diagnostics\">\n<h2>validate: the catalog</h2>\n" + diagnosticList(unattached, empty: "") + "</aside>\n"
        }
        let byID = Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var grouped = Set<String>()
        for group in catalog.groups {
            let members = group.tips.compactMap { byID[$0.rawValue] }
            grouped.formUnion(members.map(\.id))
            out += "<section class=\"group\">\n<h2>"
            HTML.append(group.id.rawValue, to: &out)
            out += " <small>" + HTML.escape(group.priority.rawValue) + "</small></h2>\n"
            appendList(members, to: &out)
            out += "</section>\n"
        }
        let rest = entries.filter { !grouped.contains($0.id) }
        if !rest.isEmpty {
            out += "<section class=\"group\">\n<h2>" + (catalog.groups.isEmpty ? "Tips" : "In no group") + "</h2>\n"
            appendList(rest, to: &out)
            out += "</section>\n"
        }
        out += "<p id=\"no-match\" class=\"no-match\" hidden>No tip matches.</p>\n"
        out += "</main>\n<script src=\"assets/gallery.js\"></script>\n</body>\n</html>\n"
        return out
    }

    private func appendList(_ entries: [IndexEntry], to out: inout String) {
        out += "<ul class=\"tip-list\">\n"
        for entry in entries {
            let path = HTML.escape(entry.path)
            out += "<li class=\"tip-entry\" data-search=\""
            HTML.append((entry.id + " " + entry.title).lowercased(), to: &out)
            out += "\" data-marks=\""
            out += entry.marks.map { HTML.escape($0.locale.identifier) + ":" + $0.mark.name }.joined(separator: " ")
            out += "\" data-findings=\"\(entry.errors + entry.warnings)\">\n<a class=\"tip-link\" href=\"\(path)\">"
            HTML.append(entry.id, to: &out)
            out += "</a> <span class=\"tip-title\">"
            HTML.append(entry.title, to: &out)
            out += "</span>\n"
            if entry.errors + entry.warnings > 0 {
                out += "<span class=\"finding-count\">"
                    + (entry.errors > 0 ? "\(entry.errors) \(entry.errors == 1 ? "error" : "errors")" : "")
                    + (entry.errors > 0 && entry.warnings > 0 ? ", " : "")
                    + (entry.warnings > 0 ? "\(entry.warnings) \(entry.warnings == 1 ? "warning" : "warnings")" : "") + "</span>\n"
            }
            out += "<span class=\"chips\">"
            for item in entry.marks {
                let name = HTML.escape(item.locale.identifier)
                out += "<a class=\"chip mark-\(item.mark.name)\" data-locale=\"\(name)\" href=\"\(path)#locale-\(name)\" title=\"\(name): \(item.mark.label)\">\(name)</a>"
            }
            out += "</span>\n</li>\n"
        }
        out += "</ul>\n"
    }
}

/// Which findings belong to which tip: those located in its file, and those in the String Catalog inside the
/// entry of one of its keys.
struct DiagnosticIndex {
    private var byFile: [String: [Diagnostic]] = [:]
    private var byKey: [String: [Diagnostic]] = [:]
    /// Findings of no tip (catalog.json, groups.json, orphan translations…), in order.
    private(set) var unattached: [Diagnostic] = []
    private var keysOfTip: [TipID: [String]] = [:]

    init(catalog: Catalog, diagnostics: [Diagnostic]) {
        let tipFiles = Set(catalog.tips.map(\.file))
        var owner: [String: TipID] = [:]
        for tip in catalog.tips {
            var keys: [String] = []
            for text in tip.localizableTexts where owner[text.key] == nil {
                owner[text.key] = tip.id
                keys.append(text.key)
            }
            keysOfTip[tip.id] = keys
        }
        // String Catalog entries by the line of their key: a finding belongs to the last entry starting before it.
        let stringsFile = catalog.localizations.file
        let allStarts = catalog.localizations.entries.compactMap { key, entry -> (line: Int, key: String)? in
            entry.location.map { ($0.line, key) }
        }.sorted { $0.line < $1.line }
        for diagnostic in diagnostics {
            guard let location = diagnostic.location else {
                unattached.append(diagnostic)
                continue
            }
            if tipFiles.contains(location.file) {
                byFile[location.file, default: []].append(diagnostic)
            } else if location.file == stringsFile, let key = Self.entry(at: location.line, in: allStarts), owner[key] != nil {
                byKey[key, default: []].append(diagnostic)
            } else {
                unattached.append(diagnostic)
            }
        }
    }

    private static func entry(at line: Int, in starts: [(line: Int, key: String)]) -> String? {
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle].line <= line { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : starts[low - 1].key
    }

    func diagnostics(of tip: Tip) -> [Diagnostic] {
        (byFile[tip.file] ?? []) + (keysOfTip[tip.id] ?? []).flatMap { byKey[$0] ?? [] }
    }
}
