import Foundation
import TipcatArguments
import TipcatCatalog

/// `tipcat init DIR`: a minimal valid catalog, with its JSON Schemas, in a new or empty directory.
struct InitCommand {
    let arguments: ParsedArguments
    let context: CommandContext

    func run() throws {
        let directory = arguments.positional("dir") ?? ""
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw CommandError.failure("'\(directory)' exists and is a file; choose a new directory")
            }
            let entries = (try? manager.contentsOfDirectory(atPath: directory)) ?? []
            guard entries.isEmpty else {
                throw CommandError.failure("'\(directory)' is not empty; tipcat init never overwrites files — choose a new or empty directory")
            }
        }
        let name = directory.split(separator: "/").last.map(String.init) ?? "Catalog"
        var files = CatalogScaffold.files(name: name)
        for (file, text) in CatalogSchemas.files { files["schemas/\(file)"] = text }
        do {
            for path in files.keys.sorted() {
                let full = directory + "/" + path
                let parent = (full as NSString).deletingLastPathComponent
                try manager.createDirectory(atPath: parent, withIntermediateDirectories: true)
                guard manager.createFile(atPath: full, contents: Data((files[path] ?? "").utf8)) else {
                    throw CommandError.failure("cannot write '\(full)'")
                }
            }
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError.failure("cannot create '\(directory)': \(error.localizedDescription)")
        }
        context.stdout.line("Created a catalog in \(directory)/ (\(files.count) \(plural(files.count, "file"))).")
        context.stdout.line("Next: edit \(directory)/tips/WelcomeTip.json, then run 'tipcat validate --catalog \(directory)'.")
    }
}
