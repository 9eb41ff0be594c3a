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
        var check = CatalogCheck(directory: directory, context: context, externalPlugins: false)
        check.keepsStrings = true  // the units are read from the String Catalog's entries as written
        let outcome = try check.requireValid(purpose: "nothing exported", tolerated: [DiagnosticRule.orphanTranslation.id])
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
        let root = outcome.result.strings
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw CommandError.failure("cannot create \(Sanitizer.terminalSafe(output)): \(error.localizedDescription)")
        }
        let export = XLIFF.Export(root: root, tips: catalog.tips, sourceLanguage: sourceLanguage)
        // As many documents are made at once as there are cores; they are written and reported in the order given.
        let batch = onlineCores
        for start in stride(from: 0, to: locales.count, by: batch) {
            let slice = Array(locales[start..<min(locales.count, start + batch)])
            let documents = concurrentChunks(count: slice.count, chunkSize: 1) { range in
                let document = export.document(locale: slice[range.lowerBound], toolVersion: tipcatVersion)
                return ExportedDocument(bytes: document.bytes, units: document.units, translated: document.translated)
            }
            for (locale, document) in zip(slice, documents) {
                let path = output + "/" + locale.identifier + ".xliff"
                try Self.writeAtomically(document.bytes, to: path)
                context.stdout.line(Sanitizer.terminalSafe(
                    "wrote \(path): \(document.units) \(plural(document.units, "unit")), \(document.translated) with a target"))
            }
        }
    }

    /// One locale's XLIFF file and its unit counts.
    private struct ExportedDocument: Sendable {
        var bytes: [UInt8]
        var units: Int
        var translated: Int
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
