import Foundation
import TipcatCatalog
import TipcatCore
import TipcatJSON
import TipcatLocalization
import TipcatText

/// `tipcat strings export`: XLIFF 1.2 for translators.
extension StringsCommand {
    // MARK: export

    func export() throws {
        let directory = arguments.value("catalog") ?? "Catalog"
        let output = arguments.value("output") ?? "Localizations"
        let outcome = try CatalogCheck(directory: directory, context: context, externalPlugins: false)
            .requireValid(purpose: "nothing exported", tolerated: [DiagnosticRule.orphanTranslation.id])
        let catalog = outcome.result.catalog
        let sourceLanguage = catalog.settings.sourceLanguage
        var locales: [LocaleID] = []
        for text in arguments.values("locale") {
            guard let locale = LocaleID(text) else {
                throw CommandError.usage("'\(Sanitizer.terminalSafe(text))' is not a locale identifier", command: arguments.commandPath)
            }
            guard locale != sourceLanguage else {
                throw CommandError.usage("\(locale) is the source language; export a locale to translate into", command: arguments.commandPath)
            }
            if !locales.contains(locale) { locales.append(locale) }
        }
        guard !locales.isEmpty else {
            throw CommandError.usage("name at least one --locale to export", command: arguments.commandPath)
        }
        let root = try readStrings(directory: directory)?.root
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw CommandError.failure("cannot create \(Sanitizer.terminalSafe(output)): \(error.localizedDescription)")
        }
        for locale in locales {
            let units = XLIFF.units(root: root, tips: catalog.tips, sourceLanguage: sourceLanguage, locale: locale)
            let text = XLIFF.document(units, sourceLanguage: sourceLanguage, locale: locale, toolVersion: tipcatVersion)
            let path = output + "/" + locale.identifier + ".xliff"
            try Self.writeAtomically(Array(text.utf8), to: path)
            let translated = units.filter { $0.target != nil }.count
            context.stdout.line(Sanitizer.terminalSafe(
                "wrote \(path): \(units.count) \(plural(units.count, "unit")), \(translated) with a target"))
        }
    }

    /// The parsed `Localizable.xcstrings` and its bytes, nil when there is none.
    func readStrings(directory: String) throws -> (root: JSONNode, bytes: [UInt8], path: String)? {
        let path = directory + "/" + CatalogLoader.FileName.strings
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError.failure("cannot read \(Sanitizer.terminalSafe(path))")
        }
        let bytes = [UInt8](data)
        do {
            return (try JSONDocument.parse(SourceFile(path: path, bytes: bytes)).root, bytes, path)
        } catch {
            throw CommandError.failure("\(Sanitizer.terminalSafe(path)) is not valid JSON: \(error.message)")
        }
    }
}
