import TipcatPlugin

/// The generators compiled into tipcat.
enum BuiltInGenerators {
    static let all: [(name: String, summary: String, generator: any GeneratorPlugin)] = [
        ("docs", "Markdown pages for reviewers: an index of tips by group, one page per tip with its texts in every locale",
         DocsGenerator()),
        ("swift", "Swift for apps on the tipcat engine: typed tip, group, action, parameter and event names, setters, donations, registrations",
         SwiftEngineGenerator()),
        ("tipkit", "Swift for apps on Apple's TipKit: one Tip struct per tip, @Parameters, events and #Rules where TipKit can say them",
         TipKitGenerator()),
    ]
}

/// `tipcat generate docs`: `index.md` (tips by group, with their translation coverage) and `tips/<id>.md` (every
/// text in every supported locale, actions, parameters, rules, options).
///
/// Options: `title` (the index heading; default: the catalog's name).
struct DocsGenerator: GeneratorPlugin {
    func generate(_ catalog: PluginCatalog, options: [String: PluginJSON]) throws -> [PluginFile] {
        var files: [PluginFile] = [PluginFile(path: "index.md", contents: index(catalog, title: options["title"]?.stringValue))]
        for tip in catalog.tips {
            files.append(PluginFile(path: "tips/\(tip.id).md", contents: page(tip, catalog: catalog)))
        }
        return files
    }

    private func index(_ catalog: PluginCatalog, title: String?) -> String {
        var lines = ["# \(escape(title ?? catalog.name))", ""]
        let locales = catalog.supportedLocales.filter { $0 != catalog.sourceLanguage }
        lines.append("\(catalog.tips.count) \(catalog.tips.count == 1 ? "tip" : "tips"), source language `\(catalog.sourceLanguage)`, locales: "
                     + catalog.supportedLocales.map { "`\($0)`" }.joined(separator: ", ") + ".")
        lines.append("")
        var grouped = Set<String>()
        for group in catalog.groups {
            lines += ["## Group `\(group.id)` (\(group.priority))", ""]
            lines += table(group.tips.compactMap { id in catalog.tips.first { $0.id == id } }, locales: locales)
            grouped.formUnion(group.tips)
            lines.append("")
        }
        let ungrouped = catalog.tips.filter { !grouped.contains($0.id) }
        if !ungrouped.isEmpty {
            lines += [catalog.groups.isEmpty ? "## Tips" : "## Not in a group", ""]
            lines += table(ungrouped, locales: locales)
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    private func table(_ tips: [PluginCatalog.Tip], locales: [String]) -> [String] {
        var lines = ["| tip | title | translated |", "|---|---|---|"]
        for tip in tips {
            let texts = tip.texts
            let total = texts.count * locales.count
            let done = locales.reduce(0) { sum, locale in
                sum + texts.filter { $0.translations[locale]?.state == "translated" }.count
            }
            lines.append("| [\(tip.id)](tips/\(tip.id).md) | \(cell(tip.title.text)) | \(done)/\(total) |")
        }
        return lines
    }

    private func page(_ tip: PluginCatalog.Tip, catalog: PluginCatalog) -> String {
        var lines = ["# \(tip.id)", "", "File: `\(tip.at.file)`" + (tip.image.map { " · image `\($0)`" } ?? ""), ""]
        if let comment = tip.comment { lines += ["> \(escape(comment))", ""] }
        lines += ["| locale | title | message |", "|---|---|---|"]
        lines.append("| \(catalog.sourceLanguage) (source) | \(cell(tip.title.text)) | \(cell(tip.message?.text ?? "")) |")
        for locale in catalog.supportedLocales where locale != catalog.sourceLanguage {
            func text(_ text: PluginCatalog.Text?) -> String {
                guard let text else { return "" }
                guard let translation = text.translations[locale] else { return "*missing*" }
                return cell(translation.text) + (translation.state == "translated" ? "" : " *(\(translation.state))*")
            }
            lines.append("| \(locale) | \(text(tip.title)) | \(text(tip.message)) |")
        }
        lines.append("")
        if !tip.actions.isEmpty {
            lines += ["## Actions", ""]
            for action in tip.actions { lines.append("- `\(action.id)`: \(escape(action.title.text))") }
            lines.append("")
        }
        if !tip.parameters.isEmpty {
            lines += ["## Parameters", ""]
            for parameter in tip.parameters { lines.append("- `\(parameter.name)`: `\(parameter.type)`") }
            lines.append("")
        }
        if !tip.rules.isEmpty {
            lines += ["## Rules", ""]
            for rule in tip.rules { lines.append("- `" + String(rule.text.map { $0 == "`" ? "'" : $0 }) + "`") }
            lines.append("")
        }
        var options: [String] = []
        if let count = tip.options.maxDisplayCount { options.append(count == 1 ? "shown at most 1 time" : "shown at most \(count) times") }
        if let seconds = tip.options.maxDisplayDuration { options.append("shown at most \(Int(seconds)) s in total") }
        if tip.options.ignoresDisplayFrequency { options.append("ignores the display frequency") }
        if tip.republish == "reset" { options.append("a changed version shows again (republish: reset)") }
        if !options.isEmpty { lines += ["## Options", ""] + options.map { "- \($0)" } + [""] }
        return lines.joined(separator: "\n")
    }

    /// Markdown-safe inline text: punctuation that Markdown would read is backslash-escaped, lines joined.
    private func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            if character == "\n" || character == "\r" {
                result.append(" ")
            } else if "\\`*_{}[]()#+-.!|<>".contains(character) {
                result.append("\\")
                result.append(character)
            } else {
                result.append(character)
            }
        }
        return result
    }

    private func cell(_ text: String) -> String { escape(text) }
}
