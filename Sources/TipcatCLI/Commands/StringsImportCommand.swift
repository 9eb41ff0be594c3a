import Foundation
import TipcatCatalog
import TipcatCore
import TipcatJSON
import TipcatLocalization
import TipcatText

/// `tipcat strings import`: translated XLIFF 1.2 merged back into `Localizable.xcstrings`.
extension StringsCommand {
    // MARK: import

    func importTranslations() throws {
        let directory = arguments.value("catalog") ?? "Catalog"
        let outcome = try CatalogCheck(directory: directory, context: context, externalPlugins: false)
            .requireValid(purpose: "Localizable.xcstrings not written", tolerated: [DiagnosticRule.orphanTranslation.id])
        let catalog = outcome.result.catalog
        let sourceLanguage = catalog.settings.sourceLanguage
        // Every file is read and checked before anything is written.
        var files: [XLIFFFile] = []
        for argument in arguments.values("file") {
            for path in try xliffPaths(argument) {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw CommandError.failure("cannot read \(Sanitizer.terminalSafe(path))")
                }
                do {
                    files.append(try XLIFFReader.read([UInt8](data), path: path))
                } catch {
                    throw located(error)
                }
            }
        }
        let textKeys = Set(catalog.tips.flatMap { $0.localizableTexts.map(\.key) })
        var imports: [(locale: LocaleID, file: XLIFFFile)] = []
        for file in files {
            let name = file.path
            guard file.fileCount == 1, file.original.map({ $0.hasSuffix(CatalogLoader.FileName.strings) }) ?? false else {
                throw located(XLIFFError(path: name, line: file.fileLine, column: file.fileColumn, message:
                    "expected one <file original=\"\(CatalogLoader.FileName.strings)\">, found \(file.fileCount) <file> elements"
                        + (file.original.map { " (the first for '\($0)')" } ?? "")))
            }
            guard let source = file.sourceLanguage.flatMap(LocaleID.init), source == sourceLanguage else {
                throw located(XLIFFError(path: name, line: file.fileLine, column: file.fileColumn, message:
                    "source-language '\(file.sourceLanguage ?? "")' is not the catalog's source language '\(sourceLanguage)'"))
            }
            guard let locale = file.targetLanguage.flatMap(LocaleID.init), locale != sourceLanguage else {
                throw located(XLIFFError(path: name, line: file.fileLine, column: file.fileColumn, message:
                    "target-language '\(file.targetLanguage ?? "")' is not a locale to translate into"))
            }
            guard catalog.settings.supportedLocales.contains(locale) else {
                throw located(XLIFFError(path: name, line: file.fileLine, column: file.fileColumn, message:
                    "\(locale) is not a supported locale of the catalog (add it to supportedLocales in catalog.json first)"))
            }
            var unknown: [String] = []
            for (unit, line) in zip(file.units, file.lines) where !textKeys.contains(unit.key) || !XLIFF.isValidPath(unit.path) {
                unknown.append("\(name):\(line): '\(unit.id)'")
            }
            guard unknown.isEmpty else {
                for line in unknown { context.stderr.line(Sanitizer.terminalSafe("  unknown key: \(line)")) }
                throw CommandError.failure(Sanitizer.terminalSafe(
                    "\(name): \(unknown.count) trans-unit \(plural(unknown.count, "id")) matching no tip text; Localizable.xcstrings not written"))
            }
            imports.append((locale, file))
        }
        guard let strings = try readStrings(directory: directory) else {
            throw CommandError.failure("no \(CatalogLoader.FileName.strings) in \(Sanitizer.terminalSafe(directory)); run 'tipcat strings sync' first")
        }
        var root = strings.root
        // Every text must have an entry to take its translations.
        let existing = Set(root.value.objectValue?["strings"]?.value.objectValue?.keys ?? [])  // a set: no linear search per key
        let missing = Set(imports.flatMap { $0.file.units.filter { $0.target != nil }.map(\.key) })
            .filter { !existing.contains($0) }
        guard missing.isEmpty else {
            throw CommandError.failure(Sanitizer.terminalSafe(
                "\(strings.path) has no entry for \(missing.sorted().joined(separator: ", ")); run 'tipcat strings sync' first"))
        }
        var reports: [String] = []
        for (locale, file) in imports {
            let (units, outdated) = Self.markingOutdated(file, current: root, tips: catalog.tips, sourceLanguage: sourceLanguage, locale: locale)
            for line in outdated { context.stderr.line(Sanitizer.terminalSafe("  outdated source: \(line)")) }
            let (merged, counts) = XLIFF.merge(units, into: root, locale: locale)
            root = merged
            reports.append("\(locale) (\(file.path)): \(counts.added) added, \(counts.changed) changed, \(counts.unchanged) unchanged"
                + (outdated.isEmpty ? "" : ", \(outdated.count) translated from an outdated source (imported as needs_review)"))
        }
        let bytes = StringCatalogWriter.write(root, source: strings.bytes)
        if bytes != strings.bytes { try Self.writeAtomically(bytes, to: strings.path) }
        for line in reports { context.stdout.line(Sanitizer.terminalSafe(line)) }
        context.stdout.line(Sanitizer.terminalSafe(bytes == strings.bytes ? "\(strings.path) is unchanged" : "updated \(strings.path)"))
    }

    /// The file's units, those whose `<source>` is not the text the catalog has now (the tip changed after the
    /// export) set to `needs-review-translation`, and one `file:line: 'id': …` line for each of them.
    static func markingOutdated(
        _ file: XLIFFFile, current root: JSONNode, tips: [Tip], sourceLanguage: LocaleID, locale: LocaleID
    ) -> (units: [XLIFFUnit], outdated: [String]) {
        var sources: [String: String] = [:]
        for unit in XLIFF.units(root: root, tips: tips, sourceLanguage: sourceLanguage, locale: locale) { sources[unit.id] = unit.source }
        var units = file.units
        var outdated: [String] = []
        for index in units.indices where units[index].target != nil {
            guard let current = sources[units[index].id], current != units[index].source else { continue }
            if XLIFF.catalogState(units[index].state) == "translated" { units[index].state = "needs-review-translation" }
            let line = index < file.lines.count ? file.lines[index] : 0
            outdated.append("\(file.path):\(line): '\(units[index].id)' was translated from \"\(units[index].source)\"; the text is now \"\(current)\"")
        }
        return (units, outdated)
    }

    /// A `.xliff` file as is; an `.xcloc` directory's `Localized Contents/*.xliff`.
    private func xliffPaths(_ argument: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
            throw CommandError.failure("no such file: \(Sanitizer.terminalSafe(argument))")
        }
        guard isDirectory.boolValue else { return [argument] }
        let contents = argument + "/Localized Contents"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: contents)) ?? []
        let xliffs = names.filter { $0.hasSuffix(".xliff") }.sorted()
        guard !xliffs.isEmpty else {
            throw CommandError.failure("\(Sanitizer.terminalSafe(argument)) is not an .xcloc: no 'Localized Contents/<locale>.xliff' in it")
        }
        return xliffs.map { contents + "/" + $0 }
    }

    /// Prints `path:line:col: error: message; nothing imported` and gives the exit to throw.
    private func located(_ error: XLIFFError) -> CommandError {
        context.stderr.line(Sanitizer.terminalSafe(
            "\(error.path):\(error.line):\(error.column): error: \(error.message); nothing imported"))
        return CommandError.exit(.failure)
    }
}
