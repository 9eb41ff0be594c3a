import Foundation
import TipcatCatalog
import TipcatCore
import TipcatJSON
import TipcatText

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `tipcat strings sync [--check] [--prune]`.
extension StringsCommand {
    func sync() throws {
        let directory = arguments.value("catalog") ?? "Catalog"
        let check = arguments.flag("check")
        var catalogCheck = CatalogCheck(directory: directory, context: context, externalPlugins: false)
        catalogCheck.keepsStrings = true  // the file as the loader read and parsed it: no second read or parse
        let outcome = try catalogCheck
            .requireValid(purpose: check ? "Localizable.xcstrings not checked" : "Localizable.xcstrings not written",
                          tolerated: [DiagnosticRule.orphanTranslation.id])  // even raised to an error: sync marks them stale or prunes them
        let catalog = outcome.result.catalog
        let path = directory + "/" + CatalogLoader.FileName.strings
        let original: [UInt8]?
        var root: JSONNode?
        if let document = outcome.result.stringsDocument {
            original = document.source.bytes.array
            root = document.root
        } else if FileManager.default.fileExists(atPath: path) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandError.failure("cannot read \(Sanitizer.terminalSafe(path))")
            }
            original = [UInt8](data)
        } else {
            original = nil
        }
        if root == nil, let original {
            do {
                root = try JSONDocument.parse(SourceFile(path: path, bytes: original)).root
            } catch {
                throw CommandError.failure("\(Sanitizer.terminalSafe(path)) is not valid JSON: \(error.message)")
            }
        }
        let (synced, changes) = StringCatalogSync(tips: catalog.tips, sourceLanguage: catalog.settings.sourceLanguage,
                                                  prune: arguments.flag("prune")).sync(root)
        let bytes = StringCatalogWriter.write(synced, source: original ?? [])
        let name = Sanitizer.terminalSafe(path)
        guard bytes != original else {
            context.stdout.line("\(name) is up to date")
            return
        }
        var lines = changes.lines
        if original == nil { lines.insert("created: \(name)", at: 0) }
        if changes.isEmpty, original != nil { lines.append("reformatted as Xcode writes it") }
        if check {
            for line in lines { context.stdout.line(Sanitizer.terminalSafe(line)) }
            context.stderr.line("error: \(name) is out of date (\(changes.summary)); run 'tipcat strings sync'")
            throw CommandError.exit(.failure)
        }
        try Self.writeAtomically(bytes, to: path)
        context.stdout.line("\(original == nil ? "created" : "updated") \(name): \(changes.summary)")
    }

    /// Writes `bytes` to a temporary file next to `path`, then renames it over `path`.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp").path
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        } catch {
            _ = unlink(temporary)
            throw CommandError.failure("cannot write \(Sanitizer.terminalSafe(temporary)): \(error.localizedDescription)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = unlink(temporary)
            throw CommandError.failure("cannot replace \(Sanitizer.terminalSafe(path)): \(reason)")
        }
    }
}
